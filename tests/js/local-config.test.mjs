// The main job's configuration (pkg-config/local-config.mjs): variables that name files are
// read by the host and handed to the worker as the bindings a Cloudflare deployment sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair } from '../../pkg/index.js';
import { apiKeyCommand, localBindings } from '../../pkg-config/local-config.mjs';
import { startWorker } from './support/worker.mjs';

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'edgeattest-local-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('EDGEATTEST_RETIRED_KEYS: a JWKS file whose keys the worker keeps publishing beside the active key', async (t) => {
  const dir = tempDir(t);
  const { publicJwk } = await generateKeyPair({ kid: 'retired-2026-10' });
  const file = join(dir, 'retired.json');
  writeFileSync(file, JSON.stringify({ keys: [{ ...publicJwk, alg: 'ES384', use: 'sig' }] }));

  const { bindings } = await localBindings({ EDGEATTEST_RETIRED_KEYS: file }, () => {}, { dir });
  assert.equal(JSON.parse(bindings.EDGEATTEST_RETIRED_KEYS).keys[0].kid, 'retired-2026-10');

  const worker = await startWorker({ bindings: { EDGEATTEST_RETIRED_KEYS: bindings.EDGEATTEST_RETIRED_KEYS } });
  t.after(worker.stop);
  const jwks = await (await fetch(`${worker.origin}/.well-known/jwks.json`)).json();
  const kids = jwks.keys.map((key) => key.kid);
  assert.equal(kids.length, 2, `the active key and the retired one: ${kids}`);
  assert.ok(kids.includes('retired-2026-10'));
});

test('EDGEATTEST_RETIRED_KEYS naming a file that cannot be read stops the start with the variable named', async (t) => {
  const dir = tempDir(t);
  await assert.rejects(
    localBindings({ EDGEATTEST_RETIRED_KEYS: join(dir, 'missing.json') }, () => {}, { dir }),
    /EDGEATTEST_RETIRED_KEYS=.*missing\.json: cannot read the file \(ENOENT\)/,
  );
});

test('a worker without a signing key answers 503 ERR_NO_SIGNING_KEY, saying how to set one', async (t) => {
  const worker = await startWorker({ bindings: { EDGEATTEST_SIGNING_KEY: '' } });
  t.after(worker.stop);
  const response = await fetch(`${worker.origin}/v4/attest/gpu`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
  });
  assert.equal(response.status, 503);
  const body = await response.json();
  assert.equal(body.code, 'ERR_NO_SIGNING_KEY');
  assert.match(body.message, /wrangler secret put EDGEATTEST_SIGNING_KEY/);
  assert.match(body.message, /dev-vars\.mjs/);
});

test('development state: the folder 0700 and every secret 0600 on every start, a wider mode narrowed and said; API keys listed by id, never printed', async (t) => {
  const dir = join(tempDir(t), 'state');
  // A first start makes the key and the key set; a copy (cp, an unpacked backup) widens them.
  await localBindings({}, () => {}, { dir, warn: () => {} });
  const keyFile = join(dir, 'dev-signing-key.pem');
  const keysFile = join(dir, 'dev-api-keys.json');
  chmodSync(dir, 0o755);
  chmodSync(keyFile, 0o644);
  chmodSync(keysFile, 0o644);
  const widened = () => [dir, keyFile, keysFile].map((path) => statSync(path).mode & 0o777);
  assert.deepEqual(widened(), [0o755, 0o644, 0o644]);

  const logged = [];
  const warned = [];
  await localBindings({}, (line) => logged.push(line), { dir, warn: (line) => warned.push(line) });
  assert.deepEqual(widened(), [0o700, 0o600, 0o600]);
  assert.equal(warned.length, 3, warned.join('\n'));
  for (const [path, mode] of [[dir, '0755'], [keyFile, '0644'], [keysFile, '0644']]) {
    assert.ok(warned.some((line) => line.includes(path) && line.includes(`was mode ${mode}`)), `${path}:\n${warned.join('\n')}`);
  }
  // Already private: nothing to say.
  warned.length = 0;
  await localBindings({}, () => {}, { dir, warn: (line) => warned.push(line) });
  assert.deepEqual(warned, []);

  // The key set is listed by id and role, with the file it is kept in; no key is printed,
  // and the command shown prints one.
  const saved = JSON.parse(readFileSync(keysFile, 'utf8'));
  const text = logged.join('\n');
  for (const key of saved.keys) {
    assert.ok(!text.includes(key.key), `key ${key.id} printed:\n${text}`);
    assert.match(text, new RegExp(`^  ${key.id} `, 'm'));
  }
  assert.ok(text.includes(keysFile), text);
  const command = text.match(/print one: (.*)$/m)[1];
  const admin = saved.keys.find((key) => key.id === 'dev-lab_org_admin');
  assert.ok(admin, saved.keys.map((key) => key.id).join(', '));
  assert.equal(execSync(apiKeyCommand(keysFile, 'dev-lab_org_admin'), { encoding: 'utf8' }).trim(), admin.key);
  assert.equal(execSync(command, { encoding: 'utf8' }).trim(), saved.keys[0].key);
});

test('development state: a renewed key set keeps no wider mode than 0600', async (t) => {
  const dir = tempDir(t);
  const keysFile = join(dir, 'dev-api-keys.json');
  // An expired set in a file others can read: the start renews it in place.
  writeFileSync(keysFile, JSON.stringify({ keys: [{ id: 'dev-old', key: 'x', expiresAt: 0 }] }), { mode: 0o644 });
  chmodSync(keysFile, 0o644);
  const warned = [];
  const { bindings } = await localBindings({}, () => {}, { dir, warn: (line) => warned.push(line) });
  assert.equal(statSync(keysFile).mode & 0o777, 0o600);
  assert.notEqual(JSON.parse(readFileSync(keysFile, 'utf8')).keys[0].id, 'dev-old');
  assert.ok(JSON.parse(bindings.EDGEATTEST_API_KEYS).keys.length > 0);
  assert.ok(warned.some((line) => line.includes(keysFile)), warned.join('\n'));
});
