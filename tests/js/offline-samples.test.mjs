// The first hour of a new user, offline: the main job's worker configuration (what
// pkg-config/start.sh gives serve.mjs: pkg-config/local-config.mjs's bindings with
// EDGEATTEST_TEST_PKI=on, NVIDIA's RIM service and OCSP responder as the sources) in workerd
// with every outbound fetch failing, as on a machine without internet. Every page sample
// (www/samples/evidence.json) is posted and answers as its `expect` says: one TEST PKI sample
// per architecture passes with its RIMs compared and every chain's revocation checked; each
// failing one fails with its documented code, and a failure for want of collateral says what
// to do. Without EDGEATTEST_TEST_PKI (any deployment's configuration) the test PKI is not trusted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { buildAttestRequest } from '../../pkg/service/index.js';
import { workerOptions } from '../../pkg-config/worker-options.mjs';
import { localBindings } from '../../pkg-config/local-config.mjs';
import { healthBanner, settledHealth } from '../../pkg-config/health-banner.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const samples = JSON.parse(readFileSync(join(repo, 'www/samples/evidence.json'), 'utf8')).samples;
const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
const NOT_NVIDIA = /not at NVIDIA's Device Identity CA: this is not an attestation of an NVIDIA device/;

let state;
let workers = [];
/** Every URL a worker tried to reach (none answers). */
const outbound = [];

/** The main job's worker with `env` (as start.sh's environment), offline. */
async function mainJob(env) {
  const { bindings } = await localBindings(env, () => {}, { dir: state });
  const mf = new Miniflare(
    workerOptions({
      host: '127.0.0.1',
      port: 0,
      bindings,
      outboundService: (request) => {
        outbound.push(request.url);
        throw new Error(`offline: ${request.url} is unreachable`);
      },
    }),
  );
  const url = await mf.ready;
  workers.push(mf);
  // As serve.mjs does before its banner: the first request starts the sources' probe (a HEAD
  // to each, which fails here); its end is awaited, so that the samples' fetches are their own.
  await settledHealth(() => fetch(`${url.origin}/health`), { timeoutMs: 8000 });
  return url.origin;
}

let origin;
before(async () => {
  state = mkdtempSync(join(tmpdir(), 'edgeattest-offline-'));
  // start.sh's environment with no configured key: EDGEATTEST_TEST_PKI=on.
  origin = await mainJob({ EDGEATTEST_TEST_PKI: 'on' });
});

test('offline, the main job says so at once: /health DEGRADED and OFFLINE, with the remedy', async () => {
  const health = await (await fetch(`${origin}/health`)).json();
  assert.equal(health.overallStatus, 'DEGRADED');
  assert.equal(health.network, 'OFFLINE');
  assert.match(health.networkDetail, /NVIDIA's RIM service https:\/\/rim\.attestation\.nvidia\.com\/v1\/rim\/ is unreachable/);
  assert.match(health.networkDetail, /NVIDIA's OCSP responder https:\/\/ocsp\.ndis\.nvidia\.com\/ is unreachable/);
  assert.match(health.networkDetail, /EDGEATTEST_OCSP_URL=off/);
  // The README shows the banner start.sh prints then (its causes there are a real DNS
  // failure's; this harness's outbound answers 500 instead).
  const [first, second] = healthBanner('http://127.0.0.1:8787', 200, health);
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  assert.ok(readme.includes(`\`\`\`text\n${first}\n${second.slice(0, second.indexOf(' is unreachable'))}`), `${first}\n${second}`);
});
after(async () => {
  for (const mf of workers) await mf.dispose();
  rmSync(state, { recursive: true, force: true });
});

/** Posts one sample as the page's request panel builds it; the overall and device claims. */
async function attest(at, sample) {
  const endpoint = sample.arch === 'LS10' ? '/v4/attest/switch' : '/v4/attest/gpu';
  const body = buildAttestRequest({
    endpoint,
    arch: sample.arch,
    nonce: sample.nonce,
    evidence: [{ evidence: sample.evidenceHex, certificate: sample.certificatePem }],
    claimsVersion: '3.0',
  });
  const response = await fetch(`${at}${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200, sample.id);
  const result = await response.json();
  return { overall: payload(result[0][1]), device: payload(Object.values(result[1])[0]) };
}

test('every page sample is labelled with the source of its collateral and what it answers offline', () => {
  for (const sample of samples) {
    assert.ok(['edgeattest-test-pki', 'nvidia'].includes(sample.collateral?.source), sample.id);
    assert.ok(sample.collateral.label.length > 40, sample.id);
    assert.ok(['pass', 'fail'].includes(sample.expect?.result), sample.id);
    assert.ok(sample.expect.reason.length > 10, sample.id);
    if (sample.collateral.source === 'edgeattest-test-pki') assert.match(sample.title, /TEST PKI \(not NVIDIA\)/);
    assert.match(sample.title, new RegExp(`expect: ${sample.expect.result}|needs the internet`));
  }
  const passing = samples.filter((s) => s.expect.result === 'pass').map((s) => s.arch);
  assert.deepEqual([...new Set(passing)].sort(), ['BLACKWELL', 'HOPPER', 'LS10']);
});

for (const sample of samples) {
  test(`offline, the main job answers ${sample.id}: ${sample.expect.result}${sample.expect.code ? ` ${sample.expect.code}` : ''}`, async () => {
    const before = outbound.length;
    const { overall, device } = await attest(origin, sample);
    const prefix = sample.arch === 'LS10' ? 'x-nvidia-switch' : 'x-nvidia-gpu';
    const rims = sample.arch === 'LS10' ? ['bios'] : ['driver', 'vbios'];
    if (sample.expect.result === 'pass') {
      assert.equal(overall['x-nvidia-overall-att-result'], true, JSON.stringify(device));
      assert.equal(device.measres, 'success');
      assert.equal(device['x-nvidia-error-details'] ?? null, null);
      // RIMs compared; every chain (device and RIM) asked about and good.
      for (const rim of rims) {
        assert.equal(device[`${prefix}-${rim}-rim-fetched`], true, rim);
        assert.equal(device[`${prefix}-${rim}-rim-signature-verified`], true, rim);
        assert.equal(device[`${prefix}-${rim}-rim-cert-chain`]['x-nvidia-cert-ocsp-status'], 'good', rim);
      }
      assert.equal(device[`${prefix}-attestation-report-cert-chain`]['x-nvidia-cert-ocsp-status'], 'good');
      // Labelled in the token too; and nothing asked of the network.
      assert.match(device['x-nvidia-attestation-warning'], NOT_NVIDIA);
      assert.doesNotMatch(device['x-nvidia-attestation-warning'], /revocation \(OCSP\) was not checked/);
      assert.deepEqual(outbound.slice(before), []);
      return;
    }
    assert.equal(overall['x-nvidia-overall-att-result'], false);
    const error = device['x-nvidia-error-details'];
    if (sample.expect.code === undefined) {
      // A measurement mismatch is no error: measres says it, as NVIDIA's service does.
      assert.equal(error ?? null, null);
      assert.equal(device.measres, 'fail');
      assert.match(device['x-nvidia-attestation-warning'], NOT_NVIDIA);
      return;
    }
    assert.equal(error?.code, sample.expect.code, JSON.stringify(device));
    // A device whose evidence verified says it is not NVIDIA's (4010 fails before the chain).
    if (sample.collateral.source === 'edgeattest-test-pki' && error.code !== 4010) {
      assert.match(device['x-nvidia-attestation-warning'], NOT_NVIDIA);
    }
    // A failure for want of collateral says the cause and the remedy.
    if (error.code === 5001) {
      assert.match(error.description, /could not be reached/);
      assert.match(error.description, /EDGEATTEST_OCSP_URL=off/);
      // Asked of NVIDIA's responder — or not, once its breaker opened after three failures
      // in a row (then /health says so, and nothing is asked for 30 s).
      const asked = outbound.slice(before).some((url) => url.startsWith('https://ocsp.ndis.nvidia.com'));
      if (!asked) {
        const health = await (await fetch(`${origin}/health`)).json();
        const responder = health.sources.find((s) => s.kind === 'ocsp' && s.url.startsWith('https://ocsp.ndis.nvidia.com'));
        assert.equal(responder?.breaker, 'open', JSON.stringify(health.sources));
      }
    }
    if (error.code === 5008 || error.code === 5009) {
      assert.match(error.description, /NV_GPU_DRIVER_GH100_535\.86\.09/);
      assert.match(error.description, /EDGEATTEST_RIM_DIR or EDGEATTEST_RIM_DOCUMENTS/);
    }
    if (error.code === 5002) assert.equal(device[`${prefix}-attestation-report-cert-chain`]['x-nvidia-cert-revocation-reason'], 'keyCompromise');
  });
}

test('without EDGEATTEST_TEST_PKI (a deployment, or start.sh with a configured key) the test PKI is not trusted', async () => {
  const plain = await mainJob({});
  const sample = samples.find((s) => s.id === 'testpki-hopper-550.90.07');
  const { overall, device } = await attest(plain, sample);
  assert.equal(overall['x-nvidia-overall-att-result'], false);
  assert.notEqual(device['x-nvidia-error-details'], null);
  assert.equal(device['x-nvidia-gpu-attestation-report-signature-verified'] ?? false, false);
  // Only start.sh turns it on, and only without a configured signing key; no deployment sets it.
  const start = readFileSync(join(repo, 'pkg-config/start.sh'), 'utf8');
  assert.match(start, /if \[ -z "\$\{EDGEATTEST_SIGNING_KEY:-\}" \]; then export EDGEATTEST_TEST_PKI="\$\{EDGEATTEST_TEST_PKI:-on\}"; fi/);
  assert.doesNotMatch(readFileSync(join(repo, 'pkg-config/wrangler.toml'), 'utf8'), /EDGEATTEST_TEST_PKI/);
  const { bindings } = await localBindings({}, () => {}, { dir: state });
  assert.equal(bindings.EDGEATTEST_TEST_PKI, undefined);
});

test('EDGEATTEST_TEST_PKI accepts on or off only', async () => {
  const bad = await mainJob({ EDGEATTEST_TEST_PKI: 'yes' });
  const response = await fetch(`${bad}/health`);
  const body = await response.json();
  assert.equal(response.status, 503);
  assert.match(JSON.stringify(body), /EDGEATTEST_TEST_PKI must be on or off/);
});
