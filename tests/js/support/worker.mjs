// Starts the built edge worker (target/worker) in workerd through Miniflare, on a free
// loopback port, for a test.
import { Miniflare } from 'miniflare';
import { workerOptions } from '../../../pkg-config/worker-options.mjs';

export async function startWorker(extra = {}) {
  const mf = new Miniflare(workerOptions({ host: '127.0.0.1', port: 0, ...extra }));
  const url = await mf.ready;
  return { mf, origin: url.origin, stop: () => mf.dispose() };
}
