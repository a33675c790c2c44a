// The published declarations of each entry (pkg/*/index.d.ts: the entries' re-export lists,
// the wasm glue's types and what tsc generated from the JS modules' JSDoc) against the
// entry's module: every value the types declare is exported, a function or class as a
// function; every value exported is declared; and no exported value is typed `any` anywhere in
// its signature, the mark of a JS function without JSDoc types.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { declaredNames, ENTRIES } from '../../pkg-config/declared-names.mjs';

const PKG = fileURLToPath(new URL('../../pkg/', import.meta.url));
const declared = declaredNames(PKG);
const VALUE_KINDS = ['function', 'class', 'const', 'enum'];

test('the declarations list every entry and the API they are known for', () => {
  assert.deepEqual([...new Set(declared.map((d) => d.entry))], ENTRIES.map(([entry]) => entry));
  const kinds = (entry, name) => declared.find((d) => d.entry === entry && d.name === name)?.kinds.join('+');
  assert.equal(kinds('edgeattest', 'verifyAttestationResult'), 'function');
  assert.equal(kinds('edgeattest', 'EdgeAttestError'), 'class');
  assert.equal(kinds('edgeattest', 'VerifyTokenOptions'), 'type');
  assert.equal(kinds('edgeattest/local', 'NVIDIA_OCSP_URL'), 'const');
  assert.equal(kinds('edgeattest/service', 'handleRequest'), 'function');
  assert.equal(kinds('edgeattest/service', 'FetchCache'), 'type');
  assert.equal(kinds('edgeattest', 'handleRequest'), undefined);
});

for (const [entry, dir] of ENTRIES) {
  test(`${entry}: the values its types declare are the values its module exports`, async () => {
    const module = await import(new URL(`${dir ? `${dir}/` : ''}node.js`, new URL(`file://${PKG}`)).href);
    const values = declared.filter((d) => d.entry === entry && d.kinds.some((kind) => VALUE_KINDS.includes(kind)));
    assert.ok(values.length > 1, `${entry} declares values`);
    for (const { name, kinds } of values) {
      assert.ok(name in module, `${entry} declares ${name} (${kinds}), which its module does not export`);
      if (kinds.includes('function') || kinds.includes('class')) assert.equal(typeof module[name], 'function', `${entry}: ${name}`);
      else assert.notEqual(typeof module[name], 'function', `${entry}: ${name} is declared ${kinds}`);
    }
    const undeclared = Object.keys(module).filter((name) => !values.some((value) => value.name === name));
    assert.deepEqual(undeclared, [], `${entry} exports values its types do not declare`);
    const untyped = values.filter(({ shape }) => /\bany\b/.test(shape())).map(({ name, shape }) => `${name}: ${shape()}`);
    assert.deepEqual(untyped, [], `${entry} declares values typed any`);
  });
}
