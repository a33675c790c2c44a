// Serves the edge worker locally in workerd (through Miniflare) on 127.0.0.1:EDGEATTEST_PORT
// (default 8787): the attestation service at /, the verification page at /ui/ and, when
// built, the API reference at /docs/ (static assets from target/worker/assets/).
// Configuration: environment variables (README; pkg-config/local-config.mjs).
// Run by pkg-config/start.sh after the build; stops on Ctrl-C.
import { closeSync, existsSync } from 'node:fs';
import { Miniflare } from 'miniflare';
import { WORKER_ROOT, workerOptions } from './worker-options.mjs';
import { localBindings } from './local-config.mjs';
import { healthBanner, settledHealth } from './health-banner.mjs';

let config;
try {
  config = await localBindings();
} catch (error) {
  console.error(`edgeattest: ${error.message}`);
  process.exit(2);
}
// start.sh's lock (target/start.lock), held until the development key and chain exist; let go
// before workerd starts, so that it does not inherit the lock.
if (process.env.EDGEATTEST_START_LOCK_FD) closeSync(Number(process.env.EDGEATTEST_START_LOCK_FD));
const mf = new Miniflare(workerOptions({ host: '127.0.0.1', port: config.port, bindings: config.bindings }));
const url = await mf.ready;
// The first request creates the service (so configuration errors show at start) and starts
// the probe of its sources; the banner says what /health says once the probe has ended.
const { readServiceBindings, serviceLimits } = await import('../pkg/service/index.js');
const { status, health } = await settledHealth(() => mf.dispatchFetch(`${url.origin}/health`), {
  timeoutMs: serviceLimits().probeTimeoutMs + 2000,
});
for (const line of healthBanner(url.origin, status, health)) console.log(line);
console.log(`verification page:  ${url.origin}/ui/`);
if (testPkiTrusted(config.bindings)) {
  console.log('test PKI:           trusted (development only): the edgeattest TEST PKI, not NVIDIA, for the offline samples; EDGEATTEST_TEST_PKI=off to stop');
}
if (existsSync(`${WORKER_ROOT}assets/docs`)) console.log(`API reference:      ${url.origin}/docs/`);
/** Whether the core reads EDGEATTEST_TEST_PKI as on in `bindings`, as the worker reads them. */
function testPkiTrusted(bindings) {
  try {
    return readServiceBindings(bindings).testPki;
  } catch {
    return false; // the service is not configured: the banner above says why
  }
}
const stop = async () => {
  await mf.dispose();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
