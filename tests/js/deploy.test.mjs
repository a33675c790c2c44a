// Cloudflare deployment (pkg-config/wrangler.toml) and the static assets the worker serves.
//
// The dry runs use the wrangler of node_modules (its build command finds the build up to date
// after the release-build stage). Wrangler's launcher refuses Node < 22.12, so its CLI module
// is run directly; it then warns about the Node version, the one warning allowed here.
// The upload size is compared with the layout it replaced, rebuilt in the same run from the
// same files: the page embedded in the worker as a generated base64 module (site.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKER_ROOT } from '../../pkg-config/worker-options.mjs';
import { devVarsText } from '../../pkg-config/dev-vars.mjs';
import { startWorker } from './support/worker.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const WRANGLER = join(repo, 'node_modules', 'wrangler', 'wrangler-dist', 'cli.js');
const CONFIG = join(repo, 'pkg-config', 'wrangler.toml');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** Runs `wrangler deploy --dry-run` with CONFIG_PATH from the repository root. */
function dryRun(configPath, outdir) {
  const run = spawnSync(process.execPath, [WRANGLER, 'deploy', '--dry-run', '--outdir', outdir, '-c', configPath], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 600_000,
    // No banner: its npm update check kept the process alive for minutes once, while the
    // registry did not answer (the test took 195 s instead of 3).
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true', NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
  });
  // eslint-disable-next-line no-control-regex
  const output = `${run.stdout}\n${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
  return { status: run.status, output, kib: size && Number(size[1]), gzipKib: size && Number(size[2]) };
}

/** The warnings wrangler printed, but for the Node version one (see the top of this file). */
function warnings(output) {
  return output
    .split('\n')
    .filter((line) => /\[WARNING\]/.test(line))
    .filter((line) => !/requires at least Node\.js/.test(line));
}

test('the README\'s deploy command, `npm run deploy`, runs on this Node (wrangler\'s launcher asks for Node 22.12)', (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'edgeattest-npm-deploy-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const run = spawnSync('npm', ['run', '--silent', 'deploy', '--', '--dry-run', '--outdir', join(tmp, 'out')], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true', NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
  });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout + run.stderr, /--dry-run: exiting now/);
  assert.ok(readdirSync(join(tmp, 'out')).includes('worker.js'));
});

/** A copy of the configuration with absolute paths, so that it can live in a temporary folder. */
function configCopy(dir, edit) {
  const text = readFileSync(CONFIG, 'utf8').replaceAll('"../', `"${repo}`);
  const path = join(dir, 'wrangler.toml');
  writeFileSync(path, edit(text));
  return path;
}

test('wrangler deploy --dry-run accepts pkg-config/wrangler.toml: no warning, the assets and the worker, smaller than the site.js layout', (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'edgeattest-deploy-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));

  const run = dryRun(CONFIG, join(tmp, 'out'));
  assert.equal(run.status, 0, run.output);
  assert.deepEqual(warnings(run.output), [], run.output);
  assert.doesNotMatch(run.output, /module rule|fallthrough/i);
  const assetFiles = files(join(WORKER_ROOT, 'assets'));
  // Wrangler counts the folders too.
  const read = /Read (\d+) files from the assets directory (.+)/.exec(run.output);
  assert.ok(read && Number(read[1]) >= assetFiles.length, `${assetFiles.length} asset files: ${read?.[0]}`);
  assert.equal(read[2].trim(), join(WORKER_ROOT, 'assets'));
  assert.match(run.output, /env\.ASSETS\s+Assets/);
  const out = readdirSync(join(tmp, 'out'));
  assert.ok(out.includes('worker.js'), out.join(', '));
  assert.ok(out.some((name) => name.endsWith('edgeattest_bg.wasm')), `the wasm is uploaded as a module: ${out.join(', ')}`);
  // The page is not in the worker any more.
  assert.doesNotMatch(readFileSync(join(tmp, 'out', 'worker.js'), 'utf8'), /<title>edgeattest/);

  // Yardstick: the same worker with the same page files embedded as site.js, no [assets].
  const old = join(tmp, 'site-js');
  cpSync(join(WORKER_ROOT, 'www'), join(old, 'www'), { recursive: true });
  cpSync(join(WORKER_ROOT, 'pkg'), join(old, 'pkg'), { recursive: true });
  const ui = join(WORKER_ROOT, 'assets', 'ui');
  const site = {};
  for (const path of files(ui)) site[`/ui/${relative(ui, path)}`] = { type: 'x', body: readFileSync(path).toString('base64') };
  writeFileSync(join(old, 'www', 'site.js'), `export const SITE = ${JSON.stringify(site)};\n`);
  writeFileSync(
    join(old, 'www', 'site-worker.js'),
    "import { SITE } from './site.js';\nimport worker from './worker.js';\nglobalThis.SITE = SITE;\nexport default worker;\n",
  );
  const oldConfig = join(old, 'wrangler.toml');
  writeFileSync(oldConfig, 'name = "edgeattest"\nmain = "www/site-worker.js"\ncompatibility_date = "2025-01-01"\n');
  const before = dryRun(oldConfig, join(tmp, 'out-site-js'));
  assert.equal(before.status, 0, before.output);

  t.diagnostic(`worker upload with [assets]: ${run.kib} KiB / gzip ${run.gzipKib} KiB (+ ${assetFiles.length} asset files uploaded apart)`);
  t.diagnostic(`worker upload with site.js (yardstick, same run, same files): ${before.kib} KiB / gzip ${before.gzipKib} KiB`);
  assert.ok(run.gzipKib < before.gzipKib, `${run.gzipKib} KiB gzip with [assets] vs ${before.gzipKib} KiB with site.js`);
});

test('the configuration with the KV namespace of the API keys uncommented validates', (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'edgeattest-deploy-kv-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const config = configCopy(tmp, (text) => {
    const kv = '# [[kv_namespaces]]\n# binding = "EDGEATTEST_API_KEYS_KV"\n# id = "<namespace id>"';
    assert.ok(text.includes(kv), 'wrangler.toml shows the KV binding ready to uncomment');
    return text.replace(kv, '[[kv_namespaces]]\nbinding = "EDGEATTEST_API_KEYS_KV"\nid = "0123456789abcdef0123456789abcdef"');
  });
  const run = dryRun(config, join(tmp, 'out'));
  assert.equal(run.status, 0, run.output);
  assert.deepEqual(warnings(run.output), [], run.output);
  assert.match(run.output, /env\.EDGEATTEST_API_KEYS_KV\s+\(0123456789abcdef0123456789abcdef\)\s+KV Namespace/);

  // A binding of the wrong shape is refused, so the check above is not vacuous.
  const broken = configCopy(tmp, (text) => text.replace('# [[kv_namespaces]]\n# binding = "EDGEATTEST_API_KEYS_KV"', '[[kv_namespaces]]\nbinding = 42'));
  const refused = dryRun(broken, join(tmp, 'out-broken'));
  assert.notEqual(refused.status, 0, refused.output);
  assert.match(refused.output, /kv_namespaces/);
});

test('wrangler dev works at once: the build command writes .dev.vars from the development key, and the service is UP', { timeout: 900_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'edgeattest-wrangler-dev-'));
  // The configuration in a fresh folder, so that its .dev.vars does not exist yet.
  const config = configCopy(tmp, (text) => {
    assert.match(text, /--wrangler-build"/);
    return text.replace('--wrangler-build"', `--wrangler-build --dir ${tmp}"`);
  });
  const dev = spawn(process.execPath, [WRANGLER, 'dev', '-c', config, '--ip', '127.0.0.1', '--port', '0'], {
    cwd: repo,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true', NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
  });
  const exited = once(dev, 'exit');
  t.after(async () => {
    if (dev.exitCode === null && dev.signalCode === null) {
      process.kill(-dev.pid, 'SIGTERM');
      await exited;
    }
    rmSync(tmp, { recursive: true, force: true });
  });
  let output = '';
  const ready = new Promise((resolve, reject) => {
    const look = (chunk) => {
      output += chunk;
      const match = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
      if (match) resolve(match[1]);
    };
    dev.stdout.setEncoding('utf8').on('data', look);
    dev.stderr.setEncoding('utf8').on('data', look);
    exited.then(([code]) => reject(new Error(`wrangler dev ended (${code}):\n${output}`)));
  });
  const origin = await ready;
  assert.match(output, /wrote .*\.dev\.vars \(EDGEATTEST_SIGNING_KEY, EDGEATTEST_SIGNING_CERTIFICATE, EDGEATTEST_API_KEYS\)/);
  assert.match(output, /Using secrets defined in .*\.dev\.vars/);
  const health = await fetch(`${origin}/health`);
  assert.equal(health.status, 200);
  assert.equal((await health.json()).overallStatus, 'UP');
  // The development key with its chain (x5c), as the main job publishes it.
  const { keys } = await (await fetch(`${origin}/.well-known/jwks.json`)).json();
  assert.equal(keys[0].crv, 'P-384');
  assert.ok(keys[0].x5c?.length >= 2, 'the JWKS key has its development chain');
  assert.match(await (await fetch(`${origin}/ui/`)).text(), /<title>edgeattest/);
});

test('.dev.vars: values verbatim for dotenv, `$` escaped against expansion, a single quote refused', () => {
  const text = devVarsText({ EDGEATTEST_SIGNING_KEY: '-----BEGIN PRIVATE KEY-----\nAB$C\n-----END PRIVATE KEY-----\n', EDGEATTEST_API_KEYS: '{"keys":[]}' });
  assert.match(text, /^EDGEATTEST_SIGNING_KEY='-----BEGIN PRIVATE KEY-----\nAB\\\$C\n-----END PRIVATE KEY-----\n'$/m);
  assert.match(text, /^EDGEATTEST_API_KEYS='\{"keys":\[\]\}'$/m);
  assert.throws(() => devVarsText({ EDGEATTEST_ISSUER: "it's" }), /single quote/);
  assert.throws(() => devVarsText({ 'bad name': 'x' }), /not a binding name/);
});

test('static assets: the page at /ui/ and the API reference at /docs/ from the ASSETS binding, JSON errors around them', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'edgeattest-assets-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const docs = join(tmp, 'api-docs');
  mkdirSync(join(docs, 'modules'), { recursive: true });
  writeFileSync(join(docs, 'index.html'), '<!doctype html><title>edgeattest API</title>');
  writeFileSync(join(docs, 'modules', 'local.html'), '<!doctype html><title>local</title>');
  const bundle = (out, docsDir) => {
    const run = spawnSync(process.execPath, [join(repo, 'pkg-config', 'bundle-worker.mjs'), join(repo, 'pkg'), out, docsDir], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout;
  };
  bundle(join(tmp, 'with-docs'), docs);
  assert.match(bundle(join(tmp, 'without-docs'), join(tmp, 'absent')), /no .*absent, so no API reference at \/docs\//);
  assert.deepEqual(readdirSync(join(tmp, 'with-docs', 'assets')).sort(), ['docs', 'ui']);
  assert.deepEqual(readdirSync(join(tmp, 'without-docs', 'assets')), ['ui']);
  // The worker's own modules are not page files.
  assert.ok(!files(join(tmp, 'with-docs', 'assets')).some((path) => /worker[^/]*\.js$/.test(path)));

  const root = join(tmp, 'with-docs');
  const worker = await startWorker({ rootPath: root, modulesRoot: root });
  try {
    const page = await fetch(`${worker.origin}/docs/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type'), /^text\/html/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await page.text(), /<title>edgeattest API/);
    assert.match(await (await fetch(`${worker.origin}/docs/modules/local.html`)).text(), /<title>local/);
    const redirect = await fetch(`${worker.origin}/docs`, { redirect: 'manual' });
    assert.equal(redirect.status, 308);
    assert.equal(new URL(redirect.headers.get('location')).pathname, '/docs/');
    const missing = await fetch(`${worker.origin}/docs/nope.html`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).code, 'ERR_NOT_FOUND');
    const post = await fetch(`${worker.origin}/docs/`, { method: 'POST' });
    assert.equal(post.status, 405);
    // The page's modules and wasm, as the browser loads them; the worker's modules are not served.
    const wasm = await fetch(`${worker.origin}/ui/pkg/service/edgeattest_bg.wasm`);
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    assert.equal((await fetch(`${worker.origin}/ui/app.js`)).status, 200);
    // The icon, at the page's link and where browsers look for it by default.
    for (const path of ['/ui/icon.svg', '/favicon.ico']) {
      const icon = await fetch(`${worker.origin}${path}`);
      assert.equal(icon.status, 200, path);
      assert.match(icon.headers.get('content-type'), /^image\/svg\+xml/, path);
      assert.match(await icon.text(), /<svg /, path);
    }
    for (const hidden of ['/ui/worker.js', '/ui/pkg/service/workerd.js', '/ui/rims.js']) {
      assert.equal((await fetch(`${worker.origin}${hidden}`)).status, 404, hidden);
    }
    // Revalidation by ETag, as Workers static assets answer it.
    const etag = (await fetch(`${worker.origin}/ui/app.js`)).headers.get('etag');
    assert.ok(etag);
    assert.equal((await fetch(`${worker.origin}/ui/app.js`, { headers: { 'if-none-match': etag } })).status, 304);
  } finally {
    await worker.stop();
  }

  const bare = join(tmp, 'without-docs');
  const without = await startWorker({ rootPath: bare, modulesRoot: bare });
  try {
    const missing = await fetch(`${without.origin}/docs/`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).code, 'ERR_NOT_FOUND');
  } finally {
    await without.stop();
  }
});
