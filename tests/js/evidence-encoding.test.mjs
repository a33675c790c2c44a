// One decoding rule for evidence text at every JS entry (issue 17): buildAttestRequest,
// verifyEvidence, prepareEvidence (verifyEvidenceBatch) and runtimeEvidence take bytes, hex,
// base64 or base64 of hex alike; a named evidenceEncoding refuses the others with
// ERR_EVIDENCE_ENCODING, its field and a message naming both encodings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildAttestRequest, validateAttestRequest, verifyEvidence, verifyEvidenceBatch, runtimeEvidence,
} from '../../pkg/local/index.js';
import * as remote from '../../pkg/index.js';
import { fixtureText, hexBytes } from './support/fixtures.mjs';

const N931 = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const NOW = 1_790_000_000;
const bytes = hexBytes('evidence/hopper/nvtrust_hopper_550.90.07_report.hex');
const certificate = fixtureText('evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem');
const hexText = fixtureText('evidence/hopper/nvtrust_hopper_550.90.07_report.hex');
const forms = {
  bytes,
  hex: hexText,
  base64: Buffer.from(bytes).toString('base64'),
  'base64-hex': Buffer.from(hexText).toString('base64'),
};

function throwsEncoding(fn, field, expected, found) {
  assert.throws(fn, (error) => {
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, 'ERR_EVIDENCE_ENCODING', error.message);
    assert.equal(error.field, field);
    assert.match(error.message, expected);
    assert.match(error.message, found);
    return true;
  });
}

test('every form gives the same request, the same report and the same values', async () => {
  const request = (evidence, extra = {}) =>
    buildAttestRequest({ endpoint: '/v3/attest/gpu', arch: 'HOPPER', nonce: N931, evidence: [{ evidence, certificate }], ...extra });
  const expected = request(bytes);
  // NVIDIA's V3 field: base64 of the bytes, whatever the input was.
  assert.equal(expected.evidence_list[0].evidence, forms.base64);
  const report = verifyEvidence({ evidence: bytes, certificate, nonce: N931, arch: 'HOPPER', now: NOW });
  assert.ok(report.signatureVerified && report.nonceMatch);
  for (const [name, evidence] of Object.entries(forms)) {
    assert.deepEqual(request(evidence), expected, name);
    assert.deepEqual(remote.buildAttestRequest({ endpoint: '/v3/attest/gpu', arch: 'HOPPER', nonce: N931, evidence: [{ evidence, certificate }] }), expected, name);
    assert.deepEqual(verifyEvidence({ evidence, certificate, nonce: N931, arch: 'HOPPER', now: NOW }), report, name);
    const [batch] = await verifyEvidenceBatch({ devices: [{ evidence, certificate }], nonce: N931, arch: 'HOPPER', now: NOW });
    assert.deepEqual(batch, { ok: true, report }, name);
    assert.deepEqual(runtimeEvidence({ evidence, arch: 'HOPPER' }), runtimeEvidence({ evidence: bytes, arch: 'HOPPER' }), name);
    if (name !== 'bytes') {
      // Named, the same.
      assert.deepEqual(request(evidence, { evidenceEncoding: name }), expected, name);
      assert.deepEqual(verifyEvidence({ evidence, certificate, nonce: N931, arch: 'HOPPER', now: NOW, evidenceEncoding: name }), report, name);
    }
  }
  // The V2 field is base64 of the hex text (generation 1).
  const v2 = buildAttestRequest({ endpoint: '/v2/attest/gpu', arch: 'HOPPER', nonce: N931, evidence: [{ evidence: forms.base64, certificate }] });
  assert.equal(Buffer.from(v2.evidences[0].evidence, 'base64').toString(), Buffer.from(bytes).toString('hex'));
  assert.equal(validateAttestRequest('/v2/attest/gpu', v2).devices[0].evidenceBytes, bytes.length);
});

test('a named encoding refuses the others, naming the field and both encodings', () => {
  throwsEncoding(
    () => buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce: N931, evidenceEncoding: 'base64', evidence: [{ evidence: forms.hex, certificate }] }),
    'evidence[0].evidence', /but base64 of the evidence bytes/, /is hex text/,
  );
  throwsEncoding(
    () => verifyEvidence({ evidence: forms.base64, certificate, nonce: N931, arch: 'HOPPER', now: NOW, evidenceEncoding: 'hex' }),
    'evidence', /but hex text/, /is base64 of the evidence bytes/,
  );
  throwsEncoding(
    () => verifyEvidence({ evidence: forms.base64, certificate, nonce: N931, arch: 'HOPPER', now: NOW, evidenceEncoding: 'base64-hex' }),
    'evidence', /but base64 of the evidence's hex text/, /is base64 of the evidence bytes/,
  );
  throwsEncoding(
    () => runtimeEvidence({ evidence: forms['base64-hex'], evidenceEncoding: 'base64', arch: 'HOPPER' }),
    'evidence', /but base64 of the evidence bytes/, /is base64 of the evidence's hex text/,
  );
  // In no encoding at all.
  throwsEncoding(
    () => buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce: N931, evidence: [{ evidence: 'not evidence!', certificate }] }),
    'evidence[0].evidence', /expected bytes, hex text, or base64/, /neither hex nor base64/,
  );
  // The service's validator says the same of a request body.
  const body = buildAttestRequest({ endpoint: '/v3/attest/gpu', arch: 'HOPPER', nonce: N931, evidence: [{ evidence: bytes, certificate }] });
  body.evidence_list[0].evidence = hexText.trim();
  throwsEncoding(() => validateAttestRequest('/v3/attest/gpu', body), 'evidence_list[0].evidence', /but base64 of the evidence bytes/, /is hex text/);
  assert.throws(
    () => verifyEvidence({ evidence: forms.base64, certificate, nonce: N931, arch: 'HOPPER', now: NOW, evidenceEncoding: 'b64' }),
    { name: 'EdgeAttestError', code: 'ERR_INVALID_ARGUMENT', field: 'evidenceEncoding' },
  );
});
