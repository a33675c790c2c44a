// Rego policies on the page: `appraiseRegoLazily(verified, policyText)` loads the Rego module
// (edgeattest/rego, its own wasm: regorus is larger than the rest of the page's module) the
// first time a Rego policy is applied, and returns the same PolicyDecision `appraise` returns
// for NVIDIA's JSON policies (`version: "rego"`; a Rego decision lists the failed rules), so
// the policy section renders both alike. `isRegoPolicy(text)` tells the two formats apart, and
// `regoSamples()` loads the bundled Rego policies (www/samples/policies-rego.json). The last
// policy text applied stays compiled (`prepareRegoPolicy`), so applying it again to a new
// result does not compile it again; another text frees it.
let module;
/** The last policy text compiled and its RegoPolicy; undefined: none. */
let prepared;

/** Whether `text` is a Rego policy (a `package` line) rather than a JSON one. */
export function isRegoPolicy(text) {
  return /^\s*(#[^\n]*\n\s*)*package\s/.test(text);
}

/** The Rego module's decision for `policyText` over the verified result; throws coded errors. */
export async function appraiseRegoLazily(verified, policyText) {
  module ??= import('../pkg/rego/index.js').catch((error) => {
    module = undefined;
    throw error;
  });
  const { prepareRegoPolicy } = await module;
  if (prepared?.text !== policyText) {
    const previous = prepared;
    prepared = undefined;
    previous?.policy.free();
    prepared = { text: policyText, policy: prepareRegoPolicy(policyText) };
  }
  return prepared.policy.appraise(verified);
}

/** The bundled Rego policies: [{id, title, file, policy}]. */
export async function regoSamples() {
  const response = await fetch(new URL('../samples/policies-rego.json', import.meta.url));
  if (!response.ok) throw new Error(`samples/policies-rego.json: HTTP ${response.status}`);
  return (await response.json()).policies;
}
