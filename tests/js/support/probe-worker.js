// A workerd module worker that imports the release package through its workerd entry and
// exercises it, so the test sees the package work inside workerd itself.
import { buildAttestRequest, generateNonce, validateAttestRequest } from '../../../pkg/workerd.js';

export default {
  async fetch(request) {
    const { evidenceHex, certificate } = await request.json();
    const out = {};
    out.nonce = generateNonce();
    const body = buildAttestRequest({
      endpoint: '/v4/attest/gpu',
      arch: 'HOPPER',
      nonce: out.nonce,
      evidence: [{ evidence: evidenceHex, certificate }],
    });
    out.summary = validateAttestRequest('/v4/attest/gpu', JSON.stringify(body));
    try {
      validateAttestRequest('/v4/attest/gpu', { ...body, nonce: 'short' });
    } catch (error) {
      out.error = { name: error.name, code: error.code, field: error.field };
    }
    return Response.json(out);
  },
};
