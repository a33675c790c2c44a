// List benchmark in Node: edgeattest's ListTable against idiomatic JS and sql.js, same rows,
// same query, same run (see listing-core.mjs).
//
//   node tests/bench/listing.mjs [size ...]          default sizes: 100000 1000000
//   EDGEATTEST_PKG=/path/to/pkg/service node tests/bench/listing.mjs
//
// Needs the built package (bash pkg-config/build.sh → pkg/) and `npm ci` (sql.js).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve, dirname } from 'node:path';
import { benchLines, run } from './listing-core.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(process.env.EDGEATTEST_PKG ?? resolve(here, '../../pkg/service'));
const lib = await import(pathToFileURL(resolve(pkg, 'edgeattest.js')).href);
lib.initSync({ module: readFileSync(resolve(pkg, 'edgeattest_bg.wasm')) });

const require = createRequire(import.meta.url);
const initSqlJs = require('sql.js');
const SQL = await initSqlJs();

const args = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
const sizes = args.length ? args : [100_000, 1_000_000];
const sqlVersion = JSON.parse(
  readFileSync(resolve(dirname(require.resolve('sql.js')), '../package.json'), 'utf8'),
).version;
console.log(`Node ${process.version}, sql.js ${sqlVersion}`);
const results = run({ lib, SQL, sizes, log: (line) => console.log(line) });
for (const line of benchLines('node', results)) console.log(line);
if (process.env.BENCH_JSON) console.log(JSON.stringify({ host: `node ${process.version}`, results }));
