// The worker and a RIM service (EDGEATTEST_RIM_SERVICE_URL): a stand-in on loopback serves
// NVIDIA's envelope `{id, rim, sha256}`. The worker asks only for the RIMs of devices whose
// evidence verified, once per id however many requests need it, remembers a 404, and the
// fetched document is verified and used like a bundled one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { buildAttestRequest } from '../../pkg/index.js';
import { startWorker } from './support/worker.mjs';
import { fixtureBytes, fixtureText, hexBytes, ls10 } from './support/fixtures.mjs';

const SWITCH_ID = 'NV_SWITCH_BIOS_5612_0002_890_9610550001';
const SWITCH_RIM = fixtureBytes('rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml');
const JUNE_2026 = String(Date.parse('2026-06-01T00:00:00Z') / 1000);
const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

const asked = [];
let rimService;
let worker;

before(async () => {
  rimService = createServer((request, response) => {
    const id = decodeURIComponent(request.url.replace(/^\/v1\/rim\//, ''));
    asked.push(id);
    if (id !== SWITCH_ID) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    const envelope = {
      id, rim: SWITCH_RIM.toString('base64'), sha256: createHash('sha256').update(SWITCH_RIM).digest('hex'),
      rim_format: 'TCG', last_updated: '2026-05-20T00:00:00Z', request_id: 'r1',
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
  });
  await new Promise((resolve) => rimService.listen(0, '127.0.0.1', resolve));
  worker = await startWorker({
    bindings: {
      EDGEATTEST_RIM_SERVICE_URL: `http://127.0.0.1:${rimService.address().port}/`,
      EDGEATTEST_BUNDLED_RIMS: 'off',
      EDGEATTEST_FIXED_TIME: JUNE_2026,
    },
  });
});
after(async () => {
  await worker?.stop();
  rimService?.close();
});

const post = async (path, body) => {
  const response = await fetch(`${worker.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200);
  return response.json();
};
const switchRequest = () => {
  const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
  return buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, evidence: [ls10] });
};

test('health: no bundled RIM, the RIM service configured', async () => {
  const health = await (await fetch(`${worker.origin}/health`)).json();
  assert.equal(health.rimServiceHealth.checks.localDocuments, '0 documents');
});

test('a verified switch: its RIM is fetched once, verified and used; concurrent requests share the fetch', async () => {
  asked.length = 0;
  const results = await Promise.all([1, 2, 3].map(() => post('/v4/attest/switch', switchRequest())));
  for (const result of results) {
    const device = payload(result[1]['SWITCH-0']);
    assert.equal(device['x-nvidia-switch-bios-rim-fetched'], true);
    assert.equal(device.measres, 'success');
    assert.equal(payload(result[0][1])['x-nvidia-overall-att-result'], true);
  }
  assert.deepEqual(asked, [SWITCH_ID]);
  await post('/v4/attest/switch', switchRequest());
  assert.deepEqual(asked, [SWITCH_ID], 'held after the first fetch');
});

test('a RIM the service does not have: 5009, and the 404 is remembered', async () => {
  asked.length = 0;
  const sample = {
    evidence: hexBytes('evidence/hopper/nvat_hopper_535.86.09_report.hex'),
    certificate: fixtureText('evidence/hopper/nvat_hopper_535.86.09_certchain.pem'),
  };
  const nonce = Buffer.from(sample.evidence.slice(4, 36)).toString('hex');
  const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [sample] });
  for (let i = 0; i < 3; i++) {
    const device = payload((await post('/v4/attest/gpu', body))[1]['GPU-0']);
    assert.equal(device['x-nvidia-error-details'].code, 5009);
  }
  assert.deepEqual([...new Set(asked)].sort(), ['NV_GPU_DRIVER_GH100_535.86.09', 'NV_GPU_VBIOS_1010_0200_882_96005E0001'].sort());
  assert.equal(asked.length, 2, 'each missing id asked once in three requests');
});

test('evidence that does not verify makes the worker fetch nothing', async () => {
  asked.length = 0;
  const forged = {
    evidence: hexBytes('evidence/hopper/nvat_hopper_560.00_INVALID_SIGNATURE_report.hex'),
    certificate: fixtureText('evidence/hopper/nvat_hopper_570.124.03_certchain.pem'),
  };
  const nonce = Buffer.from(forged.evidence.slice(4, 36)).toString('hex');
  const result = await post('/v4/attest/gpu', buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [forged] }));
  assert.equal(payload(result[1]['GPU-0'])['x-nvidia-error-details'].code, 4013);
  // A tampered nonce: the evidence's signature no longer verifies either.
  const tampered = Uint8Array.from(ls10.evidence);
  tampered[40] ^= 1;
  await post('/v4/attest/switch', buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce: Buffer.from(tampered.slice(4, 36)).toString('hex'), evidence: [{ ...ls10, evidence: tampered }] }));
  assert.deepEqual(asked, []);
});
