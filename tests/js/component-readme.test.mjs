// The README's "Running the service as a component", run as written: `npm run serve:component`
// (jco serve, a dev dependency: nothing else to install) serves the built service component
// (target/component/edgeattest-service.wasm) with EDGEATTEST_TEST_PKI=on, and the README's
// replay of the page's passing Hopper sample answers the README's documented answer — offline:
// the component embeds the test device's RIMs and the test PKI's OCSP answers, and asks no
// source. The code blocks are read from README.md, so the test fails when the README drifts.
// Only the port differs: the test's serve gets a free one (EDGEATTEST_COMPONENT_PORT) and the
// replay's documented origin is pointed at it; the build line is checked, not run (the release
// stage builds the component). Negative cases: the other Hopper TEST PKI samples fail with their
// documented reasons; a value of EDGEATTEST_TEST_PKI other than on/off is refused, and without
// it the test PKI is not trusted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAttestRequest } from '../../pkg/service/index.js';
import { startServiceComponent } from './support/component-service.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const samples = JSON.parse(readFileSync(join(repo, 'www/samples/evidence.json'), 'utf8')).samples;
const payload = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
const DOCUMENTED_ORIGIN = 'http://127.0.0.1:8080';

/** The README section's fenced code blocks, in order: [{ lang, code }]. */
function sectionBlocks(heading) {
  const start = readme.indexOf(`\n${heading}\n`);
  assert.notEqual(start, -1, `README.md has no section "${heading}"`);
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(/\n#{1,3} /);
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, code]) => ({ lang, code }));
}

const blocks = sectionBlocks('### Running the service as a component');
const shell = blocks.filter((b) => b.lang === 'sh').map((b) => b.code);
const answer = blocks.find((b) => b.lang === 'json')?.code;

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

let serve;
let origin;
let logs = '';
const scratch = join(repo, 'target', `component-readme-${process.pid}`);
const hosts = [];

before(async () => {
  assert.ok(existsSync(join(repo, 'target/component/edgeattest-service.wasm')), 'build it with `bash pkg-config/build-component.sh service`');
  const [build, key, serveLine, ...more] = shell[0].trim().split('\n');
  assert.equal(build, 'bash pkg-config/build-component.sh service');
  assert.deepEqual(more, []);
  assert.equal(serveLine, 'EDGEATTEST_SIGNING_KEY="$(cat key.pem)" EDGEATTEST_TEST_PKI=on npm run serve:component');
  // A scratch folder inside the checkout (npm finds the repository's package.json above it),
  // so key.pem lands there and nowhere in the work tree.
  mkdirSync(scratch, { recursive: true });
  const made = spawnSync('bash', ['-euo', 'pipefail', '-c', key], { cwd: scratch, encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  const port = await freePort();
  // Outbound requests would need the network: none is made (asserted below through /health).
  serve = spawn('bash', ['-c', serveLine], {
    cwd: scratch,
    env: { ...process.env, EDGEATTEST_COMPONENT_PORT: String(port) },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  serve.stdout.on('data', (chunk) => (logs += chunk));
  serve.stderr.on('data', (chunk) => (logs += chunk));
  origin = `http://127.0.0.1:${port}`;
  // jco transpiles the component first: wait for /health (at most 3 minutes on a loaded machine).
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (serve.exitCode !== null) throw new Error(`npm run serve:component exited (${serve.exitCode}):\n${logs}`);
    try {
      const health = await fetch(`${origin}/health`);
      if (health.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no /health within 180 s:\n${logs}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

after(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    process.kill(-serve.pid, 'SIGTERM');
    await exited;
  }
  await Promise.all(hosts.map((host) => host.stop()));
  rmSync(scratch, { recursive: true, force: true });
});

/** Posts a page sample's request to the component; the overall and device claims. */
async function attest(at, sample) {
  const endpoint = sample.arch === 'LS10' ? '/v4/attest/switch' : '/v4/attest/gpu';
  // The passing samples carry the request the README sends; the others as the page builds it.
  const body = sample.request ?? buildAttestRequest({
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

test('the README documents jco first (npm run serve:component), wasmtime as the alternative', () => {
  const scripts = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  assert.match(scripts.scripts['serve:component'], /^jco serve .*target\/component\/edgeattest-service\.wasm$/);
  assert.match(scripts.devDependencies['@bytecodealliance/jco'], /^\d+\.\d+\.\d+$/, 'an exact version');
  assert.equal(shell.length, 3, 'serve, replay, wasmtime');
  assert.match(shell[2], /^wasmtime serve /);
  assert.match(shell[2], /--env EDGEATTEST_TEST_PKI=on/);
});

test("the README's replay passes offline with the documented answer", async () => {
  const replay = shell[1];
  assert.equal(replay.split(DOCUMENTED_ORIGIN).length, 2, `the replay names ${DOCUMENTED_ORIGIN} once`);
  const run = spawnSync('bash', ['-euo', 'pipefail', '-c', replay.replace(DOCUMENTED_ORIGIN, origin)], { cwd: repo, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const got = JSON.parse(run.stdout);
  assert.deepEqual(got, JSON.parse(answer), run.stdout);
  assert.equal(got['x-nvidia-overall-att-result'], true);
  assert.match(logs, /EDGEATTEST_TEST_PKI=on: also trusting the edgeattest TEST PKI, not NVIDIA/);
  // Offline: no RIM service and no OCSP responder was asked (RIMs held, answers embedded).
  const health = await (await fetch(`${origin}/health`)).json();
  assert.equal(health.rimServiceHealth.checks.rimService, 'UNKNOWN', JSON.stringify(health));
  assert.equal(health.ocspServiceHealth.overallStatus, 'UNKNOWN', JSON.stringify(health));
});

test('the passing sample is labelled in its token: the test PKI, not an NVIDIA device', async () => {
  const { device } = await attest(origin, samples.find((s) => s.id === 'testpki-hopper-550.90.07'));
  assert.equal(device['x-nvidia-gpu-driver-rim-cert-chain']['x-nvidia-cert-ocsp-status'], 'good');
  assert.equal(device['x-nvidia-gpu-vbios-rim-cert-chain']['x-nvidia-cert-ocsp-status'], 'good');
  assert.match(device['x-nvidia-attestation-warning'], /this is not an attestation of an NVIDIA device/);
  assert.doesNotMatch(device['x-nvidia-attestation-warning'], /revocation \(OCSP\) was not checked/);
});

test('a revoked device fails: 5002, keyCompromise', async () => {
  const { overall, device } = await attest(origin, samples.find((s) => s.id === 'testpki-hopper-revoked'));
  assert.equal(overall['x-nvidia-overall-att-result'], false);
  assert.equal(device['x-nvidia-error-details']?.code, 5002, JSON.stringify(device));
  assert.equal(device['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-ocsp-status'], 'revoked');
  assert.equal(device['x-nvidia-gpu-attestation-report-cert-chain']['x-nvidia-cert-revocation-reason'], 'keyCompromise');
});

for (const id of ['testpki-hopper-unknown', 'testpki-hopper-tampered', 'testpki-hopper-nonce', 'testpki-hopper-535.86.09-no-rim']) {
  test(`the README's other Hopper TEST PKI samples fail as the page says: ${id}`, async () => {
    const sample = samples.find((s) => s.id === id);
    assert.ok(sample, id);
    assert.equal(sample.expect.result, 'fail');
    const { overall, device } = await attest(origin, sample);
    assert.equal(overall['x-nvidia-overall-att-result'], false);
    if (sample.expect.code === undefined) {
      assert.equal(device['x-nvidia-error-details'] ?? null, null);
      assert.equal(device.measres, 'fail');
    } else {
      assert.equal(device['x-nvidia-error-details']?.code, sample.expect.code, JSON.stringify(device));
      assert.match(readme, new RegExp(`\`${id.replace('testpki-hopper', '')}\`: ${sample.expect.code}`));
    }
  });
}

test('the test devices whose RIMs the component does not embed fail with 5008, as the README says', async () => {
  for (const id of ['testpki-blackwell-575.32', 'testpki-ls10-96.10.55.00.01']) {
    const { overall, device } = await attest(origin, samples.find((s) => s.id === id));
    assert.equal(overall['x-nvidia-overall-att-result'], false, id);
    assert.equal(device['x-nvidia-error-details']?.code, 5008, `${id}: ${JSON.stringify(device['x-nvidia-error-details'])}`);
  }
});

test('EDGEATTEST_TEST_PKI takes on or off only; without it the test PKI is not trusted', async () => {
  const bad = await startServiceComponent({ EDGEATTEST_TEST_PKI: 'yes' });
  const off = await startServiceComponent({});
  hosts.push(bad, off);
  const refused = await fetch(`${bad.origin}/health`);
  assert.equal(refused.status, 503);
  const body = await refused.json();
  assert.equal(body.code, 'ERR_CONFIG');
  assert.match(body.message, /EDGEATTEST_TEST_PKI must be on or off, not yes/);
  const { overall, device } = await attest(off.origin, samples.find((s) => s.id === 'testpki-hopper-550.90.07'));
  assert.equal(overall['x-nvidia-overall-att-result'], false);
  assert.notEqual(device['x-nvidia-error-details']?.code, undefined, JSON.stringify(device));
});
