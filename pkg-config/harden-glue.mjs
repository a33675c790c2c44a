// Gives the three refusals that wasm-bindgen's generated glue (pkg/edgeattest.js) makes on
// its own, before any of our Rust code runs, a stable code like every other error of the
// package (issue 11; tests/js/hardening_boundary.test.mjs):
//
//   1. a class-typed parameter given anything but a live instance of that class:
//      `_assertClass` throws a plain Error; a freed instance passes it and reaches Rust as a
//      null pointer. Now ERR_INVALID_ARGUMENT with `field` = the parameter's name.
//   2. `new` on a class that has no Rust constructor (P384PrivateKey, VerifiedRim, ...):
//      in a release build it yields an empty object whose methods all fail. Now the
//      constructor throws ERR_INVALID_ARGUMENT, as wasm-bindgen's own --debug glue does
//      (without a code); instances still come from the factories through `__wrap`.
//   3. the runtime's own refusals (`throw_str`: a null pointer from a freed or empty
//      instance, a borrowed or moved object): now ERR_INVALID_ARGUMENT. The crate's code
//      never calls `throw_str`; its errors are built in src/wasm/error.rs.
//   4. any call before the module is loaded (the browser entry loads it in `init()`, not at
//      import): a TypeError on `undefined`. Now ERR_NOT_INITIALIZED: until then `wasm` is a
//      stand-in whose every member access throws it.
//
// Rust cannot do this itself: a `&JsValue` parameter cannot be borrowed as an exported class
// without reading the raw pointer, and a Rust constructor would make the TypeScript
// constructor public. The glue comes from the pinned wasm-bindgen (Cargo.toml); each edit
// must match the expected number of times, so a changed glue fails the build rather than
// going out unpatched.
//
//   node pkg-config/harden-glue.mjs pkg/edgeattest.js      (run by pkg-config/build.sh for
//                                                           every module: pkg/, pkg/local/, ...)
import { readFileSync, writeFileSync } from 'node:fs';

const path = process.argv[2];
if (!path) throw new Error('usage: node pkg-config/harden-glue.mjs <edgeattest.js>');
let glue = readFileSync(path, 'utf8');
const MARK = '// edgeattest: coded glue errors (pkg-config/harden-glue.mjs)';
if (glue.includes(MARK)) process.exit(0); // already patched

function replace(pattern, replacement, { min = 1, max = 1 } = {}) {
  const count = [...glue.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))].length;
  if (count < min || count > max) {
    throw new Error(`harden-glue: ${pattern} matched ${count} times, expected ${min}..${max}`);
  }
  glue = glue.replace(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`), replacement);
  return count;
}

// The helper: an Error shaped like those of src/wasm/error.rs.
const HELPER = `${MARK}
function _edgeattestError(message, field) {
    const error = new Error(message);
    error.name = 'EdgeAttestError';
    error.code = 'ERR_INVALID_ARGUMENT';
    if (field !== undefined) error.field = field;
    return error;
}
`;

// 1. `_assertClass(x, K)` call sites pass the parameter's name; the check also refuses a
// freed (or never constructed) instance, whose pointer is 0 or absent.
// (A module without class-typed parameters has no `_assertClass`; the helper is still added.)
const classParameters = replace(/_assertClass\((\w+), (\w+)\);/, "_assertClass($1, $2, '$1');", { min: 0, max: 1000 });
if (classParameters === 0) glue += `\n${HELPER}`;
else replace(
  /function _assertClass\(instance, klass\) \{\n\s*if \(!\(instance instanceof klass\)\) \{\n\s*throw new Error\(`expected instance of \$\{klass\.name\}`\);\n\s*\}\n\}\n/,
  `function _assertClass(instance, klass, field) {
    if (!(instance instanceof klass)) {
        throw _edgeattestError(\`\${field} must be a \${klass.name}\`, field);
    }
    if (!instance.__wbg_ptr) {
        throw _edgeattestError(\`\${field} must be a live \${klass.name} (this one was freed or never created)\`, field);
    }
}
${HELPER}`,
);

// 2. Classes without a constructor get one that refuses.
let classes = 0;
glue = glue.replace(/^export class (\w+) \{\n([\s\S]*?)^\}\n/gm, (whole, name, body) => {
  if (/^ {4}constructor\(/m.test(body)) return whole;
  classes += 1;
  const factories = [...body.matchAll(/^ {4}static (\w+)\(/gm)].map((m) => m[1]).filter((f) => !f.startsWith('__'));
  const hint = factories.length
    ? `use ${factories.map((f) => `${name}.${f}()`).join(' or ')}`
    : 'instances come from the functions that return one';
  return `export class ${name} {
    constructor() {
        throw _edgeattestError('${name} has no constructor: ${hint}');
    }
${body}}
`;
});
// Every module has such a class (the Rego module's RegoPolicy comes from prepareRegoPolicy).
if (classes === 0) throw new Error('harden-glue: no class without a constructor found');

// 3. The runtime's refusals.
replace(
  /(__wbg___wbindgen_throw_\w+: function\(arg0, arg1\) \{\n\s*)throw new Error\(getStringFromWasm0\(arg0, arg1\)\);/,
  '$1throw _edgeattestError(getStringFromWasm0(arg0, arg1));',
);

// 4. Calls before init(): the glue's `wasm` starts as a throwing stand-in instead of
// `undefined`, and its "already loaded" checks compare with the stand-in.
replace(
  /^let wasmModule, wasmInstance, wasm;$/m,
  `const _edgeattestNotLoaded = new Proxy({}, {
    get() {
        const error = _edgeattestError('edgeattest is not initialised: call \`await init()\` (exported by the package) once before any other function; the browser entry does not load its wasm module at import');
        error.code = 'ERR_NOT_INITIALIZED';
        throw error;
    },
});
let wasmModule, wasmInstance, wasm = _edgeattestNotLoaded;`,
);
replace(/if \(wasm !== undefined\) return wasm;/, 'if (wasm !== _edgeattestNotLoaded) return wasm;', { min: 2, max: 2 });

// 5. Speed, not errors: a long string (a PEM chain, evidence text, a RIM document) is copied
// into wasm memory by one TextEncoder.encodeInto instead of the glue's loop of one
// charCodeAt and one store per character (about a third of a string's crossing). Only a
// string that is all ASCII is taken this way (`read` is the whole string only when every
// character took one byte); any other, every short one, and all of them where encodeInto is
// the glue's polyfill (which cannot stop at the end of a view), go on through the glue's own
// code from offset 0, so the bytes written are the same.
replace(
  /(function passStringToWasm0\(arg, malloc, realloc\) \{[\s\S]*?const mem = getUint8ArrayMemory0\(\);\n\n\s*let offset = 0;\n)/,
  `$1
    if (len > 64 && cachedTextEncoder.encodeInto === TextEncoder.prototype.encodeInto && cachedTextEncoder.encodeInto(arg, mem.subarray(ptr, ptr + len)).read === len) offset = len;
`,
);

writeFileSync(path, glue);
