// Makes wasm-bindgen's generated declarations (pkg/edgeattest.d.ts) compile under
// TypeScript's default libraries: the generated classes declare `[Symbol.dispose](): void`,
// which needs the esnext.disposable library, so a user's `tsc --strict` without
// `lib: ["esnext"]` fails inside the package. The member is dropped from the types only; at
// run time it is still set where the host has Symbol.dispose (`free()` is the documented way).
// The hand-declared classes (src/wasm/token.rs) already omit it. wasm-bindgen's `free()`
// comes without a doc comment: one without gets the one the API reference shows for it.
//
//   node pkg-config/portable-types.mjs pkg/edgeattest.d.ts     (run by pkg-config/build.sh)
import { readFileSync, writeFileSync } from 'node:fs';

const path = process.argv[2];
if (!path) throw new Error('usage: node pkg-config/portable-types.mjs <edgeattest.d.ts>');
const types = readFileSync(path, 'utf8');
const portable = types
  .replace(/^ +\[Symbol\.dispose\]\(\): void;\n/gm, '')
  .replace(/(?<!\*\/\n)^( +)free\(\): void;\n/gm, (line, indent) => (
    `${indent}/**\n${indent} * Releases the object's wasm memory now; the object is unusable after. Without it the\n` +
    `${indent} * memory is released when the object is garbage-collected (where the host has\n` +
    `${indent} * FinalizationRegistry).\n${indent} */\n${line}`));
if (/^[^/]*\[Symbol\.dispose\]/m.test(portable)) throw new Error(`portable-types: an unexpected Symbol.dispose form is left in ${path}`);
writeFileSync(path, portable);
