// The main job's configuration (pkg-config/local-config.mjs): variables that name files are
// read by the host and handed to the worker as the bindings a Cloudflare deployment sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair } from '../../pkg/index.js';
import { localBindings } from '../../pkg-config/local-config.mjs';
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
