// The READMEs' main example runs as written: the code block under "Verify an attestation
// result" in the package README (pkg-config/npm/README.md) and in the project README, with
// `edgeattest` resolved to the built package, NRAS's address answered by our worker in workerd
// (test PKI as trust anchors, loopback OCSP responder and RIM service), and `collectEvidence`
// played by a test device that signs its transcript with the nonce it is given. A device that
// passes reaches the `attested:` line; a revoked one takes the catch branch, prints its reasons
// and rethrows ERR_ATTESTATION_FAILED. The example pins NVIDIA's signer by default, which the
// stand-in cannot be: as written it refuses the stand-in (ERR_SIGNER_UNTRUSTED); run for the
// other cases with the stand-in's development root as its one `signers` anchor.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startWorker } from './support/worker.mjs';
import { scratchProject } from './support/packed.mjs';
import { pkiText, startOcspResponder, startRimService, testDevice } from './support/ocsp-responder.mjs';

const REPO = new URL('../../', import.meta.url);
const PACKAGE = new URL('pkg/node.js', REPO).href;
const NRAS = 'https://nras.attestation.nvidia.com';

/** The first ```js block after `heading` in the file. */
function example(file, heading) {
  const text = readFileSync(new URL(file, REPO), 'utf8');
  const at = text.indexOf(heading);
  assert.ok(at >= 0, `${file} has a "${heading}" section`);
  const block = /```js\n([\s\S]*?)```/.exec(text.slice(at));
  assert.ok(block, `${file}: a js block under "${heading}"`);
  return block[1];
}

let worker;
let responder;
let rims;
let dir;
before(async () => {
  responder = await startOcspResponder();
  rims = await startRimService();
  worker = await startWorker({
    chain: true,
    bindings: {
      EDGEATTEST_TRUST_ANCHORS: pkiText('root.pem'),
      EDGEATTEST_RIM_TRUST_ANCHORS: pkiText('rim_root.pem'),
      EDGEATTEST_OCSP_URL: responder.url,
      EDGEATTEST_RIM_SERVICE_URL: rims.url,
      EDGEATTEST_BUNDLED_RIMS: 'off',
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'edgeattest-readme-'));
});
after(async () => {
  await worker?.stop();
  await responder?.close();
  await rims?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The example with the stand-in's root pinned in place of NVIDIA's (the one change made). */
function pinnedToStandIn(code) {
  const remote = 'createRemoteJWKSet(`${NRAS}/.well-known/jwks.json`)';
  assert.equal(code.split(remote).length, 2, 'the example makes its key set once, with the default signers');
  return code.replace(remote, `createRemoteJWKSet(\`\${NRAS}/.well-known/jwks.json\`, { signers: ${JSON.stringify(worker.signers)} })`);
}

let runs = 0;
/** Runs `code` as a module; returns what it printed and how it ended. */
async function run(code, device) {
  assert.match(code, /from 'edgeattest';/, 'the example imports the package by its name');
  const file = join(dir, `example-${runs++}.mjs`);
  writeFileSync(file, code.replace("from 'edgeattest';", `from ${JSON.stringify(PACKAGE)};`));
  const printed = { log: [], error: [] };
  const saved = { fetch: globalThis.fetch, log: console.log, error: console.error };
  globalThis.collectEvidence = (nonce) => testDevice(device, globalThis.crypto.subtle, nonce);
  globalThis.fetch = (url, init) => saved.fetch(String(url).replace(NRAS, worker.origin), init);
  console.log = (...args) => printed.log.push(args);
  console.error = (...args) => printed.error.push(args);
  try {
    await import(pathToFileURL(file).href);
    return { printed };
  } catch (error) {
    return { printed, error };
  } finally {
    Object.assign(globalThis, { fetch: saved.fetch });
    console.log = saved.log;
    console.error = saved.error;
    delete globalThis.collectEvidence;
  }
}

for (const [file, heading] of [
  ['pkg-config/npm/README.md', '## Verify an attestation result'],
  ['README.md', '### Verify an attestation result'],
]) {
  test(`${file}: as written, the example pins NVIDIA's signer and refuses a stand-in's result`, async () => {
    const { printed, error } = await run(example(file, heading), 'good');
    assert.equal(error?.code, 'ERR_SIGNER_UNTRUSTED', error?.message);
    assert.deepEqual(printed.log, [], 'never the attested line');
  });

  test(`${file}: the example attests a device that passes`, async () => {
    const { printed, error } = await run(pinnedToStandIn(example(file, heading)), 'good');
    assert.equal(error, undefined, error?.message);
    assert.deepEqual(printed.log, [['attested:', ['GPU-0']]]);
    assert.deepEqual(printed.error, []);
  });

  test(`${file}: the example refuses a revoked device, saying why`, async () => {
    const { printed, error } = await run(pinnedToStandIn(example(file, heading)), 'revoked');
    assert.equal(error?.code, 'ERR_ATTESTATION_FAILED', error?.message);
    assert.deepEqual(printed.log, [], 'never the attested line');
    assert.equal(printed.error.length, 1);
    const [label, reasons] = printed.error[0];
    assert.equal(label, 'GPU-0');
    assert.ok(reasons.some((reason) => /revoked/.test(reason)), JSON.stringify(reasons));
  });
}

// The same examples as TypeScript, in a project that installed the package's tarball: they
// compile under `tsc --strict` as written, with a `target` and without one (`module:
// NodeNext` alone, which top-level await needs). Only `collectEvidence` is declared: the
// user's own function.
for (const [file, heading] of [
  ['pkg-config/npm/README.md', '## Verify an attestation result'],
  ['README.md', '### Verify an attestation result'],
]) {
  test(`${file}: the example compiles as TypeScript (tsc --strict, with and without target)`, () => {
    const code = example(file, heading);
    const usage = `declare function collectEvidence(nonce: string): Promise<{ evidence: string; certificate: string }>;\n${code}\nexport {};\n`;
    const project = scratchProject({ 'usage.ts': usage }, 'edgeattest-readme-ts');
    const tsc = fileURLToPath(new URL('node_modules/.bin/tsc', REPO));
    try {
      for (const target of [undefined, 'ES2022']) {
        const compilerOptions = { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', types: [], ...(target ? { target } : {}) };
        project.write('tsconfig.json', JSON.stringify({ compilerOptions, files: ['usage.ts'] }));
        try {
          project.run(tsc, ['-p', '.']);
        } catch (error) {
          assert.fail(`${file}, target ${target ?? '(none)'}: tsc failed:\n${error.stdout}${error.stderr}`);
        }
      }
    } finally {
      project.close();
    }
  });
}

// "Verify a recorded result": NRAS's recorded answer, its key set and its request's nonce, at
// the tokens' time; the same code without the time is refused as expired.
test('README.md: the recorded NRAS result verifies at its recorded time, and only then', async () => {
  assert.equal(process.cwd(), fileURLToPath(REPO).replace(/\/$/, ''), 'the example reads its files from the repository root');
  const code = example('README.md', '#### Verify a recorded result');
  const { printed, error } = await run(code, 'good');
  assert.equal(error, undefined, error?.message);
  assert.deepEqual(printed.log, [['authentic and passed:', ['GPU-0']]]);
  const { error: expired } = await run(code.replace(/currentDate: new Date\('[^']+'\)/, 'currentDate: new Date()'), 'good');
  assert.equal(expired?.code, 'ERR_JWT_EXPIRED');
});
