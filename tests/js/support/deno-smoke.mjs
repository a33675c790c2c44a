// Run by tests/js/deno.test.mjs under Deno: imports the release package through its default
// entry (file: URL, node:fs) and prints what it computed.
import { buildAttestRequest, generateNonce, validateAttestRequest } from '../../../pkg/index.js';

const [evidencePath, pemPath] = Deno.args;
const hex = (await Deno.readTextFile(evidencePath)).trim();
const certificate = await Deno.readTextFile(pemPath);
const nonce = generateNonce();
const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [{ evidence: hex, certificate }] });
const summary = validateAttestRequest('/v4/attest/gpu', body);
let code = null;
try {
  validateAttestRequest('/v4/attest/gpu', { ...body, arch: 'LS10' });
} catch (error) {
  code = error.code;
}
console.log(JSON.stringify({ nonce, summary, code, runtime: `deno ${Deno.version.deno}` }));
