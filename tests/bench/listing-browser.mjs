// List benchmark in headless Chromium: the same module as in Node (listing-core.mjs), run
// in a page served from 127.0.0.1, with sql.js's browser build.
//
//   node tests/bench/listing-browser.mjs [size ...]     default sizes: 100000 1000000
//   EDGEATTEST_PKG=/path/to/pkg CHROMIUM=/usr/bin/chromium node tests/bench/listing-browser.mjs
//
// Needs the built package (pkg/) and `npm ci` (sql.js, playwright-core).
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { benchLines } from './listing-core.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(process.env.EDGEATTEST_PKG ?? resolve(here, '../../pkg'));
const sqljs = dirname(createRequire(import.meta.url).resolve('sql.js'));
const roots = { '/bench/': here, '/pkg/': pkg, '/sqljs/': sqljs };
const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

const PAGE = `<!doctype html><meta charset="utf-8"><title>list benchmark</title>
<script src="/sqljs/sql-wasm.js"></script>
<script type="module">
import init, * as lib from '/pkg/service/edgeattest.js';
import { run } from '/bench/listing-core.mjs';
try {
  await init({ module_or_path: '/pkg/service/edgeattest_bg.wasm' });
  const SQL = await initSqlJs({ locateFile: (file) => '/sqljs/' + file });
  const sizes = JSON.parse(new URLSearchParams(location.search).get('sizes'));
  window.__result = { ok: true, results: run({ lib, SQL, sizes, log: (line) => console.log(line) }) };
} catch (error) {
  window.__result = { ok: false, error: String(error && error.stack || error) };
}
</script>`;

const server = createServer(async (request, response) => {
  const path = new URL(request.url, 'http://x').pathname;
  if (path === '/favicon.ico') {
    response.writeHead(204).end();
    return;
  }
  if (path === '/') {
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    return;
  }
  const prefix = Object.keys(roots).find((p) => path.startsWith(p));
  const file = prefix && normalize(join(roots[prefix], path.slice(prefix.length)));
  if (!file || !file.startsWith(roots[prefix])) {
    response.writeHead(404).end();
    return;
  }
  try {
    const body = await readFile(file);
    const type = types[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type }).end(body);
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const { port } = server.address();

const args = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
const sizes = args.length ? args : [100_000, 1_000_000];
const profile = await mkdtemp(join(tmpdir(), 'edgeattest-bench-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--js-flags=--max-old-space-size=8192',
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  ],
});
let failed = false;
try {
  const page = await context.newPage();
  page.on('console', (message) => console.log(`[chromium] ${message.text()}`));
  page.on('pageerror', (error) => console.log(`[chromium] pageerror: ${error.message}`));
  console.log(`Chromium ${context.browser()?.version() ?? ''}`.trim());
  await page.goto(`http://127.0.0.1:${port}/?sizes=${encodeURIComponent(JSON.stringify(sizes))}`);
  await page.waitForFunction(() => window.__result, null, { timeout: 0, polling: 500 });
  const outcome = await page.evaluate(() => window.__result);
  if (!outcome.ok) {
    failed = true;
    console.error(outcome.error);
  } else {
    for (const line of benchLines('chromium', outcome.results)) console.log(line);
    if (process.env.BENCH_JSON) console.log(JSON.stringify({ host: 'chromium', results: outcome.results }));
  }
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
  server.close();
}
process.exitCode = failed ? 1 : 0;
