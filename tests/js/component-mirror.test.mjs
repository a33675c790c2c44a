// The verified RIM mirror of the service component (target/component/edgeattest-service.wasm):
// what the core decides, as the worker serves it. An independent client (mirror_client.py:
// lxml, cryptography) validates the envelope and the XML signature of a RIM an attestation
// fetched and verified; a tampered upstream RIM is never mirrored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { buildAttestRequest } from '../../pkg/index.js';
import { startServiceComponent } from './support/component-service.mjs';
import { fixtureBytes, ls10 } from './support/fixtures.mjs';

const SWITCH_ID = 'NV_SWITCH_BIOS_5612_0002_890_9610550001';
const GOOD = fixtureBytes('rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml');
const TAMPERED = fixtureBytes('rims/nvat/NV_SWITCH_BIOS_5612_0002_890_9610550001_invalid_signature.xml');
const RIM_ROOT = fileURLToPath(new URL('../fixtures/nvidia/roots/nvidia_rim_root_ca.pem', import.meta.url));
const CLIENT = fileURLToPath(new URL('./support/mirror_client.py', import.meta.url));
const JUNE_2026 = String(Date.parse('2026-06-01T00:00:00Z') / 1000);
const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

async function upstream(xml) {
  const server = createServer((request, response) => {
    const envelope = { id: SWITCH_ID, rim: xml.toString('base64'), sha256: createHash('sha256').update(xml).digest('hex'), rim_format: 'TCG', request_id: 'u' };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1/rim/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const client = (origin) => new Promise((resolve, reject) => {
  execFile('python3', [CLIENT, 'rim', origin, SWITCH_ID, RIM_ROOT], { encoding: 'utf8' }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(JSON.parse(stdout))));
});

async function attestThenAsk(xml) {
  const source = await upstream(xml);
  const component = await startServiceComponent({ EDGEATTEST_RIM_SERVICE_URL: source.url, EDGEATTEST_BUNDLED_RIMS: 'off', EDGEATTEST_FIXED_TIME: JUNE_2026 });
  try {
    assert.equal((await client(component.origin)).status, 404, 'nothing mirrored before');
    const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
    const body = buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, evidence: [ls10] });
    const response = await fetch(`${component.origin}/v4/attest/switch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const device = payload((await response.json())[1]['SWITCH-0']);
    await source.close();
    return { device, mirrored: await client(component.origin) };
  } finally {
    await component.stop();
  }
}

test('component: an attestation\'s verified RIM is mirrored; an independent client validates it', async () => {
  const { device, mirrored } = await attestThenAsk(GOOD);
  assert.equal(device.measres, 'success');
  assert.equal(mirrored.status, 200);
  assert.deepEqual(mirrored.members, ['id', 'rim', 'sha256', 'last_updated', 'rim_format', 'request_id'].filter((m) => m !== 'last_updated'));
  assert.equal(mirrored.sha256, createHash('sha256').update(GOOD).digest('hex'));
  assert.match(mirrored.signer, /NVIDIA/);
});

test('component: a tampered upstream RIM is never mirrored', async () => {
  const { device, mirrored } = await attestThenAsk(TAMPERED);
  assert.notEqual(device.measres, 'success');
  assert.equal(mirrored.status, 404);
  assert.equal(mirrored.body.code, 'ERR_RIM_NOT_MIRRORED');
});
