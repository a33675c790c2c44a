// The packed package in the three bundlers users reach for, each app loaded in headless
// Chromium: Vite and webpack 5 find and emit the wasm files themselves (the
// `new URL('./edgeattest_bg.wasm', import.meta.url)` pattern); esbuild does not, so its users
// add `--loader:.wasm=file` and pass the imported URL to init() (ESM and IIFE output). The
// apps verify a recorded NRAS result (1 GPU) with the default entry and with edgeattest/local,
// and build and check a request from real Hopper evidence.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync, statSync, readdirSync } from 'node:fs';
import { join, extname } from 'node:path';
import { launchBrowser, openPage } from './support/browser.mjs';
import { REPO, scratchProject } from './support/packed.mjs';
import { fixtureText } from './support/fixtures.mjs';

const APP = `
// Runs the package after init(): both modules, a recorded result, a request.
export function install(api, local, wasm = {}) {
  window.edgeattestApp = async ({ result, jwks, nonce, now, evidence }) => {
    const codeOf = async (fn) => { try { await fn(); return null; } catch (e) { return e.code ?? String(e); } };
    const out = { before: await codeOf(() => api.generateNonce()) };
    out.init = await codeOf(() => Promise.all([api.init(wasm.full), local.init(wasm.local)]));
    if (out.init) return out;
    for (const [name, m] of [['full', api], ['local', local]]) {
      const verified = await m.verifyAttestationResult(result, jwks, { nonce, now });
      const body = m.buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce: m.generateNonce(), evidence: [evidence] });
      const summary = m.validateAttestRequest('/v4/attest/gpu', body);
      const tampered = structuredClone(result);
      const label = Object.keys(tampered[1])[0];
      tampered[1][label] = tampered[1][label].slice(0, -2) + (tampered[1][label].endsWith('AA') ? 'BA' : 'AA');
      out[name] = {
        devices: verified.devices.map((d) => d.label), overall: verified.overallResult,
        requestDevices: summary.devices.map((d) => d.label),
        tampered: await codeOf(() => m.verifyAttestationResult(tampered, jwks, { nonce, now })),
      };
    }
    return out;
  };
}
`;
const MAIN = `
import * as api from 'edgeattest';
import * as local from 'edgeattest/local';
import { install } from './app.js';
install(api, local);
`;
// esbuild: the one extra step (--loader:.wasm=file) gives the files' URLs to pass to init().
const MAIN_ESBUILD = `
import * as api from 'edgeattest';
import * as local from 'edgeattest/local';
import full from 'edgeattest/edgeattest_bg.wasm';
import localWasm from 'edgeattest/local/edgeattest_bg.wasm';
import { install } from './app.js';
install(api, local, { full, local: localWasm });
`;
const html = (script) => `<!doctype html><meta charset="utf-8"><title>app</title>${script}`;

let project;
let browser;
let server;
let base;
const notFound = [];

before(async () => {
  project = scratchProject({ 'app.js': APP, 'main.js': MAIN, 'main-esbuild.js': MAIN_ESBUILD, 'index.html': html('<script type="module" src="./main.js"></script>') }, 'edgeattest-bundlers');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  server = createServer((request, response) => {
    const path = join(project.dir, decodeURIComponent(new URL(request.url, 'http://x').pathname));
    let body;
    try { body = statSync(path).isFile() ? readFileSync(path) : undefined; } catch { body = undefined; }
    if (request.url === '/favicon.ico') {
      response.writeHead(204).end(); // Chromium asks for it on its own
      return;
    }
    if (!body) {
      notFound.push(request.url);
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.close();
  project?.close();
});

function payload(token) {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
}
const name = 'nras/teep/v3_1gpu_success_20260629';
const result = JSON.parse(fixtureText(`${name}_response.json`));
const data = {
  result,
  jwks: JSON.parse(fixtureText(`${name}_jwks.json`)),
  nonce: JSON.parse(fixtureText(`${name}_request.json`)).nonce,
  now: payload(result[0][1]).iat,
  evidence: { evidence: fixtureText('evidence/hopper/nvat_hopper_535.86.09_report.hex').trim(), certificate: fixtureText('evidence/hopper/nvat_hopper_535.86.09_certchain.pem') },
};

async function runApp(dir) {
  notFound.length = 0;
  const { page, problems } = await openPage(browser.context, `${base}/${dir}/index.html`);
  try {
    await page.waitForFunction(() => typeof window.edgeattestApp === 'function', null, { timeout: 20_000 });
    const out = await page.evaluate((input) => window.edgeattestApp(input), data);
    return { out, problems: [...problems], notFound: [...notFound] };
  } finally {
    await page.close();
  }
}

function checkApp({ out, problems, notFound: missing }, label) {
  assert.deepEqual(missing, [], `${label}: nothing 404s`);
  assert.deepEqual(problems, [], `${label}: no page errors`);
  assert.equal(out.before, 'ERR_NOT_INITIALIZED', `${label}: no import-time loading; calls before init() are refused`);
  assert.equal(out.init, null, `${label}: init()`);
  for (const module of ['full', 'local']) {
    assert.deepEqual(out[module].devices, ['GPU-0'], `${label} ${module}`);
    assert.equal(out[module].overall, true);
    assert.deepEqual(out[module].requestDevices, ['GPU-0']);
    assert.equal(out[module].tampered, 'ERR_EAT_DIGEST_MISMATCH'); // a device token changed after the overall token signed its digest
  }
}

const wasmFiles = (dir) => readdirSync(join(project.dir, dir), { recursive: true }).filter((f) => String(f).endsWith('.wasm'));

test('Vite: the wasm files are emitted and found by init() without arguments', async () => {
  const { build } = await import('vite');
  await build({ root: project.dir, base: './', configFile: false, logLevel: 'error', build: { outDir: 'dist-vite', emptyOutDir: true } });
  assert.equal(wasmFiles('dist-vite').length, 2);
  checkApp(await runApp('dist-vite'), 'vite');
});

test('webpack 5: the wasm files are emitted as assets and found by init() without arguments', async () => {
  const webpack = (await import('webpack')).default;
  const stats = await new Promise((resolve, reject) => {
    webpack({
      mode: 'production', context: project.dir, entry: './main.js', target: 'web',
      output: { path: join(project.dir, 'dist-webpack'), filename: 'main.js', clean: true },
      performance: { hints: false },
    }, (error, s) => (error ? reject(error) : resolve(s)));
  });
  assert.ok(!stats.hasErrors(), stats.toString('errors-only'));
  project.write('dist-webpack/index.html', html('<script src="./main.js"></script>'));
  assert.equal(wasmFiles('dist-webpack').length, 2);
  checkApp(await runApp('dist-webpack'), 'webpack');
});

for (const format of ['esm', 'iife']) {
  test(`esbuild (${format}): --loader:.wasm=file and init(url) load the module`, async () => {
    const esbuild = await import('esbuild');
    const out = `dist-esbuild-${format}`;
    const built = await esbuild.build({
      absWorkingDir: project.dir, entryPoints: ['main-esbuild.js'], bundle: true, platform: 'browser',
      format, outdir: out, loader: { '.wasm': 'file' }, logLevel: 'silent',
    });
    assert.deepEqual(built.errors, []);
    project.write(`${out}/index.html`, html(`<script ${format === 'esm' ? 'type="module" ' : ''}src="./main-esbuild.js"></script>`));
    assert.equal(wasmFiles(out).length, 2);
    // The page's document is in the output folder, where the file loader's relative URLs point.
    checkApp(await runApp(out), `esbuild ${format}`);
  });
}

test('esbuild without the step: the bundle builds, and init() says clearly that the wasm file is missing', async () => {
  const esbuild = await import('esbuild');
  const built = await esbuild.build({
    absWorkingDir: project.dir, entryPoints: ['main.js'], bundle: true, platform: 'browser', format: 'esm',
    outdir: 'dist-esbuild-bare', logLevel: 'silent',
  });
  assert.deepEqual(built.errors, []);
  project.write('dist-esbuild-bare/index.html', html('<script type="module" src="./main.js"></script>'));
  const { out, notFound: missing } = await runApp('dist-esbuild-bare');
  assert.equal(out.before, 'ERR_NOT_INITIALIZED');
  assert.equal(out.init, 'ERR_WASM_LOAD');
  assert.deepEqual([...new Set(missing)], ['/dist-esbuild-bare/edgeattest_bg.wasm']);
});
