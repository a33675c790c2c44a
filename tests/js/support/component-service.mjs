// The attestation service component (target/component/edgeattest-service.wasm, built by
// pkg-config/build-component.sh) in a real component runtime: transpiled once per
// process by jco (instantiation mode, so that each instance gets its own environment) and
// served by preview2-shim's HTTPServer on 127.0.0.1, one child process per instance. Configuration is the worker's variables
// (examples/wasi_http_service/config.rs), with the defaults of ./worker.mjs: a fresh signing
// key, the RIM service and the OCSP responder off unless a test points them at loopback.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { transpile, writeFiles } from '@bytecodealliance/jco-transpile';
import { freshSigningKeyPem } from './worker.mjs';

const root = new URL('../../../', import.meta.url);
export const SERVICE_COMPONENT = new URL('target/component/edgeattest-service.wasm', root);

const CHILD = fileURLToPath(new URL('component-service-child.mjs', import.meta.url));

let transpiled;

/** The folder of the transpiled component (transpiled on first use, removed at exit). */
function componentDir() {
  transpiled ??= (async () => {
    if (!existsSync(SERVICE_COMPONENT)) {
      throw new Error(`${SERVICE_COMPONENT.pathname} is missing: build it with \`bash pkg-config/build-component.sh\``);
    }
    // Under target/ of this checkout, so the output resolves node_modules/@bytecodealliance/preview2-shim.
    const outDir = new URL(`target/component/jco-service-test-${process.pid}/`, root).pathname;
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
    const { files } = await transpile(SERVICE_COMPONENT.pathname, { outDir, name: 'service', optimize: false, instantiation: 'async' });
    await writeFiles(files);
    return outDir;
  })();
  return transpiled;
}

/**
 * One instance of the component with `env` (over the defaults: ./worker.mjs's), served on
 * loopback by a child process (component-service-child.mjs). Resolves to { origin, stop }.
 */
export async function startServiceComponent(env = {}) {
  const outDir = await componentDir();
  const all = {
    EDGEATTEST_SIGNING_KEY: await freshSigningKeyPem(),
    EDGEATTEST_RIM_SERVICE_URL: 'off',
    EDGEATTEST_OCSP_URL: 'off',
    ...env,
  };
  for (const [name, value] of Object.entries(all)) if (value === undefined) delete all[name];
  const child = spawn(process.execPath, [CHILD, outDir], {
    env: { ...process.env, EDGEATTEST_COMPONENT_ENV: JSON.stringify(all) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise((resolve, reject) => {
    lines.once('line', (line) => resolve(Number(/^listening (\d+)$/.exec(line)?.[1])));
    child.once('exit', (code) => reject(new Error(`the component process exited (${code}) before listening`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
