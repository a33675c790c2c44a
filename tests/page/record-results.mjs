// Records the attestation results panel 1 offers (www/samples/results.json): the edge worker
// (target/worker, built by pkg-config/build.sh) runs in workerd with the edgeattest TEST PKI on
// and no network, answers the bundled TEST PKI samples' requests now, and its answers are
// written with the key set that signed them, each request's nonce and the recorded time (the
// overall token's iat). Its signing key is fresh on every run, so every run changes the file.
// As the local service does, the worker publishes its key's development chain as x5c; each
// entry carries that chain's root (`signerAnchor`), which the page trusts for that entry when
// it is loaded (and says so).
//
//   node tests/page/record-results.mjs
//
// NVIDIA's own recorded results (tests/fixtures/nvidia/nras/teep/) are AGPL-3.0 and never
// shipped with the page; these are this project's (Apache-2.0).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startWorker, developmentSigner } from '../js/support/worker.mjs';
import { buildAttestRequest } from '../../pkg/service/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { samples } = JSON.parse(readFileSync(`${root}www/samples/evidence.json`, 'utf8'));

// [sample id, endpoint, what the result shows]
const WANTED = [
  ['testpki-hopper-550.90.07', '/v4/attest/gpu', 'a pass whose device is a TEST PKI one (passed with warnings at its recorded time)'],
  ['testpki-ls10-96.10.55.00.01', '/v4/attest/switch', 'a switch pass from the TEST PKI (passed with warnings at its recorded time)'],
  ['testpki-hopper-tampered', '/v4/attest/gpu', 'a driver measurement altered (failed)'],
  ['testpki-hopper-revoked', '/v4/attest/gpu', 'a revoked device certificate (failed)'],
];

const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

// Revocation checked: the TEST PKI's certificates are answered from its bundled OCSP answers
// (no query leaves the machine for them).
const { bindings: signer, root: signerAnchor } = await developmentSigner();
const worker = await startWorker({ bindings: { ...signer, EDGEATTEST_TEST_PKI: 'on', EDGEATTEST_OCSP_URL: 'https://ocsp.ndis.nvidia.com/' } });
try {
  const jwks = await (await fetch(`${worker.origin}/.well-known/jwks.json`)).text();
  const results = [];
  for (const [id, endpoint, shows] of WANTED) {
    const sample = samples.find((s) => s.id === id);
    if (!sample) throw new Error(`no sample ${id} in www/samples/evidence.json`);
    // The sample's own request, or one built from its evidence as panel 3 builds it.
    const request = sample.request ?? buildAttestRequest({
      endpoint, nonce: sample.nonce, arch: sample.arch,
      evidence: [{ evidence: Uint8Array.from(Buffer.from(sample.evidenceHex, 'hex')), certificate: sample.certificatePem }],
    });
    const response = await fetch(`${worker.origin}${endpoint}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${id}: ${endpoint} answered ${response.status}: ${text.slice(0, 300)}`);
    const overall = payload(JSON.parse(text)[0][1]);
    results.push({
      id: `recorded-${id}`,
      title: `${sample.title.replace(/ — expect: .*$/, '')} — ${shows}`,
      sample: id,
      endpoint,
      format: 'detached',
      nonce: request.nonce,
      recordedAt: overall.iat,
      overallResult: overall['x-nvidia-overall-att-result'],
      result: text,
      jwks,
      signerAnchor,
    });
    console.log(`${id}: overall ${overall['x-nvidia-overall-att-result']}, iat ${new Date(overall.iat * 1000).toISOString()}`);
  }
  const file = {
    provenance: 'Recorded from this project\'s edge worker (edgeattest, Apache-2.0) in workerd with the edgeattest TEST PKI on '
      + 'and no network, answering the bundled TEST PKI samples (www/samples/evidence.json): not NVIDIA\'s service and not NVIDIA devices. '
      + 'The key set is the worker\'s key of that run, with its development chain; the chain\'s root is trusted for these results only. '
      + 'Made by tests/page/record-results.mjs.',
    results,
  };
  writeFileSync(`${root}www/samples/results.json`, `${JSON.stringify(file, null, 1)}\n`);
  console.log(`wrote www/samples/results.json (${results.length} results)`);
} finally {
  await worker.stop();
}
