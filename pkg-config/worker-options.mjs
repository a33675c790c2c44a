// Miniflare options for the edge worker bundle in target/worker/ (built by
// pkg-config/build.sh). Shared by the local server (serve.mjs) and the tests.
import { fileURLToPath } from 'node:url';

export const WORKER_ROOT = fileURLToPath(new URL('../target/worker/', import.meta.url));

export function workerOptions(extra = {}) {
  return {
    rootPath: WORKER_ROOT,
    modulesRoot: WORKER_ROOT,
    modules: true,
    scriptPath: 'www/worker.js',
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2025-01-01',
    ...extra,
  };
}
