// The npm tarball as users get it (target/npm/edgeattest-<version>.tgz, packed by
// pkg-config/build.sh), installed into a scratch project: it holds every file its entries
// import, the users' README, and it loads in Node through `import` (no flags) and `require()`.
// The browser entry's explicit init() is exercised here in Node; in Chromium through Vite,
// webpack and esbuild by tests/js/bundlers.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, dirname, posix } from 'node:path';
import { REPO, scratchProject, tarballFiles } from './support/packed.mjs';

const FIXTURES = join(REPO, 'tests/fixtures/nvidia/nras/teep');
let project;
before(() => {
  project = scratchProject({
    // Verifies a recorded NRAS result (1 GPU) at its time, builds and checks a request.
    'use.mjs': `
      import { readFileSync } from 'node:fs';
      export async function use(api, fixtures) {
        const read = (name) => JSON.parse(readFileSync(fixtures + '/v3_1gpu_success_20260629_' + name + '.json', 'utf8'));
        const result = read('response');
        const now = JSON.parse(Buffer.from(result[0][1].split('.')[1], 'base64url')).iat;
        await api.init();
        const verified = await api.verifyAttestationResult(result, read('jwks'), { nonce: read('request').nonce, now });
        const nonce = api.generateNonce();
        let refused = null;
        try { api.buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce: 'ab', evidence: [] }); } catch (e) { refused = e.code; }
        return { devices: verified.devices.map((d) => d.label), overall: verified.overallResult, nonce, refused };
      }`,
    'main.mjs': `
      import * as full from 'edgeattest';
      import * as service from 'edgeattest/service';
      import * as local from 'edgeattest/local';
      import { use } from './use.mjs';
      const fixtures = process.argv[2];
      console.log(JSON.stringify({
        resolved: [import.meta.resolve('edgeattest'), import.meta.resolve('edgeattest/local'), import.meta.resolve('edgeattest/service')],
        full: await use(full, fixtures), local: await use(local, fixtures), service: await use(service, fixtures),
        serviceOnly: typeof service.AttestationService + ' ' + typeof full.AttestationService,
        localOnly: typeof local.verifyEvidence + ' ' + typeof full.verifyEvidence,
      }));`,
    'main.cjs': `
      const full = require('edgeattest');
      const local = require('edgeattest/local');
      const service = require('edgeattest/service');
      // Synchronous: the node entry instantiated the module at require() time.
      const nonce = full.generateNonce();
      import('./use.mjs').then(async ({ use }) => {
        console.log(JSON.stringify({ nonce, sync: local.generateNonce().length + service.generateNonce().length, full: await use(full, process.argv[2]), local: await use(local, process.argv[2]), service: await use(service, process.argv[2]) }));
      });`,
  });
});
after(() => project?.close());

const installed = () => join(project.dir, 'node_modules', 'edgeattest');

/** Every relative file a module imports (JS: import/export/import()/new URL; d.ts: its .d.ts). */
function references(file, text) {
  const found = new Set();
  const patterns = [/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g, /new URL\('(\.{1,2}\/[^']+)', import\.meta\.url\)/g];
  for (const pattern of patterns) {
    for (const [, spec] of text.matchAll(pattern)) {
      let target = posix.join(posix.dirname(file), spec);
      if (file.endsWith('.d.ts') && target.endsWith('.js')) target = target.replace(/\.js$/, '.d.ts');
      found.add(target);
    }
  }
  return found;
}

test('the tarball holds every file its entries reach, for every export condition', () => {
  const files = new Set(tarballFiles());
  const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8'));
  const targets = Object.values(manifest.exports).flatMap((entry) => (typeof entry === 'string' ? [entry] : Object.values(entry)));
  const queue = targets.map((t) => t.replace(/^\.\//, ''));
  const reached = new Set();
  while (queue.length) {
    const file = queue.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    assert.ok(files.has(file), `${file} is imported but not in the tarball`);
    if (/\.(m?js|d\.ts)$/.test(file)) for (const next of references(file, readFileSync(join(installed(), file), 'utf8'))) queue.push(next);
  }
  // The walk follows the real graph: the files an earlier manifest left out are reached.
  for (const file of ['service/fetch.js', 'service/ocsp.js', 'local/ocsp.d.ts', 'init.js', 'edgeattest_bg.wasm', 'service/edgeattest_bg.wasm', 'service/init.js', 'local/edgeattest_bg.wasm', 'local/init.js', 'local/ocsp.js', 'local/evidence.js', 'wasm-url.d.ts']) {
    assert.ok(reached.has(file), `${file} is reached`);
  }
  // Nothing of the repository's development side.
  for (const file of files) assert.doesNotMatch(file, /^(src|tests|target|www|pkg-config)\//);
});

test('the tarball ships the users\' README, the licence, changelog and security policy', () => {
  const files = tarballFiles();
  const shipped = (name) => readFileSync(join(installed(), name), 'utf8');
  assert.equal(shipped('README.md'), readFileSync(join(REPO, 'pkg-config/npm/README.md'), 'utf8'));
  assert.notEqual(shipped('README.md'), readFileSync(join(REPO, 'README.md'), 'utf8'));
  assert.ok(files.includes('LICENSE'));
  for (const doc of ['CHANGELOG.md', 'SECURITY.md']) {
    if (existsSync(join(REPO, doc))) assert.equal(shipped(doc), readFileSync(join(REPO, doc), 'utf8'), doc);
  }
});

function checkUse(use) {
  assert.deepEqual(use.devices, ['GPU-0']);
  assert.equal(use.overall, true);
  assert.match(use.nonce, /^[0-9a-f]{64}$/);
  assert.equal(use.refused, 'ERR_REQUEST_INVALID_NONCE');
}

test('Node: import() without flags resolves the node entry, which works at once', () => {
  const out = JSON.parse(project.run(process.execPath, ['main.mjs', FIXTURES]));
  assert.match(out.resolved[0], /\/node_modules\/edgeattest\/node\.js$/);
  assert.match(out.resolved[1], /\/node_modules\/edgeattest\/local\/node\.js$/);
  assert.match(out.resolved[2], /\/node_modules\/edgeattest\/service\/node\.js$/);
  checkUse(out.full);
  checkUse(out.local);
  checkUse(out.service);
  assert.equal(out.serviceOnly, 'function undefined');
  assert.equal(out.localOnly, 'function undefined');
});

test('Node: require() loads the node entry (no top-level await), synchronously initialised', () => {
  const runs = [['--experimental-require-module']]; // Node 20.17+ (and later, where it is a no-op)
  // Node 20.19+ and 22.12+ load ES modules with require() unflagged: this Node must too.
  const [major, minor] = process.versions.node.split('.').map(Number);
  const unflagged = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
  assert.equal(process.features.require_module === true, unflagged, 'process.features.require_module');
  if (unflagged) runs.push([]);
  for (const flags of runs) {
    const out = JSON.parse(project.run(process.execPath, [...flags, '--no-warnings', 'main.cjs', FIXTURES]));
    assert.match(out.nonce, /^[0-9a-f]{64}$/, flags.join(' '));
    assert.equal(out.sync, 128);
    checkUse(out.full);
    checkUse(out.local);
    checkUse(out.service);
  }
});

// The browser entry, loaded in Node by path: nothing happens at import; init() takes every
// documented input, is idempotent, and refuses clearly.
const browserScript = (body) => `
  import { readFileSync } from 'node:fs';
  import * as api from 'edgeattest/browser-entry-under-test';
  const wasm = new URL('./node_modules/edgeattest/edgeattest_bg.wasm', import.meta.url);
  const codeOf = async (fn) => { try { await fn(); return null; } catch (e) { return [e.name, e.code, e.field ?? null, e.message]; } };
  const out = {};
  ${body}
  console.log(JSON.stringify(out));`;

function runBrowserEntry(body) {
  // The entry is imported by path (bundlers reach it through the `browser` condition).
  const text = browserScript(body).replace("'edgeattest/browser-entry-under-test'", "'./node_modules/edgeattest/browser.js'");
  project.write('browser-entry.mjs', text);
  return JSON.parse(project.run(process.execPath, ['browser-entry.mjs']));
}

test('browser entry: every call before init() throws ERR_NOT_INITIALIZED; bad inputs are refused', () => {
  const out = runBrowserEntry(`
    out.nonce = await codeOf(() => api.generateNonce());
    out.keySet = await codeOf(() => api.createKeySet('{"keys":[]}'));
    out.verify = await codeOf(() => api.verifyJwt('a.b.c', '{"keys":[]}'));
    out.badInput = await codeOf(() => api.init(42));
    out.plainObject = await codeOf(() => api.init({ module_or_path: wasm }));
    out.missing = await codeOf(() => api.init(new URL('http://127.0.0.1:9/edgeattest_bg.wasm')));
    out.notWasm = await codeOf(() => api.init(new Uint8Array([1, 2, 3, 4])));
    // After the failures, a good input loads it.
    out.loaded = await codeOf(() => api.init(readFileSync(wasm)));
    out.after = api.generateNonce().length;`);
  for (const name of ['nonce', 'keySet', 'verify']) {
    assert.equal(out[name][0], 'EdgeAttestError', name);
    assert.equal(out[name][1], 'ERR_NOT_INITIALIZED', name);
    assert.match(out[name][3], /await init\(\)/);
  }
  assert.deepEqual(out.badInput.slice(0, 3), ['EdgeAttestError', 'ERR_INVALID_ARGUMENT', 'input']);
  assert.deepEqual(out.plainObject.slice(0, 3), ['EdgeAttestError', 'ERR_INVALID_ARGUMENT', 'input']);
  assert.deepEqual(out.missing.slice(0, 3), ['EdgeAttestError', 'ERR_WASM_LOAD', 'input']);
  assert.match(out.missing[3], /http:\/\/127\.0\.0\.1:9\/edgeattest_bg\.wasm/);
  assert.deepEqual(out.notWasm.slice(0, 2), ['EdgeAttestError', 'ERR_WASM_LOAD']);
  assert.equal(out.loaded, null);
  assert.equal(out.after, 64);
});

test('browser entry: init() takes a file URL, bytes, a Response or a compiled Module, once', () => {
  const inputs = {
    defaultUrl: 'undefined',
    fileUrl: 'wasm',
    bytes: 'readFileSync(wasm)',
    arrayBuffer: 'readFileSync(wasm).buffer.slice(readFileSync(wasm).byteOffset)',
    response: "new Response(readFileSync(wasm), { headers: { 'content-type': 'application/wasm' } })",
    module: 'new WebAssembly.Module(readFileSync(wasm))',
  };
  for (const [kind, input] of Object.entries(inputs)) {
    const out = runBrowserEntry(`
      const first = api.init(${input});
      out.same = api.init() === first; // idempotent while loading: the same promise
      out.loaded = await codeOf(() => first);
      out.again = await codeOf(() => api.init(42)); // once loaded, input is ignored
      out.nonce = api.generateNonce().length;`);
    assert.deepEqual(out, { same: true, loaded: null, again: null, nonce: 64 }, kind);
  }
});
