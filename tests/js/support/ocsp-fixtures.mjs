// The static OCSP responses of tests/fixtures/generated/ocsp/responses (made offline by
// `openssl ocsp` and Python `cryptography` for requests our code built) and the test PKI's
// files, as the JS tests read them.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

const pki = new URL('../../fixtures/generated/ocsp/', import.meta.url);
export const text = (file) => readFileSync(new URL(file, pki), 'utf8');
export const bytes = (file) => new Uint8Array(readFileSync(new URL(file, pki)));
export const manifest = JSON.parse(text('responses/manifest.json'));
/** The fixed nonce of a named request (tests/common/ocsp_fixtures.rs `nonce`). */
export const nonce = (name) => new Uint8Array(createHash('sha256').update(`edgeattest ocsp fixture ${name}`).digest());
/** The answer of a response file, with the nonce of the request it answers. */
export const answer = (file) => ({ body: bytes(`responses/${file}`), nonce: nonce(manifest[file].request) });
