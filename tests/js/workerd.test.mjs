// The release package and the edge worker, run in workerd through Miniflare.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Miniflare } from 'miniflare';
import { fileURLToPath } from 'node:url';
import { startWorker } from './support/worker.mjs';
import { hopper } from './support/fixtures.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));

test('the package works inside workerd (workerd entry, compiled wasm module import)', async () => {
  const mf = new Miniflare({
    rootPath: repo,
    modulesRoot: repo,
    modules: true,
    scriptPath: 'tests/js/support/probe-worker.js',
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2025-01-01',
  });
  try {
    const response = await mf.dispatchFetch('http://localhost/', {
      method: 'POST',
      body: JSON.stringify({ evidenceHex: Buffer.from(hopper.evidence).toString('hex'), certificate: hopper.certificate }),
    });
    assert.equal(response.status, 200);
    const out = await response.json();
    assert.match(out.nonce, /^[0-9a-f]{64}$/);
    assert.equal(out.summary.nonce, out.nonce);
    assert.equal(out.summary.devices[0].evidenceBytes, hopper.evidence.length);
    assert.deepEqual(out.error, { name: 'EdgeAttestError', code: 'ERR_REQUEST_INVALID_NONCE', field: 'nonce' });
  } finally {
    await mf.dispose();
  }
});

test('the worker serves the documentation string, the page and 404s', async () => {
  const worker = await startWorker();
  try {
    const root = await fetch(`${worker.origin}/`);
    assert.equal(root.status, 200);
    assert.match(root.headers.get('content-type'), /^application\/json/);
    const text = await root.json();
    assert.equal(typeof text, 'string');
    assert.match(text, /\/ui\//);

    const page = await fetch(`${worker.origin}/ui/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type'), /^text\/html/);
    assert.match(await page.text(), /<title>edgeattest/);

    const wasm = await fetch(`${worker.origin}/ui/pkg/service/edgeattest_bg.wasm`);
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    const bytes = new Uint8Array(await wasm.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 4)], [0x00, 0x61, 0x73, 0x6d]);

    const redirect = await fetch(`${worker.origin}/ui`, { redirect: 'manual' });
    assert.equal(redirect.status, 308);

    const missing = await fetch(`${worker.origin}/ui/nope.js`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).code, 'ERR_NOT_FOUND');

    const post = await fetch(`${worker.origin}/ui/`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  } finally {
    await worker.stop();
  }
});
