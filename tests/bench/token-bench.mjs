// ES384 token benchmark: sign and verify per second, our WebCrypto and software backends
// beside panva/jose in the same run, in Node and in headless Chromium; an 8-device detached
// EAT result; the recorded 8-GPU service result.
//
//   bash pkg-config/build.sh && node tests/bench/token-bench.mjs [--ms 1500] [--node-only]
//
// Prints one table per host and the WebCrypto/jose ratios (target: 0.8 or better), and writes
// them as JSON to tests/artifacts/token-bench.json. The last lines are machine-readable
// (pkg-config/bench.sh): `BENCH token.<case>.<host> <ours ops/s> <jose ops/s> <ratio> >=0.80`.
import { createServer } from 'node:http';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { extname } from 'node:path';
import * as jose from 'jose';
import * as lib from '../../pkg/index.js';
import { runTokenBench, ratios } from './token-bench-core.mjs';

const repo = new URL('../../', import.meta.url);
const args = process.argv.slice(2);
const ms = Number(args[args.indexOf('--ms') + 1]) || 1500;
const nodeOnly = args.includes('--node-only');

function recorded() {
  const read = (name) => JSON.parse(readFileSync(new URL(`tests/fixtures/nvidia/nras/teep/${name}`, repo), 'utf8'));
  const response = read('v3_8gpu_success_20260629_response.json');
  const overall = JSON.parse(Buffer.from(response[0][1].split('.')[1], 'base64url'));
  return {
    response,
    jwks: read('v3_8gpu_success_20260629_jwks.json'),
    nonce: read('v3_8gpu_success_20260629_request.json').nonce,
    iat: overall.iat,
  };
}

function table(host, rows) {
  console.log(`\n## ${host}`);
  console.log('| case | implementation | ops/s |');
  console.log('|---|---|---:|');
  for (const r of rows) console.log(`| ${r.case} | ${r.impl} | ${r.opsPerSec.toFixed(1)} |`);
  const q = ratios(rows);
  console.log(`\nWebCrypto path / jose: sign ${q.sign.toFixed(2)}x, verify ${q.verify.toFixed(2)}x, 8-device result ${q.detachedEat.toFixed(2)}x`);
  return { host, tag: host.split(' ')[0].toLowerCase(), rows, ratios: q };
}

/** One BENCH line per headline case: our WebCrypto path against jose, ops/s. */
function benchLines({ tag, rows }) {
  const get = (name, impl) => rows.find((r) => r.case === name && r.impl === impl)?.opsPerSec;
  for (const [id, name, jose] of [
    ['sign', 'ES384 sign (JWT)', 'jose SignJWT'],
    ['verify', 'ES384 verify (JWT, JWKS)', 'jose jwtVerify'],
    ['detached-eat-8', 'detached EAT, 8 devices, verify', 'jose (9 jwtVerify + digests)'],
  ]) {
    const ours = get(name, 'ours webcrypto');
    const theirs = get(name, jose);
    // Verification: at least 1.2x jose's throughput; signing: not slower than 0.8x.
    const target = id === 'sign' ? '>=0.80' : '>=1.2';
    console.log(`BENCH token.${id}.${tag} ${ours.toFixed(1)}ops/s ${theirs.toFixed(1)}ops/s ${(ours / theirs).toFixed(2)} ${target}`);
  }
}

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.html': 'text/html' };

function serve(data) {
  const roots = {
    '/pkg/': new URL('pkg/', repo),
    '/jose/': new URL('node_modules/jose/dist/webapi/', repo),
    '/bench/': new URL('tests/bench/', repo),
  };
  const page = `<!doctype html><meta charset="utf-8"><title>token bench</title>
<script type="importmap">{"imports":{"jose":"/jose/index.js"}}</script>
<script type="module">
  import * as jose from 'jose';
  import * as lib from '/pkg/index.js';
  import { runTokenBench } from '/bench/token-bench-core.mjs';
  const recorded = await (await fetch('/recorded.json')).json();
  window.benchResult = runTokenBench(lib, jose, recorded, { ms: ${ms} })
    .catch((error) => ({ error: String(error && error.stack || error) }));
</script>`;
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    try {
      if (path === '/') return res.writeHead(200, { 'content-type': TYPES['.html'] }).end(page);
      if (path === '/recorded.json') return res.writeHead(200, { 'content-type': TYPES['.json'] }).end(JSON.stringify(data));
      const prefix = Object.keys(roots).find((p) => path.startsWith(p));
      if (!prefix || path.includes('..')) return res.writeHead(404).end();
      const body = readFileSync(new URL(path.slice(prefix.length), roots[prefix]));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function chromium(data) {
  const { launchBrowser } = await import('../js/support/browser.mjs');
  const server = await serve(data);
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.benchResult !== undefined, null, { timeout: 60_000 });
    const rows = await page.evaluate(() => window.benchResult);
    if (rows.error) throw new Error(rows.error);
    const version = browser.context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
    return { rows, version };
  } finally {
    await browser.close();
    server.close();
  }
}

const data = recorded();
const results = [];
console.log(`Node ${process.version}, jose ${JSON.parse(readFileSync(new URL('node_modules/jose/package.json', repo))).version}, ${ms} ms per case`);
results.push(table(`Node ${process.version}`, await runTokenBench(lib, jose, data, { ms })));
if (!nodeOnly) {
  const { rows, version } = await chromium(data);
  results.push(table(`Chromium ${version}`, rows));
}
mkdirSync(new URL('tests/artifacts/', repo), { recursive: true });
writeFileSync(new URL('tests/artifacts/token-bench.json', repo), JSON.stringify(results, null, 2));
console.log('');
for (const result of results) benchLines(result);
