// The client API (`edgeattest/client`): what a caller of an attestation service needs —
// nonces, attest requests, and checking the tokens that come back — from a wasm module built
// without the service, evidence, RIM, access, list and deprecation bindings (Cargo feature
// `js-full` off), a third of the full module's size. The same names behave the same as in
// the full package; tests/js/client.test.mjs checks both.
export { generateNonce, buildAttestRequest, validateAttestRequest } from './edgeattest.js';
export * from './token.js';
export * from './jwks.js';
export { EdgeAttestError } from './error.js';
