// The verifier component's two-phase token verification (`token-verification`) against the
// JS TokenVerification on the recorded NRAS results: the same signature checks; the host's
// verdicts give the same result (a refused verdict the `refused` case), forged verdicts the
// same rejection with every token's verdict; the software backend; use once; phase one's
// refusals coded.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { verifyChecksSoftware } from '../../pkg/index.js';
import { capture } from './support/fixtures.mjs';
import {
  caught, codedError, loadComponent, sameError, sameRefusal, sameVerdicts, utf8, witVerifyOptions,
} from './support/component.mjs';

const CAPTURES = ['v3_1gpu_success_20260629', 'v3_8gpu_success_20260629', 'v3_8gpu_nonce_mismatch_20260520'];
const witOptions = witVerifyOptions;

let wit;
before(async () => {
  wit = await loadComponent();
});

test('token-verification agrees with the JS TokenVerification: the same checks; host verdicts, forged ones, software; use once', async () => {
  const { KeySet, prepareAttestationResultVerification, prepareJwtVerification } = await import('../../pkg/edgeattest.js');
  const plain = (checks) => checks.map((c) => ({ publicKey: [...c.publicKey], message: [...c.message], signature: [...c.signature] }));
  /** A WIT `verified-token` as the JS `finish` answer. */
  const tokenToJs = (v) => (v.tag === 'jwt'
    ? { payload: JSON.parse(v.val.claims), protectedHeader: JSON.parse(v.val.header), kid: v.val.kid ?? null, signer: JSON.parse(v.val.signer) }
    : JSON.parse(v.val.data()));
  let refused = 0;
  for (const name of CAPTURES) {
    const c = capture(name);
    const options = { nonce: c.nonce, now: c.iat, issuer: 'https://nras.attestation.nvidia.com' };
    const keys = new KeySet(c.jwks);
    const jwks = utf8(JSON.stringify(c.jwks));
    const cases = [
      [`${name} result`, () => prepareAttestationResultVerification(c.response, keys, options),
        () => wit.token.prepareAttestationResultVerification(utf8(JSON.stringify(c.response)), jwks, witOptions(options))],
      [`${name} overall JWT`, () => prepareJwtVerification(c.response[0][1], keys, options),
        () => wit.token.prepareJwtVerification(c.response[0][1], jwks, witOptions(options))],
    ];
    for (const [label, jsPrepare, witPrepare] of cases) {
      const js = jsPrepare();
      const component = witPrepare();
      const checks = component.checks();
      assert.deepEqual(plain(checks), plain(js.checks()), label);
      const host = [...verifyChecksSoftware(checks)].map(Boolean);
      assert.ok(host.every(Boolean), label);
      const jsDone = caught(() => js.finish(host));
      const done = caught(() => component.finish(host));
      if (jsDone.err?.code === 'ERR_ATTESTATION_FAILED') {
        // Authentic but failed: the refused case with the JS error's level, appraisal and result, never a value.
        sameRefusal(jsDone.err, done, label);
        assert.equal(done.err.val.level, 'failed', label);
        refused++;
      } else {
        assert.ok(jsDone.ok, `${label}: ${jsDone.err?.code}`);
        assert.deepEqual(tokenToJs(done.ok), jsDone.ok, label);
      }
      codedError(() => component.finish(host), 'ERR_BATCH_CONSUMED', `${label} second finish`);
      codedError(() => component.checks(), 'ERR_BATCH_CONSUMED', `${label} checks after finish`);
      // A forged verdict: the same coded failure as JS.
      const forged = host.map((v, i) => (i === host.length - 1 ? false : v));
      const jsForged = caught(() => jsPrepare().finish(forged)).err;
      const witForged = caught(() => witPrepare().finish(forged));
      sameError(jsForged, witForged, `${label} forged`);
      if (jsForged.verdicts) sameVerdicts(jsForged, witForged, `${label} forged`);
      sameError(caught(() => jsPrepare().finish([])).err, caught(() => witPrepare().finish([])), `${label} no verdicts`);
      const many = new Array(1_000_000).fill(true);
      sameError(caught(() => jsPrepare().finish(many)).err, caught(() => witPrepare().finish(many)), `${label} a million verdicts`);
      const software = caught(() => witPrepare().verifySoftware());
      assert.equal(software.err?.tag ?? 'ok', done.err?.tag ?? 'ok', `${label} software`);
    }
    keys.free();
  }
  assert.equal(refused, 1);
  // Phase one refuses what it can see: a bad JWKS, a token that is not a JWS, a time out of range.
  const c = capture(CAPTURES[0]);
  const jwks = utf8(JSON.stringify(c.jwks));
  codedError(() => wit.token.prepareJwtVerification('a.b', jwks, witOptions({ now: c.iat })), 'ERR_JWS_INVALID');
  codedError(() => wit.token.prepareJwtVerification(c.response[0][1], utf8('{"keys":7}'), witOptions({ now: c.iat })), 'ERR_JWKS_INVALID');
  codedError(() => wit.token.prepareAttestationResultVerification(utf8('['.repeat(100_000)), jwks, witOptions({ now: c.iat })), 'ERR_JSON_TOO_DEEP');
  codedError(() => wit.token.prepareAttestationResultVerification(utf8(JSON.stringify(c.response)), jwks, witOptions({ now: 2 ** 40 })), 'ERR_INVALID_ARGUMENT');
});
