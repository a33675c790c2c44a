// The release npm package (pkg/), imported in Node as a user would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as edgeattest from '../../pkg/index.js';
import * as local from '../../pkg/local/index.js';
import * as service from '../../pkg/service/index.js';
import { buildAttestRequest, generateNonce, validateAttestRequest } from '../../pkg/index.js';
import { hopper, ls10, fixtureBytes } from './support/fixtures.mjs';

const manifest = JSON.parse(readFileSync(new URL('../../pkg/package.json', import.meta.url), 'utf8'));
const cargo = readFileSync(new URL('../../Cargo.toml', import.meta.url), 'utf8');

function rejects(fn, code, field) {
  assert.throws(fn, (error) => {
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, code, error.message);
    if (field !== undefined) assert.equal(error.field, field);
    assert.ok(error instanceof Error);
    return true;
  });
}

test('package metadata matches the crate', () => {
  assert.equal(manifest.name, 'edgeattest');
  assert.equal(manifest.version, /^version = "(.+)"$/m.exec(cargo)[1]);
  assert.equal(manifest.type, 'module');
  // The order is the priority: workerd and Cloudflare's bundler first, then Deno and Node
  // (instantiated at import, no top-level await), then bundlers for browsers (explicit init).
  assert.deepEqual(manifest.exports['.'], {
    types: './index.d.ts', workerd: './workerd.js', worker: './workerd.js', deno: './node.js',
    node: './node.js', browser: './browser.js', default: './index.js',
  });
  assert.equal(manifest.repository.url, 'git+https://github.com/edgeattest/edgeattest.git');
  assert.equal(/^repository = "(.+)"$/m.exec(cargo)[1], 'https://github.com/edgeattest/edgeattest');
  assert.equal(manifest.bugs.url, 'https://github.com/edgeattest/edgeattest/issues');
  assert.match(manifest.homepage, /^https:\/\/github\.com\/edgeattest\/edgeattest/);
  // Only the entries that instantiate the wasm module at import have side effects.
  assert.deepEqual(manifest.sideEffects.toSorted(), [
    './index.js', './local/index.js', './local/node.js', './local/workerd.js', './node.js',
    './rego/index.js', './rego/node.js', './rego/workerd.js',
    './service/index.js', './service/node.js', './service/workerd.js', './workerd.js',
  ]);
  assert.deepEqual(manifest.exports['./local'], {
    types: './local/index.d.ts', workerd: './local/workerd.js', worker: './local/workerd.js',
    deno: './local/node.js', node: './local/node.js', browser: './local/browser.js', default: './local/index.js',
  });
  assert.deepEqual(manifest.exports['./service'], {
    types: './service/index.d.ts', workerd: './service/workerd.js', worker: './service/workerd.js',
    deno: './service/node.js', node: './service/node.js', browser: './service/browser.js', default: './service/index.js',
  });
  assert.deepEqual(manifest.exports['./rego'], {
    types: './rego/index.d.ts', workerd: './rego/workerd.js', worker: './rego/workerd.js',
    deno: './rego/node.js', node: './rego/node.js', browser: './rego/browser.js', default: './rego/index.js',
  });
  // (What the tarball holds, and that it is self-contained: tests/js/npm-pack.test.mjs.)
});

test('exports the request API and nothing of the wasm plumbing', () => {
  for (const name of ['generateNonce', 'buildAttestRequest', 'validateAttestRequest']) {
    assert.equal(typeof edgeattest[name], 'function', name);
  }
  assert.equal(edgeattest.initSync, undefined);
  assert.equal(edgeattest.default, undefined);
});

const read = (name) => readFileSync(new URL(`../../pkg/${name}`, import.meta.url), 'utf8');
const list = (text, pattern) => [...text.matchAll(pattern)].flatMap((m) => m[1].split(',')).map((n) => n.trim()).filter(Boolean);

for (const [entry, dir, api] of [['edgeattest', '', edgeattest], ['edgeattest/local', 'local/', local], ['edgeattest/service', 'service/', service]]) {
  test(`${entry} exports what its types declare, and every public wasm type of its module`, () => {
    const wasmTypes = read(`${dir}edgeattest.d.ts`);
    const values = list(read(`${dir}api.js`), /export \{([^}]*)\} from '\.\/edgeattest\.js'/g);
    const declaredValues = list(read(`${dir}api.d.ts`), /export \{([^}]*)\} from '\.\/edgeattest\.js'/g);
    const declaredTypes = list(read(`${dir}api.d.ts`), /export type \{([^}]*)\} from '\.\/edgeattest\.js'/g);
    assert.deepEqual(declaredValues, values);
    for (const name of values) {
      assert.equal(typeof api[name], 'function', name);
      assert.match(wasmTypes, new RegExp(`^export (function|class) ${name}\\b`, 'm'), name);
    }
    const publicTypes = [...wasmTypes.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]).filter((n) => !/^(Sync)?Init(Input|Output)$/.test(n));
    for (const name of publicTypes) assert.ok(declaredTypes.includes(name), `type ${name} is re-exported`);
  });
}

test('edgeattest ⊂ edgeattest/local ⊂ edgeattest/service: the same names, each from a smaller module', () => {
  for (const name of Object.keys(edgeattest)) {
    assert.equal(typeof local[name], typeof edgeattest[name], `${name} is also edgeattest/local's`);
  }
  for (const name of Object.keys(local)) {
    assert.equal(typeof service[name], typeof local[name], `${name} is also edgeattest/service's`);
  }
  for (const name of ['AttestationService', 'ServiceExchange', 'handleRequest', 'importSigningKey', 'createFetchCache', 'evaluateAccess', 'ApiGateway', 'createApiKey', 'ListTable', 'listSchemas', 'deprecationNotices', 'checkDeprecatedRequest']) {
    assert.equal(edgeattest[name], undefined, `${name} is not in edgeattest`);
    assert.equal(local[name], undefined, `${name} is not in edgeattest/local`);
    assert.equal(typeof service[name], 'function', `${name} is in edgeattest/service`);
  }
  for (const name of ['verifyEvidence', 'prepareEvidence', 'verifyRim', 'checkOcspResponses', 'fetchOcspStatus', 'runtimeEvidence', 'architectures']) {
    assert.equal(edgeattest[name], undefined, `${name} is not in edgeattest`);
    assert.equal(typeof local[name], 'function', `${name} is in edgeattest/local`);
  }
  for (const name of ['verifyAttestationResult', 'appraise', 'verifyEar', 'buildAttestRequest']) {
    assert.equal(typeof edgeattest[name], 'function', `${name} is in edgeattest`);
  }
  assert.doesNotMatch(read('edgeattest.d.ts'), /AttestationService|ListTable|ApiGateway|verifyEvidence|VerifiedRim/);
  assert.doesNotMatch(read('local/edgeattest.d.ts'), /AttestationService|ListTable|ApiGateway/);
  const bytes = (path) => readFileSync(new URL(`../../pkg/${path}`, import.meta.url)).length;
  assert.ok(bytes('edgeattest_bg.wasm') < bytes('local/edgeattest_bg.wasm'));
  assert.ok(bytes('local/edgeattest_bg.wasm') < bytes('service/edgeattest_bg.wasm'));
});

test('generateNonce: 64 lowercase hex characters from the host randomness', () => {
  const seen = new Set();
  for (let i = 0; i < 100; i++) {
    const nonce = generateNonce();
    assert.match(nonce, /^[0-9a-f]{64}$/);
    seen.add(nonce);
  }
  assert.equal(seen.size, 100);
});

test('a host without crypto.getRandomValues gets ERR_NO_RANDOMNESS, never a fixed or empty nonce', () => {
  // A fresh process: the host's randomness is looked up when first used.
  const script = `
    delete globalThis.crypto;
    const api = await import(process.argv[1]);
    for (const call of [() => api.generateNonce(), () => api.buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', evidence: [] })]) {
      try { console.log('returned', JSON.stringify(call())); } catch (error) { console.log(error.name, error.code); }
    }`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, new URL('../../pkg/node.js', import.meta.url).href], { encoding: 'utf8' });
  assert.deepEqual(out.trim().split('\n'), ['EdgeAttestError ERR_NO_RANDOMNESS', 'EdgeAttestError ERR_NO_RANDOMNESS']);
});

test('buildAttestRequest: V4 GPU body with the spec encodings', () => {
  const nonce = generateNonce();
  const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce, evidence: [hopper, hopper] });
  assert.deepEqual(Object.keys(body), ['nonce', 'arch', 'evidence_list']);
  assert.equal(body.nonce, nonce);
  assert.equal(body.evidence_list.length, 2);
  assert.equal(body.evidence_list[0].evidence, Buffer.from(hopper.evidence).toString('base64'));
  assert.equal(body.evidence_list[0].certificate, Buffer.from(hopper.certificate).toString('base64'));
  const summary = validateAttestRequest('/v4/attest/gpu', body);
  assert.equal(summary.claimsVersion, '3.0');
  assert.deepEqual(summary.devices.map((d) => d.label), ['GPU-0', 'GPU-1']);
  assert.equal(summary.devices[0].evidenceBytes, hopper.evidence.length);
});

test('buildAttestRequest: every endpoint, each encoding', () => {
  const cases = [
    ['/v1/attest/gpu', hopper, 'HOPPER'],
    ['/v2/attest/gpu', hopper, 'BLACKWELL'],
    ['/v3/attest/gpu', hopper, 'HOPPER'],
    ['/v4/attest/gpu', hopper, 'HOPPER'],
    ['/v2/attest/switch', ls10, undefined],
    ['/v3/attest/switch', ls10, undefined],
    ['/v4/attest/switch', ls10, 'LS10'],
  ];
  for (const [endpoint, sample, arch] of cases) {
    const body = buildAttestRequest({ endpoint, arch, evidence: [{ ...sample, evidence: Buffer.from(sample.evidence).toString('hex') }] });
    const summary = validateAttestRequest(endpoint, JSON.stringify(body));
    assert.equal(summary.endpoint, endpoint);
    assert.equal(summary.deprecated, endpoint.startsWith('/v2/'));
    if (endpoint.startsWith('/v1/')) {
      assert.equal(body.evidence, Buffer.from(Buffer.from(sample.evidence).toString('hex')).toString('base64'));
    } else if (endpoint.startsWith('/v2/')) {
      assert.equal(body.evidences[0].evidence, Buffer.from(Buffer.from(sample.evidence).toString('hex')).toString('base64'));
      assert.equal('arch' in body, endpoint === '/v2/attest/gpu');
    } else {
      assert.equal(body.evidence_list[0].evidence, Buffer.from(sample.evidence).toString('base64'));
    }
  }
});

test('validateAttestRequest accepts a recorded real request as text, bytes and object', () => {
  const bytes = fixtureBytes('nras/teep/v3_8gpu_success_20260629_request.json');
  for (const body of [bytes.toString('utf8'), new Uint8Array(bytes), JSON.parse(bytes)]) {
    const summary = validateAttestRequest('/v3/attest/gpu', body);
    assert.equal(summary.devices.length, 8);
    assert.equal(summary.claimsVersion, '2.0');
  }
});

test('every validation error has its code and field', () => {
  const good = buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', evidence: [hopper] });
  const with_ = (patch) => ({ ...structuredClone(good), ...patch });
  const item = good.evidence_list[0];
  rejects(() => validateAttestRequest('/v4/attest/gpu', with_({ nonce: 'ab' })), 'ERR_REQUEST_INVALID_NONCE', 'nonce');
  rejects(() => validateAttestRequest('/v4/attest/gpu', with_({ arch: 'LS10' })), 'ERR_REQUEST_INVALID_ARCH', 'arch');
  rejects(() => validateAttestRequest('/v4/attest/gpu', with_({ claims_version: '5.0' })), 'ERR_REQUEST_INVALID_CLAIMS_VERSION', 'claims_version');
  rejects(() => validateAttestRequest('/v4/attest/gpu', with_({ evidence_list: [] })), 'ERR_REQUEST_EMPTY_EVIDENCE_LIST', 'evidence_list');
  rejects(() => validateAttestRequest('/v4/attest/gpu', with_({ evidence_list: [{ ...item, evidence: '%%' }] })), 'ERR_REQUEST_INVALID_BASE64', 'evidence_list[0].evidence');
  rejects(() => validateAttestRequest('/v4/attest/gpu', with_({ evidence_list: [{ ...item, firmware_version: 'v1' }] })), 'ERR_REQUEST_INVALID_FIRMWARE_VERSION', 'evidence_list[0].firmware_version');
  rejects(() => validateAttestRequest('/v4/attest/gpu', with_({ evidences: [] })), 'ERR_REQUEST_UNEXPECTED_FIELD', 'evidences');
  rejects(() => validateAttestRequest('/v4/attest/gpu', '{"nonce":1,"nonce":2}'), 'ERR_REQUEST_DUPLICATE_MEMBER', 'nonce');
  rejects(() => validateAttestRequest('/v4/attest/gpu', '{'), 'ERR_REQUEST_MALFORMED_JSON');
  rejects(() => validateAttestRequest('/v4/attest/gpu', ''), 'ERR_REQUEST_EMPTY');
  rejects(() => validateAttestRequest('/v4/attest/gpu', ' '.repeat(2 * 1024 * 1024 + 1)), 'ERR_REQUEST_TOO_LARGE');
  rejects(() => validateAttestRequest('/v5/attest/gpu', good), 'ERR_REQUEST_UNKNOWN_ENDPOINT');
  rejects(() => buildAttestRequest({ endpoint: '/v4/attest/gpu', evidence: [hopper] }), 'ERR_REQUEST_MISSING_FIELD', 'arch');
  rejects(() => buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'HOPPER', evidence: [] }), 'ERR_REQUEST_EMPTY_EVIDENCE_LIST');
  rejects(() => buildAttestRequest({ endpoint: '/v4/attest/switch', claimsVersion: '4.0', evidence: [ls10] }), 'ERR_REQUEST_INVALID_CLAIMS_VERSION');
});

test('hostile arguments throw coded errors and the module keeps working', () => {
  const hostile = [undefined, null, 0, 'x', [], {}, { endpoint: {} }, { endpoint: '/v4/attest/gpu', evidence: 'x' },
    { endpoint: '/v4/attest/gpu', arch: 'HOPPER', evidence: [{ evidence: 12, certificate: 'x' }] },
    { endpoint: '/v4/attest/gpu', arch: 'HOPPER', evidence: [{ evidence: new Uint8Array(70_000), certificate: hopper.certificate }] },
    { endpoint: '/v4/attest/gpu', arch: 'HOPPER', nonce: '\u{1F600}'.repeat(16), evidence: [hopper] }];
  for (const options of hostile) {
    assert.throws(() => buildAttestRequest(options), (error) => error.name === 'EdgeAttestError' && /^ERR_/.test(error.code));
  }
  for (const body of [undefined, null, 7, true, Symbol.iterator === undefined ? 0 : 1.5]) {
    assert.throws(() => validateAttestRequest('/v4/attest/gpu', body), (error) => /^ERR_/.test(error.code));
  }
  assert.throws(() => validateAttestRequest(undefined, '{}'));
  assert.match(generateNonce(), /^[0-9a-f]{64}$/);
});
