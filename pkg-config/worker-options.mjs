// Miniflare options for the edge worker bundle in target/worker/ (built by
// pkg-config/build.sh). Shared by the local server (serve.mjs) and the tests.
import { fileURLToPath } from 'node:url';
import { runtimeOutput } from './workerd-output.mjs';

export const WORKER_ROOT = fileURLToPath(new URL('../target/worker/', import.meta.url));

/**
 * The static files (page, API reference) as Workers static assets, as pkg-config/wrangler.toml
 * declares them for Cloudflare: the same directory, the ASSETS binding, the worker first.
 */
export function assetsOptions(root = WORKER_ROOT) {
  return {
    directory: `${root.replace(/\/?$/, '/')}assets`,
    binding: 'ASSETS',
    routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true },
    assetConfig: { html_handling: 'none', not_found_handling: 'none' },
  };
}

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
    assets: assetsOptions(extra.rootPath ?? WORKER_ROOT),
    // workerd's output with expected network failures in one line each (workerd-output.mjs).
    handleRuntimeStdio: runtimeOutput(),
    ...extra,
  };
}
