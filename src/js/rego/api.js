// The Rego API (`edgeattest/rego`): relying-party policies in Rego (NVIDIA's C++ SDK format),
// evaluated by regorus, in a wasm module of their own so that the other entries do not carry
// the interpreter. `appraiseRego(result, policyText)` takes the object verifyAttestationResult
// returned (from any edgeattest entry) and returns the PolicyDecision `appraise` returns for
// JSON policies. The input document a policy sees is documented in src/policy/rego.rs
// (`RegoInputV1` in the types).

/**
 * Rego relying-party policies (NVIDIA's C++ SDK format) over a verified result, evaluated by
 * regorus in a wasm module of their own (`appraiseRego`). In browsers call `await init()`
 * once first.
 *
 * @packageDocumentation
 * @module edgeattest/rego
 */
export { appraiseRego } from './edgeattest.js';
export { EdgeAttestError } from './error.js';
