// One cold start, run by cold-start.mjs in a fresh process (Node or Deno): import the
// library, read the recorded JWKS, verify the recorded NRAS token at its recorded time, and
// print one JSON line of timings: ms since the process started (performance.timeOrigin), and
// the CPU time the process has used by then (every thread: compilation and GC included).
// It does nothing else, so that the process measures what a user's first verification pays.
//
//   node tests/bench/cold-start-child.mjs edgeattest|local|jose|before|before-local RESPONSE_FILE JWKS_FILE NOW
//
// RESPONSE_FILE: a recorded NRAS detached-EAT result; its overall token is the one verified.
import { readFileSync } from 'node:fs';

const beforeImport = performance.now();
const [which, responseFile, jwksFile, nowText] = globalThis.Deno?.args ?? process.argv.slice(2);
const now = Number(nowText);
const token = JSON.parse(readFileSync(responseFile, 'utf8'))[0][1];

let verify;
if (which === 'jose') {
  const { jwtVerify, createLocalJWKSet } = await import('jose');
  verify = async (jwks) => {
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { algorithms: ['ES384'], currentDate: new Date(now * 1000) });
    return payload;
  };
} else {
  // The entry the `node`/`deno` export condition picks, for the default entry or edgeattest/local;
  // `before`: another build's pkg/ (EDGEATTEST_BEFORE_PKG, a file: URL), to measure a change.
  const root = which.startsWith('before') ? process.env.EDGEATTEST_BEFORE_PKG : new URL('../../pkg/', import.meta.url).href;
  const entry = new URL(which.endsWith('local') ? 'local/node.js' : 'node.js', root.endsWith('/') ? root : `${root}/`);
  const { verifyJwt } = await import(entry);
  verify = async (jwks) => (await verifyJwt(token, jwks, { now })).payload;
}
const imported = performance.now();
const jwks = JSON.parse(readFileSync(jwksFile, 'utf8'));
const payload = await verify(jwks);
const verified = performance.now();
const { user, system } = process.cpuUsage(); // every thread's, since the process started (µs)
if (payload?.iat === undefined || payload['x-nvidia-overall-att-result'] !== true) {
  throw new Error(`${which}: the verified payload is not the recorded one`);
}
console.log(JSON.stringify({ which, beforeImport, imported, verified, cpu: (user + system) / 1000 }));
