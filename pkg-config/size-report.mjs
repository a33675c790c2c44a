// Size report of the release wasm modules: raw and gzip -9 bytes against their budgets, each
// the module's size when last lowered plus 3 % (issue 19), so that growth is a decision.
//
// Default module (`edgeattest`, Cargo feature `js-verifier`): nonces, attest requests, tokens
// and key sets, evidence, certificate chains, RIMs, OCSP and runtime values — what a relying
// party and a verification page load. Issue 19 made it its own module: the attestation
// service, access control, lists and deprecations moved to `edgeattest/service`.
//
// Service module (`edgeattest/service`, every binding): the default module's API plus the
// service and the conventions — what the edge worker and the project's page load. It is the
// module that was the whole package until issue 19 (723,727 bytes then, opt-level 3).
//
// Client module (`edgeattest/client`, no binding feature): nonces, attest requests, tokens
// and key sets only — what a caller of an attestation service loads in a browser.
//
// All three are built at opt-level "z" with the P-384, SHA-2 and HMAC crates at 3
// (Cargo.toml [profile.release]); "z" for those too would make a software evidence
// verification about 1.5x slower. Our own crate at 3 instead of "z" would add 60,673 bytes
// to the default module (452,308) for about 8% less CPU on a WebCrypto evidence batch
// (tests/bench/evidence.mjs, same run); that trade is open in issue 19. History of the
// budgets: CHANGELOG.md and the issues' notes.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

// Measured after issue 19's first part (session 8): 391,635 / 546,553 / 191,285 bytes.
const MODULES = [
  ['edgeattest_bg.wasm', 403_400],
  ['service/edgeattest_bg.wasm', 563_000],
  ['client/edgeattest_bg.wasm', 197_100],
];

let over = false;
for (const [file, budget] of MODULES) {
  const wasm = readFileSync(new URL(`../pkg/${file}`, import.meta.url));
  const gzipped = gzipSync(wasm, { level: 9 }).length;
  const share = ((100 * gzipped) / budget).toFixed(1);
  console.log(`${file}: ${wasm.length} bytes raw, ${gzipped} bytes gzip -9 (${share}% of the ${budget}-byte budget)`);
  if (gzipped > budget) {
    console.error(`${file} is over budget by ${gzipped - budget} bytes`);
    over = true;
  }
}
if (over) process.exit(1);
