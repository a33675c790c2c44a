// The Rego API (`edgeattest/rego`): relying-party policies in Rego (NVIDIA's C++ SDK format),
// evaluated by regorus, in a wasm module of their own so that the other entries do not carry
// the interpreter. `appraiseRego(result, policy)` takes the object verifyAttestationResult
// returned (from any edgeattest entry) and returns the PolicyDecision `appraise` returns for
// JSON policies; `prepareRegoPolicy(text)` compiles a policy once into a `RegoPolicy` whose
// `appraise` applies it to many results. The input document a policy sees is documented in
// src/policy/rego.rs (`RegoInputV1` in the types).

/**
 * Rego relying-party policies (NVIDIA's C++ SDK format) over a verified result, evaluated by
 * regorus in a wasm module of their own (`appraiseRego`, `prepareRegoPolicy`). In browsers
 * call `await init()` once first.
 *
 * @packageDocumentation
 * @module edgeattest/rego
 */
import { RegoPolicy, appraiseRego as appraiseRegoText } from './edgeattest.js';

/**
 * @import { PolicyDecision, RegoAppraisalInput } from './edgeattest.js'
 */

/**
 * Appraises a verified result's claims (`result`, as `verifyAttestationResult` returned it in
 * any edgeattest entry, or a refused result's `error.result`) against a Rego `policy` in the
 * format of NVIDIA's SDKs, evaluated by regorus within a budget: text or UTF-8 bytes, compiled
 * for this call, or a `RegoPolicy` from `prepareRegoPolicy`, compiled once (the faster way to
 * apply one policy to many results). Returns the `PolicyDecision` (`version: "rego"`).
 *
 * @param {RegoAppraisalInput} result
 * @param {string | Uint8Array | RegoPolicy} policy
 * @returns {PolicyDecision}
 * @throws EdgeAttestError `ERR_REGO_*` for a policy that does not
 * compile, is hostile, runs past its budget or returns the wrong shape (`ERR_REGO_PARSE`,
 * `ERR_REGO_BUDGET`, `ERR_REGO_RESULT`, …), `ERR_POLICY_TOO_LARGE`, `ERR_INVALID_ARGUMENT` for
 * a `result` that is not verified data, a policy that is not text, bytes or a `RegoPolicy`,
 * or a freed `RegoPolicy`.
 *
 * @example
 * ```ts
 * declare const verified: RegoAppraisalInput; // verifyAttestationResult's, from 'edgeattest'
 * declare const policyText: string; // Rego text
 * const decision = appraiseRego(verified, policyText);
 * if (!decision.passed) console.error(decision.devices.filter((device) => !device.passed));
 * // The same policy for many results: compiled once.
 * const policy = prepareRegoPolicy(policyText);
 * console.log(appraiseRego(verified, policy).passed === decision.passed);
 * policy.free();
 * ```
 */
export function appraiseRego(result, policy) {
  return policy instanceof RegoPolicy ? policy.appraise(result) : appraiseRegoText(result, policy);
}

export { RegoPolicy, prepareRegoPolicy } from './edgeattest.js';
export { EdgeAttestError } from './error.js';
