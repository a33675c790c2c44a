// The verified collateral mirror through the worker in workerd, tested as its clients use it:
// an independent client (tests/js/support/mirror_client.py: urllib, lxml, cryptography)
// fetches `GET /v1/rim/<id>` and checks the envelope and the document's XML signature and
// chain; another worker uses the mirror as its RIM service and attests; the mirror's OCSP
// responder (`POST /ocsp`) answers a nonce-less request with the answer an attestation
// verified, bytes intact, and relays a request with a nonce. A tampered upstream RIM is never
// mirrored: not when an attestation fetched it, not when the mirror is asked for it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAttestRequest } from '../../pkg/index.js';
import { startWorker } from './support/worker.mjs';
import { fixtureBytes, ls10 } from './support/fixtures.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';

const SWITCH_ID = 'NV_SWITCH_BIOS_5612_0002_890_9610550001';
const GOOD = fixtureBytes('rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml');
const TAMPERED = fixtureBytes('rims/nvat/NV_SWITCH_BIOS_5612_0002_890_9610550001_invalid_signature.xml');
const RIM_ROOT = fileURLToPath(new URL('../fixtures/nvidia/roots/nvidia_rim_root_ca.pem', import.meta.url));
const CLIENT = fileURLToPath(new URL('./support/mirror_client.py', import.meta.url));
const PREWARM = fileURLToPath(new URL('../../pkg-config/prewarm.mjs', import.meta.url));
/** Inside the LS10 RIM's signer chain (2026-05-20 → 2027-11-02). */
const JUNE_2026 = String(Date.parse('2026-06-01T00:00:00Z') / 1000);
const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));

/** NVIDIA's RIM service on loopback, serving the LS10 RIM: `good`, `tampered` or `down` (503). */
function upstreamRimService() {
  const asked = [];
  let mode = 'good';
  const server = createServer((request, response) => {
    const id = decodeURIComponent(request.url.replace(/^\/v1\/rim\//, ''));
    asked.push(id);
    if (mode === 'down') return void response.writeHead(503).end();
    if (id !== SWITCH_ID) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    const xml = mode === 'tampered' ? TAMPERED : GOOD;
    const envelope = { id, rim: xml.toString('base64'), sha256: createHash('sha256').update(xml).digest('hex'), last_updated: '2026-05-21T10:00:00.000000', rim_format: 'TCG', request_id: 'upstream-1' };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
  });
  return {
    asked,
    setMode: (next) => { mode = next; },
    listen: () => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/v1/rim/`))),
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

function run(command, args) {
  return new Promise((resolve) => {
    execFile(command, args, { encoding: 'utf8' }, (error, stdout, stderr) => resolve({ code: error?.code ?? 0, stdout, stderr }));
  });
}

async function client(...args) {
  const { code, stdout, stderr } = await run('python3', [CLIENT, ...args]);
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout);
}

const switchRequest = () => {
  const nonce = Buffer.from(ls10.evidence.slice(4, 36)).toString('hex');
  return buildAttestRequest({ endpoint: '/v4/attest/switch', arch: 'LS10', nonce, evidence: [ls10] });
};

async function attestSwitch(origin) {
  const response = await fetch(`${origin}/v4/attest/switch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(switchRequest()) });
  assert.equal(response.status, 200);
  const result = await response.json();
  return { overall: payload(result[0][1]), device: payload(result[1]['SWITCH-0']) };
}

let upstream;
let mirror;
let scratch;

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'edgeattest-mirror-'));
  upstream = upstreamRimService();
  const url = await upstream.listen();
  mirror = await startWorker({ bindings: { EDGEATTEST_RIM_SERVICE_URL: url, EDGEATTEST_BUNDLED_RIMS: 'off', EDGEATTEST_FIXED_TIME: JUNE_2026 } });
});
after(async () => {
  await mirror?.stop();
  await upstream?.close();
  await rm(scratch, { recursive: true, force: true });
});

test('a tampered upstream RIM is never mirrored: not from an attestation, not when asked for', async () => {
  upstream.setMode('tampered');
  const { device } = await attestSwitch(mirror.origin);
  assert.notEqual(device.measres, 'success', 'the tampered RIM fails the attestation');
  // Asked for it, the mirror fetches the tampered envelope again and refuses it.
  const asked = await client('rim', mirror.origin, SWITCH_ID, RIM_ROOT);
  assert.equal(asked.status, 404);
  assert.equal(asked.body.code, 'ERR_RIM_NOT_MIRRORED');
  // With the upstream down, nothing was kept from either fetch.
  upstream.setMode('down');
  assert.equal((await client('rim', mirror.origin, SWITCH_ID, RIM_ROOT)).status, 404);
  const prewarm = await run('node', [PREWARM, '--url', mirror.origin, SWITCH_ID]);
  assert.equal(prewarm.code, 1, prewarm.stdout);
  assert.match(prewarm.stdout, /not served, 404 ERR_RIM_NOT_MIRRORED/);
});

test('pre-warm fills the mirror; an independent client validates the envelope and the XML signature; the kept copy outlives the upstream', async () => {
  upstream.setMode('good');
  const prewarm = await run('node', [PREWARM, '--url', mirror.origin, SWITCH_ID]);
  assert.equal(prewarm.code, 0, prewarm.stdout + prewarm.stderr);
  assert.match(prewarm.stdout, new RegExp(`${SWITCH_ID}: served \\(sha256 ${createHash('sha256').update(GOOD).digest('hex')}\\)`));
  upstream.setMode('down');
  upstream.asked.length = 0;
  const served = await client('rim', mirror.origin, SWITCH_ID, RIM_ROOT);
  assert.equal(served.status, 200);
  assert.equal(served.contentType, 'application/json');
  assert.deepEqual(served.members, ['id', 'rim', 'sha256', 'last_updated', 'rim_format', 'request_id']);
  assert.equal(served.sha256, createHash('sha256').update(GOOD).digest('hex'));
  assert.equal(served.rimFormat, 'TCG');
  assert.match(served.signer, /NVIDIA/);
  assert.deepEqual(upstream.asked, [], 'served from the mirror, the upstream not asked');
  // Even an upstream that turns bad later cannot replace what was verified.
  upstream.setMode('tampered');
  assert.equal((await client('rim', mirror.origin, SWITCH_ID, RIM_ROOT)).status, 200);
  const ids = await (await fetch(`${mirror.origin}/v1/rim/ids`)).json();
  assert.deepEqual(Object.keys(ids), ['ids', 'request_id']);
});

test('our own service with the mirror as its RIM service attests; its exchange keeps the envelope it verified', async () => {
  upstream.setMode('down');
  const consumer = await startWorker({ bindings: { EDGEATTEST_RIM_SERVICE_URL: `${mirror.origin}/v1/rim/`, EDGEATTEST_BUNDLED_RIMS: 'off', EDGEATTEST_FIXED_TIME: JUNE_2026 } });
  try {
    const { overall, device } = await attestSwitch(consumer.origin);
    assert.equal(device['x-nvidia-switch-bios-rim-fetched'], true);
    assert.equal(device.measres, 'success', JSON.stringify(device));
    assert.equal(overall['x-nvidia-overall-att-result'], true);
    // The consumer's exchange verified the envelope: its own mirror serves it, though its
    // RIM service (the first mirror) is gone.
    await mirror.stop();
    mirror = undefined;
    const served = await client('rim', consumer.origin, SWITCH_ID, RIM_ROOT);
    assert.equal(served.status, 200);
    assert.equal(served.sha256, createHash('sha256').update(GOOD).digest('hex'));
  } finally {
    await consumer.stop();
  }
});

test('the OCSP responder: a nonce-less request gets the verified answer intact; a request with a nonce is relayed fresh', async () => {
  const responder = await startOcspResponder();
  const rims = await startRimService();
  const worker = await startWorker({
    bindings: {
      EDGEATTEST_OCSP_URL: responder.url,
      EDGEATTEST_RIM_SERVICE_URL: rims.url,
      EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'),
      EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'),
    },
  });
  try {
    const device = await testDevice('good');
    const chainPath = join(scratch, 'chain.pem');
    await writeFile(chainPath, device.certificate);
    // Before any attestation: nothing verified, every request is relayed.
    const before = responder.served();
    const relayed = await client('ocsp', worker.origin, chainPath);
    assert.ok(relayed.every((answer) => !answer.mirrored));
    assert.equal(responder.served() - before, relayed.length);

    const nonce = Buffer.from(device.evidence.slice(4, 36)).toString('hex');
    const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [device], claimsVersion: '3.0' });
    const attested = await fetch(`${worker.origin}/v4/attest/gpu`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(payload((await attested.json())[0][1])['x-nvidia-overall-att-result'], true);

    const served = responder.served();
    const cached = await client('ocsp', worker.origin, chainPath);
    const mirrored = cached.filter((answer) => answer.mirrored === 'verified');
    assert.ok(mirrored.length >= 2, JSON.stringify(cached));
    assert.equal(responder.served() - served, cached.length - mirrored.length, 'mirrored answers cost no responder request');
    for (const answer of mirrored) {
      assert.equal(answer.contentType, 'application/ocsp-response');
      assert.equal(answer.responseStatus, 'SUCCESSFUL');
      assert.equal(answer.certStatus, 'GOOD');
      assert.equal(answer.answersSerial, true);
      assert.equal(answer.signatureValid, true, 'the responder\'s signature, bytes intact');
      // It echoes the nonce of the attestation that fetched it, which this client did not send.
      assert.equal(answer.nonceEchoed, false);
    }
    // The same bytes again: what is served is what was verified, not a fresh answer.
    const again = await client('ocsp', worker.origin, chainPath);
    for (const answer of mirrored) assert.equal(again.find((a) => a.serial === answer.serial).sha256, answer.sha256);

    // A client that sends a nonce gets a fresh answer that echoes it.
    const fresh = responder.served();
    const withNonce = await client('ocsp', worker.origin, chainPath, '--nonce');
    assert.ok(withNonce.every((answer) => !answer.mirrored), JSON.stringify(withNonce));
    const answered = withNonce.filter((answer) => answer.status === 200);
    assert.equal(answered.length, mirrored.length, 'the responder answers what it answered for the attestation');
    assert.ok(answered.every((answer) => answer.nonceEchoed === true && answer.signatureValid), JSON.stringify(withNonce));
    assert.equal(responder.served() - fresh, withNonce.length);
  } finally {
    await worker.stop();
    await responder.close();
    await rims.close();
  }
});
