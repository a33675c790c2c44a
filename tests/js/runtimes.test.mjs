// The release package under the other runtimes we target and its published types: Deno (from
// npm's `deno` package) and TypeScript's compiler over a typed usage file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name) => `${repo}node_modules/.bin/${name}`;
const deno = `${repo}target/tools/node_modules/.bin/deno`; // installed by pkg-config/setup.sh

test('Deno imports the package and runs it', () => {
  const out = execFileSync(
    deno,
    [
      'run', '--no-prompt', '--allow-read', 'tests/js/support/deno-smoke.mjs',
      'tests/fixtures/nvidia/evidence/hopper/nvat_hopper_535.86.09_report.hex',
      'tests/fixtures/nvidia/evidence/hopper/nvat_hopper_535.86.09_certchain.pem',
    ],
    { cwd: repo, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' }, encoding: 'utf8' },
  );
  const result = JSON.parse(out.trim().split('\n').pop());
  assert.match(result.runtime, /^deno 2\./);
  assert.equal(result.summary.nonce, result.nonce);
  assert.equal(result.summary.devices.length, 1);
  assert.equal(result.code, 'ERR_REQUEST_INVALID_ARCH');
});

test('the published TypeScript types compile against typed usage (tsc --strict)', () => {
  try {
    execFileSync(bin('tsc'), ['-p', 'tests/js/support/tsconfig.json'], { cwd: repo, encoding: 'utf8' });
  } catch (error) {
    assert.fail(`tsc failed:\n${error.stdout}${error.stderr}`);
  }
});

// The packed tarball installed in a scratch project (tests/js/support/packed.mjs), as users
// get it: Deno resolves `edgeattest` from node_modules through the `deno` condition, and a
// user's `tsc --strict` with TypeScript's default libraries (no `lib: esnext`) accepts the
// package's types, including a ServiceResponse body given to `new Response()`.
import { scratchProject } from './support/packed.mjs';

test('Deno: the installed tarball, every relying-party entry, through the deno condition', () => {
  const project = scratchProject({
    'main.mjs': `
      import * as remote from 'edgeattest';
      import * as local from 'edgeattest/local';
      const out = { runtime: 'deno ' + Deno.version.deno, resolved: import.meta.resolve('edgeattest'), resolvedLocal: import.meta.resolve('edgeattest/local') };
      for (const [name, api] of [['remote', remote], ['local', local]]) {
        await api.init();
        const nonce = api.generateNonce();
        let code = null;
        try { api.validateAttestRequest('/v4/attest/gpu', '{'); } catch (e) { code = e.code; }
        out[name] = { nonce, code, init: typeof api.init, evidence: typeof api.verifyEvidence };
      }
      console.log(JSON.stringify(out));`,
  }, 'edgeattest-deno');
  try {
    const out = JSON.parse(project.run(deno, ['run', '--no-prompt', '--allow-read', 'main.mjs'], { env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } }).trim().split('\n').pop());
    assert.match(out.runtime, /^deno 2\./);
    assert.match(out.resolved, /node_modules\/edgeattest\/node\.js$/);
    assert.match(out.resolvedLocal, /node_modules\/edgeattest\/local\/node\.js$/);
    for (const name of ['remote', 'local']) {
      assert.match(out[name].nonce, /^[0-9a-f]{64}$/);
      assert.equal(out[name].code, 'ERR_REQUEST_MALFORMED_JSON');
      assert.equal(out[name].evidence, name === 'local' ? 'function' : 'undefined', name);
    }
  } finally {
    project.close();
  }
});

test('tsc --strict with the default libraries accepts the installed package\'s types', () => {
  const usage = `
    import { init, generateNonce, type InitInput } from 'edgeattest';
    import { verifyEvidence, type OcspRequestJs, type EvidenceReport } from 'edgeattest/local';
    import { handleRequest, AttestationService, type ServiceResponse, type FetchResource } from 'edgeattest/service';
    import wasmUrl from 'edgeattest/edgeattest_bg.wasm';
    const inputs: InitInput[] = [wasmUrl, new URL(wasmUrl, 'https://example.com/'), new Uint8Array(0), new ArrayBuffer(0), fetch(wasmUrl)];
    await init(inputs[0]);
    export async function serve(service: AttestationService, request: Request): Promise<Response> {
      const answer: ServiceResponse = await handleRequest(service, { method: request.method, path: new URL(request.url).pathname, body: new Uint8Array(await request.arrayBuffer()) });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    }
    export async function ask(resource: FetchResource, ocsp: OcspRequestJs): Promise<Response[]> {
      const fetched = resource.kind === 'ocsp' ? [await fetch(resource.url, { method: 'POST', body: resource.request })] : [];
      return [...fetched, await fetch('https://ocsp.example/', { method: 'POST', body: ocsp.request })];
    }
    export const nonce: string = generateNonce();
    export const report: EvidenceReport = verifyEvidence({ evidence: new Uint8Array(0), certificate: '', arch: 'HOPPER', nonce });
    // @ts-expect-error: no null (WebAssembly.Module's type is empty, so most objects pass tsc; init() checks at run time)
    await init(null);
  `;
  const project = scratchProject({
    'usage.ts': usage,
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: false, types: [] },
      files: ['usage.ts'],
    }),
  }, 'edgeattest-tsc');
  try {
    project.run(bin('tsc'), ['-p', '.']);
    // The same file with the pre-fix body type fails: the test can tell.
    const types = `${project.dir}/node_modules/edgeattest/service/edgeattest.d.ts`;
    project.write('node_modules/edgeattest/service/edgeattest.d.ts', readFileSync(types, 'utf8').replace(/body: Uint8Array & \{ readonly buffer: ArrayBuffer \};/, 'body: Uint8Array;'));
    assert.throws(() => project.run(bin('tsc'), ['-p', '.']), (error) => /usage\.ts.*TS2345.*BodyInit/s.test(error.stdout));
  } catch (error) {
    if (error.stdout !== undefined) assert.fail(`tsc failed:\n${error.stdout}${error.stderr}`);
    throw error;
  } finally {
    project.close();
  }
});

test('tsc --strict with no target and no module (TypeScript\'s defaults: ES5 library) accepts every entry\'s types', () => {
  const usage = `
    import { generateNonce, verifyAttestationResult, EdgeAttestError } from 'edgeattest';
    import { verifyEvidence } from 'edgeattest/local';
    import { handleRequest } from 'edgeattest/service';
    import { appraiseRego } from 'edgeattest/rego';
    export const used = [generateNonce, verifyAttestationResult, verifyEvidence, handleRequest, appraiseRego];
    export const isCoded = (error: unknown): boolean => error instanceof EdgeAttestError;
  `;
  const project = scratchProject({
    'usage.ts': usage,
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, types: [] }, files: ['usage.ts'] }),
  }, 'edgeattest-tsc-defaults');
  try {
    project.run(bin('tsc'), ['-p', '.']);
    // Without the types' library reference, ES5's library lacks Symbol: the test can tell.
    for (const entry of ['', 'local/', 'service/', 'rego/']) {
      const path = `node_modules/edgeattest/${entry}error.d.ts`;
      project.write(path, readFileSync(`${project.dir}/${path}`, 'utf8').replace('/// <reference lib="es2020" />', ''));
    }
    assert.throws(() => project.run(bin('tsc'), ['-p', '.']), (error) => /error\.d\.ts.*TS2585.*Symbol/s.test(error.stdout));
  } catch (error) {
    if (error.stdout !== undefined) assert.fail(`tsc failed:\n${error.stdout}${error.stderr}`);
    throw error;
  } finally {
    project.close();
  }
});
