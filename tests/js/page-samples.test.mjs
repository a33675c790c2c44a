// The page's bundled samples: byte-for-byte what the generator makes from the repository's
// fixtures (so their provenance holds), real data that verifies, and nothing from the
// AGPL-licensed TEEP recordings anywhere in the shipped page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SAMPLE_FILES, serialize } from './support/page-samples.mjs';
import { fixtureText } from './support/fixtures.mjs';
import '../../pkg/local/index.js'; // instantiates the wasm module
import { verifyEvidence, verifyRim } from '../../pkg/local/edgeattest.js';

const www = fileURLToPath(new URL('../../www/', import.meta.url));
const samples = JSON.parse(readFileSync(join(www, 'samples/evidence.json'), 'utf8')).samples;
const rims = JSON.parse(readFileSync(join(www, 'samples/rims.json'), 'utf8')).rims;

test('www/samples/*.json are what tests/js/support/page-samples.mjs generates', () => {
  for (const [name, make] of Object.entries(SAMPLE_FILES)) {
    assert.equal(readFileSync(join(www, 'samples', name), 'utf8'), serialize(make()), `regenerate ${name}`);
  }
});

test('every bundled evidence sample verifies with its nonce; its RIMs exist and match its kind', () => {
  const nvidia = samples.filter((s) => s.collateral.source === 'nvidia');
  const testPki = samples.filter((s) => s.collateral.source === 'edgeattest-test-pki');
  assert.equal(nvidia.length, 5);
  assert.equal(testPki.length, 8);
  const ids = new Set(rims.map((r) => r.id));
  const testRoot = fixtureText('../generated/ocsp/root.pem');
  for (const sample of samples) {
    // The TEST PKI samples verify against the test PKI's root only; one is sent with another nonce.
    const trustAnchors = sample.collateral.source === 'nvidia' ? undefined : testRoot;
    const nonce = sample.expect.code === 4010 ? sample.evidenceHex.slice(8, 72) : sample.nonce;
    const report = verifyEvidence({
      evidence: sample.evidenceHex, evidenceEncoding: 'hex', certificate: sample.certificatePem,
      nonce, arch: sample.arch, ...(trustAnchors && { trustAnchors }),
    });
    assert.equal(report.nonce, nonce, sample.id);
    if (sample.request) {
      assert.deepEqual(sample.request.evidence_list, [{
        evidence: Buffer.from(sample.evidenceHex, 'hex').toString('base64'),
        certificate: Buffer.from(sample.certificatePem).toString('base64'),
      }]);
      assert.equal(sample.request.nonce, sample.nonce);
    }
    assert.equal(report.arch, sample.arch);
    for (const [kind, id] of Object.entries(sample.rims)) {
      assert.ok(ids.has(id), `${sample.id}: ${id}`);
      assert.equal(rims.find((r) => r.id === id).kind, kind);
    }
  }
});

test('every bundled RIM verifies inside its signer validity, with the version its title names', () => {
  for (const rim of rims) {
    // The nvtrust signers were valid 2023-2025, the LS10 one from May 2026.
    const now = (rim.id.startsWith('switch') ? Date.UTC(2026, 6, 1) : Date.UTC(2024, 0, 1)) / 1000;
    const verified = verifyRim(rim.xml, { now });
    assert.equal(verified.isTrusted, true, rim.id);
    assert.equal(verifyRim(rim.xml, { now: Date.UTC(2029, 0, 1) / 1000 }).isTrusted, false, rim.id);
    const version = verified.colloquialVersion;
    assert.ok(rim.title.includes(version), `${rim.id}: ${version}`);
    assert.equal(rim.xml, fixtureText(rim.source.replace('tests/fixtures/nvidia/', '')));
    verified.free();
  }
});

test('the shipped page holds no TEEP (AGPL) recording', () => {
  const teep = ['v3_1gpu_success_20260629', 'v3_8gpu_success_20260629', 'v3_8gpu_nonce_mismatch_20260520'];
  const markers = teep.map((name) => JSON.parse(fixtureText(`nras/teep/${name}_response.json`))[0][1].slice(-40));
  const walk = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  for (const file of walk(www)) {
    const text = readFileSync(file, 'utf8');
    assert.ok(!/teep|13rac1/i.test(text), file);
    for (const marker of markers) assert.ok(!text.includes(marker), file);
  }
});
