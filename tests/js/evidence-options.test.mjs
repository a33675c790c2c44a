// The cases of tests/it/evidence/options_cases.json through the wasm exports: the native suite
// (tests/it/evidence/options.rs) runs the same options through the core's EvidenceOptions from
// JSON, so the JS path and the Rust path must give each case the same outcome.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import '../../pkg/local/index.js'; // instantiates the wasm module
import {
  evidenceReport, prepareEvidenceReport, verifyEvidence, prepareEvidence, verifyCertificateChain, runtimeEvidence,
} from '../../pkg/local/edgeattest.js';

const repo = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const samples = JSON.parse(repo('www/samples/evidence.json')).samples;
const { cases } = JSON.parse(repo('tests/it/evidence/options_cases.json'));

function resolve(value) {
  if (typeof value === 'string') {
    if (value.startsWith('@hex:')) return repo(`tests/fixtures/${value.slice(5)}`).trim();
    if (value.startsWith('@text:')) return repo(`tests/fixtures/${value.slice(6)}`);
    if (value.startsWith('@sample:')) {
      const name = value.slice(8);
      const dot = name.lastIndexOf('.');
      return samples.find((s) => s.id === name.slice(0, dot))[name.slice(dot + 1)];
    }
    return value;
  }
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  return value;
}

const ENTRIES = {
  evidenceReport: (o) => {
    const report = evidenceReport(o);
    return { verdict: report.verdict, failure: report.failure?.code ?? null, revocation: report.revocation };
  },
  verifyEvidence: (o) => {
    const report = verifyEvidence(o);
    return { arch: report.arch, fwid: report.fwid, driverVersion: report.driverVersion };
  },
  prepareEvidence: (o) => {
    const batch = prepareEvidence(o);
    try {
      return { devices: batch.verify().map((r) => (r.ok ? 'ok' : r.error.code)) };
    } finally {
      batch.free();
    }
  },
  verifyCertificateChain: (o) => {
    const chain = verifyCertificateChain(o);
    return { status: chain.status, subjects: chain.subjects.length };
  },
  runtimeEvidence: (o) => {
    const values = runtimeEvidence(o);
    return { vbiosVersion: values.vbiosVersion, measurements: Object.keys(values.measurements).length };
  },
};

function outcome(entry, options) {
  try {
    return ENTRIES[entry](options);
  } catch (error) {
    assert.equal(error.name, 'EdgeAttestError', String(error));
    return { error: error.code, field: error.field ?? null };
  }
}

test('every case of the shared table gives the outcome the core gives from JSON', () => {
  assert.ok(cases.length >= 20);
  for (const { name, entry, options, outcome: want } of cases) {
    const got = outcome(entry, resolve(options));
    if (want.error === '@any') {
      assert.match(got.error ?? '', /^ERR_/, name);
      assert.deepEqual(got, { ...want, error: got.error }, name);
    } else {
      assert.deepEqual(got, want, name);
    }
  }
});

test('the same options as bytes and a Date give the same outcome as hex text and seconds', () => {
  const hopper = cases.find((c) => c.name === 'Hopper 550.90.07 verifies');
  const options = resolve(hopper.options);
  const asBytes = {
    ...options,
    evidence: Uint8Array.from(Buffer.from(options.evidence, 'hex')),
    nonce: Uint8Array.from(Buffer.from(options.nonce, 'hex')),
    now: new Date(options.now * 1000 + 999),
  };
  assert.deepEqual(verifyEvidence(asBytes), verifyEvidence(options));
  // An array of numbers is bytes too; an element that is no byte names the member.
  assert.deepEqual(verifyEvidence({ ...options, nonce: [...asBytes.nonce] }), verifyEvidence(options));
  assert.throws(() => verifyEvidence({ ...options, evidence: [1, 'x'] }),
    { code: 'ERR_INVALID_ARGUMENT', field: 'evidence', message: 'evidence must be an array of bytes (0 to 255)' });
  assert.throws(() => verifyEvidence({ ...options, now: 1.5 }), { code: 'ERR_INVALID_ARGUMENT', field: 'now' });
});

test('a report plan completed by WebCrypto-style verdicts equals the software report of the same options', () => {
  const ls10 = cases.find((c) => c.entry === 'evidenceReport' && c.outcome.verdict === 'passed');
  const options = resolve(ls10.options);
  const plan = prepareEvidenceReport(options);
  const forged = plan.finish(plan.signatureChecks().map(() => false));
  assert.equal(forged.verdict, 'failed');
  assert.equal(evidenceReport(options).verdict, 'passed');
});
