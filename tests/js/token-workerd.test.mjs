// The token API inside workerd (through Miniflare), through the package's workerd entry:
// WebCrypto and software backends on a recorded service result, minting with a
// non-extractable CryptoKey.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const teep = (part) =>
  JSON.parse(readFileSync(new URL(`../fixtures/nvidia/nras/teep/v3_8gpu_success_20260629_${part}.json`, import.meta.url), 'utf8'));

// Resolved as if it lived at tests/js/ (scriptPath); the file itself need not exist.
const PROBE = `
import {
  verifyAttestationResult, getTokenBackend, generateKeyPair, createJwks, createDetachedEat, verifyJwt,
} from '../../pkg/workerd.js';

export default {
  async fetch(request) {
    const { response, jwks, nonce, iat } = await request.json();
    const out = { backend: getTokenBackend(), runs: [] };
    for (const backend of ['webcrypto', 'software']) {
      const verified = await verifyAttestationResult(response, jwks, { backend, nonce, now: iat });
      const late = await verifyAttestationResult(response, jwks, { backend, nonce, now: iat + 3600 })
        .then(() => null, (error) => error.code);
      out.runs.push([backend, verified.devices.length, verified.overallResult, late]);
    }
    const { privateKey, publicJwk } = await generateKeyPair({ kid: 'edge' });
    const keys = createJwks([{ kid: 'edge', key: publicJwk }]);
    const result = await createDetachedEat({ iat: 10, exp: 100 }, { 'GPU-0': { iat: 10 } }, privateKey, { kid: 'edge' });
    // Minted without a verdict: read, not refused.
    const minted = await verifyAttestationResult(result, keys, { now: 50, backend: 'software', allowFailedResult: true, signers: 'any' });
    out.minted = [privateKey.extractable, minted.devices[0].label];
    out.forged = await verifyJwt(result[1]['GPU-0'].slice(0, -2) + 'AA', keys, { now: 50, signers: 'any' })
      .then(() => null, (error) => error.code);
    return Response.json(out);
  },
};
`;

test('the token API works inside workerd', async () => {
  const mf = new Miniflare({
    rootPath: repo,
    modulesRoot: repo,
    modules: true,
    script: PROBE,
    scriptPath: 'tests/js/token-workerd-probe.js',
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2025-01-01',
  });
  try {
    const response = teep('response');
    const iat = JSON.parse(Buffer.from(response[0][1].split('.')[1], 'base64url')).iat;
    const res = await mf.dispatchFetch('http://localhost/', {
      method: 'POST',
      body: JSON.stringify({ response, jwks: teep('jwks'), nonce: teep('request').nonce, iat }),
    });
    const out = await res.json();
    assert.equal(res.status, 200, JSON.stringify(out));
    assert.deepEqual(out, {
      backend: 'webcrypto',
      runs: [
        ['webcrypto', 8, true, 'ERR_JWT_EXPIRED'],
        ['software', 8, true, 'ERR_JWT_EXPIRED'],
      ],
      minted: [false, 'GPU-0'],
      forged: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
  } finally {
    await mf.dispose();
  }
});
