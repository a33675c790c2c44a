// Serves the edge worker locally in workerd (through Miniflare) on 127.0.0.1:EDGEATTEST_PORT
// (default 8787): the service at / and the verification page at /ui/.
// Run by pkg-config/start.sh after the build; stops on Ctrl-C.
import { Miniflare } from 'miniflare';
import { workerOptions } from './worker-options.mjs';

const port = Number(process.env.EDGEATTEST_PORT ?? 8787);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`EDGEATTEST_PORT must be a port number from 1 to 65535, got ${process.env.EDGEATTEST_PORT}`);
  process.exit(2);
}

const mf = new Miniflare(workerOptions({ host: '127.0.0.1', port }));
const url = await mf.ready;
console.log(`edgeattest service: ${url.origin}/`);
console.log(`verification page:  ${url.origin}/ui/`);
const stop = async () => {
  await mf.dispose();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
