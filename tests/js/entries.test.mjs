// The entry table of src/wasm.rs (which binding module, and so which export, is in which npm
// entry) against the built package: each entry's wasm module exports the functions and classes
// of the modules its rows name, and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');

/** The table's rows: module name → the entries it is in (and the JS modules that wrap it). */
function table() {
  const source = read('src/wasm.rs');
  const body = source.slice(source.indexOf('\nentries! {'));
  const rows = new Map();
  for (const [, name, entries, js] of body.matchAll(/^\s+(?:pub )?mod (\w+): ([\w ]+?)(?: => ([\w ]+))?;$/gm)) {
    rows.set(name, Object.assign(entries.split(' '), { js: js ? js.split(' ') : [] }));
  }
  return rows;
}

/** The Rust files of binding module `name`: src/wasm/name.rs and its own directory. */
function files(name) {
  const out = [`src/wasm/${name}.rs`];
  const walk = (dir) => {
    if (!existsSync(new URL(dir, root))) return;
    for (const entry of readdirSync(new URL(dir, root), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(`${dir}${entry.name}/`);
      else if (entry.name.endsWith('.rs')) out.push(`${dir}${entry.name}`);
    }
  };
  walk(`src/wasm/${name}/`);
  return out;
}

/** The JS names of a file's exported functions and classes (items at the top level). */
function exports(text) {
  const names = [];
  for (const [, attribute, name] of text.matchAll(/^#\[wasm_bindgen(\((?:[^()"]|"[^"]*")*\))?\]\s*(?:#\[(?:[^\]"]|"[^"]*")*\]\s*)*pub (?:fn|struct) (\w+)/gm)) {
    names.push(attribute?.match(/js_name = (\w+)/)?.[1] ?? name);
  }
  return names;
}

const built = (dir) => {
  const types = readFileSync(new URL(`../../pkg/${dir}edgeattest.d.ts`, import.meta.url), 'utf8');
  return [...types.matchAll(/^export (?:function|class) (\w+)/gm)].map((m) => m[1])
    .filter((name) => name !== 'initSync').sort();
};

test('every module of src/wasm/ has one row of the entry table, naming known entries', () => {
  const rows = table();
  const modules = readdirSync(new URL('src/wasm/', root)).filter((f) => f.endsWith('.rs')).map((f) => f.slice(0, -3));
  assert.deepEqual([...rows.keys()].sort(), modules.sort());
  for (const [name, entries] of rows) {
    for (const entry of entries) assert.ok(['default', 'local', 'service', 'rego'].includes(entry), `${name}: ${entry}`);
  }
});

for (const [entry, dir] of [['default', ''], ['local', 'local/'], ['service', 'service/'], ['rego', 'rego/']]) {
  test(`the ${entry} entry's wasm module exports what the table's rows put in it`, () => {
    const expected = [];
    for (const [name, entries] of table()) {
      if (entries.includes(entry)) for (const file of files(name)) expected.push(...exports(read(file)));
    }
    assert.ok(expected.length > 0);
    assert.deepEqual(built(dir), expected.sort());
  });
}

test('the JS modules the table names are where their binding module is, and only there', () => {
  const named = [...table()].flatMap(([, entries]) => entries.js.map((stem) => [stem, entries]));
  assert.ok(named.length > 0);
  for (const [stem, entries] of named) {
    assert.ok(existsSync(new URL(`src/js/${stem}.js`, root)), stem);
    for (const [entry, dir] of [['default', ''], ['local', 'local/'], ['service', 'service/'], ['rego', 'rego/']]) {
      const held = existsSync(new URL(`../../pkg/${dir}${stem}.js`, import.meta.url));
      assert.equal(held, entries.includes(entry), `${stem}.js in the ${entry} entry`);
    }
  }
});
