// Serves the edge worker locally in workerd (through Miniflare) on 127.0.0.1:EDGEATTEST_PORT
// (default 8787): the attestation service at / and the verification page at /ui/.
// Configuration: environment variables (README; pkg-config/local-config.mjs).
// Run by pkg-config/start.sh after the build; stops on Ctrl-C.
import { Miniflare } from 'miniflare';
import { workerOptions } from './worker-options.mjs';
import { localBindings } from './local-config.mjs';

let config;
try {
  config = await localBindings();
} catch (error) {
  console.error(`edgeattest: ${error.message}`);
  process.exit(2);
}
const mf = new Miniflare(workerOptions({ host: '127.0.0.1', port: config.port, bindings: config.bindings }));
const url = await mf.ready;
// The first request creates the service; make it now so configuration errors show at start.
const health = await mf.dispatchFetch(`${url.origin}/health`);
console.log(`edgeattest service: ${url.origin}/  (health: ${(await health.json()).overallStatus ?? health.status})`);
console.log(`verification page:  ${url.origin}/ui/`);
const stop = async () => {
  await mf.dispose();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
