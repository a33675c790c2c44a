// Two builds of the list engine in one Node process, alternating: the package at
// EDGEATTEST_PKG (default pkg/service/) against the one at EDGEATTEST_PKG_BASE (a copy of an earlier
// build), on the same rows and queries. This is how a change to the engine shows its cost
// beside the code it replaces, in the same run. Without a base it compares the package with
// a second instance of itself: the noise floor of the machine.
//
//   cp -r pkg/service /tmp/pkg-base   # before the change; then rebuild
//   EDGEATTEST_PKG_BASE=/tmp/pkg-base node tests/bench/listing-ab.mjs [size ...]   # default 100000
import { readFileSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PATH, QUERY } from './listing-core.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const load = async (dir, tag) => {
  // A query string makes a second, separate module instance of the same files.
  const lib = await import(`${pathToFileURL(resolve(dir, 'edgeattest.js')).href}?${tag}`);
  lib.initSync({ module: readFileSync(resolve(dir, 'edgeattest_bg.wasm')) });
  return lib;
};
const ours = await load(process.env.EDGEATTEST_PKG ?? resolve(here, '../../pkg/service'), 'ours');
const baseDir = process.env.EDGEATTEST_PKG_BASE ?? process.env.EDGEATTEST_PKG ?? resolve(here, '../../pkg/service');
const base = await load(baseDir, 'base');
const label = process.env.EDGEATTEST_PKG_BASE ? 'vs-base' : 'vs-itself';

// Queries: the benchmark's (filters, two keys, page 3), a deep page of one key, no sorting.
const QUERIES = {
  bench: QUERY,
  deep: 'sorting=percentage%5Bdesc%5D&page_number=40&rpp=1000',
  plain: 'filter=severity%5Beq%5Dmajor&page_number=2',
};

function alternate(a, b, rounds) {
  const ta = [];
  const tb = [];
  for (let i = 0; i < rounds; i++) {
    for (const [fn, times] of [[a, ta], [b, tb]]) {
      const t = performance.now();
      fn();
      times.push(performance.now() - t);
    }
  }
  const median = (l) => l.sort((x, y) => x - y)[Math.floor(l.length / 2)];
  return [median(ta), median(tb)];
}

const args = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
for (const n of args.length ? args : [100_000]) {
  const text = JSON.stringify(ours.generateDataset(PATH, n, 1));
  const bytes = new TextEncoder().encode(text);
  const [loadOurs, loadBase] = alternate(
    () => ours.ListTable.fromJson(PATH, bytes).free(),
    () => base.ListTable.fromJson(PATH, bytes).free(),
    n > 200_000 ? 3 : 7,
  );
  console.log(`${n} alerts: load ms ${loadOurs.toFixed(1)} vs base ${loadBase.toFixed(1)}`);
  console.log(`BENCH listing.ab.${n / 1000}k.load-${label} ${loadOurs.toFixed(1)}ms ${loadBase.toFixed(1)}ms ${(loadOurs / loadBase).toFixed(4)}`);
  const a = ours.ListTable.fromJson(PATH, bytes);
  const b = base.ListTable.fromJson(PATH, bytes);
  for (const [name, query] of Object.entries(QUERIES)) {
    if (a.queryJson(query) !== b.queryJson(query)) throw new Error(`${name}: the builds disagree`);
    const [qa, qb] = alternate(() => a.queryJson(query), () => b.queryJson(query), 41);
    console.log(`  query ${name}: ms ${qa.toFixed(3)} vs base ${qb.toFixed(3)}`);
    console.log(`BENCH listing.ab.${n / 1000}k.query-${name}-${label} ${qa.toFixed(3)}ms ${qb.toFixed(3)}ms ${(qa / qb).toFixed(4)}`);
  }
  a.free();
  b.free();
}
