// ES384 token benchmark, host-neutral (Node and browsers): our WebCrypto and software
// backends beside panva/jose measured in the same run. The runner passes the two libraries
// and the fixtures in; nothing here touches a file system.

const NOW = 1_800_000_000;
const ISS = 'https://nras.example';
const NONCE = '931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb';
const ECDSA_P384 = { name: 'ECDSA', namedCurve: 'P-384' };

/** Runs `fn` (async) serially for about `ms` milliseconds: operations/s. */
async function rate(fn, ms) {
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    await fn();
    count++;
    elapsed = performance.now() - start;
  }
  return (count * 1000) / elapsed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * Measures the implementations of one case in interleaved rounds (A B C A B C ...), so that
 * load changes on a shared machine hit every implementation alike; reports each median.
 */
async function compare(rows, log, name, impls, ms, rounds = 5) {
  for (const [, fn] of impls) for (let i = 0; i < 3; i++) await fn();
  const samples = impls.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, [, fn]] of impls.entries()) samples[i].push(await rate(fn, ms / rounds));
  }
  for (const [i, [impl]] of impls.entries()) {
    const opsPerSec = median(samples[i]);
    rows.push({ case: name, impl, opsPerSec });
    log(`${name.padEnd(36)} ${impl.padEnd(30)} ${opsPerSec.toFixed(1).padStart(9)} /s`);
  }
}

function claims(i) {
  return {
    iss: ISS, iat: NOW, nbf: NOW, exp: NOW + 3600, jti: `device-${i}`, eat_nonce: NONCE,
    measres: 'success', ueid: String(645491728318197586580044110930866076104639838622n + BigInt(i)),
    hwmodel: 'GH100 A01 GSP BROM', oemid: '5703', secboot: true, dbgstat: 'disabled',
    'x-nvidia-gpu-arch-check': true, 'x-nvidia-gpu-driver-version': '595.71.05',
    'x-nvidia-gpu-vbios-version': '96.00.D9.00.02', 'x-nvidia-gpu-attestation-report-parsed': true,
    'x-nvidia-gpu-attestation-report-signature-verified': true,
    'x-nvidia-gpu-attestation-report-nonce-match': true,
    'x-nvidia-gpu-attestation-report-cert-chain-validated': true,
  };
}

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * lib: the package (index.js); jose: panva/jose; recorded: { response, jwks, nonce, iat } of a
 * real 8-GPU service result. Returns rows { case, impl, opsPerSec }.
 */
export async function runTokenBench(lib, jose, recorded, { ms = 1500, log = () => {} } = {}) {
  const rows = [];
  const measure = (name, impls) => compare(rows, log, name, impls, ms);

  // Keys: one P-384 pair for every implementation (WebCrypto keys; the software key is the
  // same scalar imported into wasm).
  const pair = await crypto.subtle.generateKey(ECDSA_P384, true, ['sign', 'verify']);
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const kid = 'bench-kid';
  const softwareKey = await lib.importPrivateKey(privateJwk, { backend: 'software' });
  const signingKey = await lib.importPrivateKey(privateJwk, { backend: 'webcrypto' });
  const { kty, crv, x, y } = privateJwk;
  const jwks = { keys: [{ kty, crv, kid, x, y }] };
  const keySet = lib.createKeySet(jwks);
  const joseJwks = jose.createLocalJWKSet(jwks);
  const claimsSet = claims(0);
  // The bench key carries no x5c chain: no pinning (signers 'any'), as jose does none.
  const options = (backend) => ({ backend, now: NOW, issuer: ISS, nonce: NONCE, signers: 'any' });

  await measure('ES384 sign (JWT)', [
    ['ours webcrypto', () => lib.signJwt(claimsSet, signingKey, { kid })],
    ['ours software (wasm)', () => lib.signJwt(claimsSet, softwareKey, { kid })],
    ['jose SignJWT', () => new jose.SignJWT(claimsSet).setProtectedHeader({ kid, alg: 'ES384' }).sign(pair.privateKey)],
  ]);

  const token = await lib.signJwt(claimsSet, signingKey, { kid });
  const joseOptions = { algorithms: ['ES384'], issuer: ISS, currentDate: new Date(NOW * 1000) };
  await measure('ES384 verify (JWT, JWKS)', [
    ['ours webcrypto', () => lib.verifyJwt(token, keySet, options('webcrypto'))],
    ['ours software (wasm)', () => lib.verifyJwt(token, keySet, options('software'))],
    ['jose jwtVerify', () => jose.jwtVerify(token, joseJwks, joseOptions)],
    ['jose jwtVerify (CryptoKey)', () => jose.jwtVerify(token, pair.publicKey, joseOptions)],
  ]);

  // An 8-device detached EAT result, minted by us.
  const devices = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`GPU-${i}`, claims(i)]));
  const overall = {
    sub: 'NVIDIA-PLATFORM-ATTESTATION', 'x-nvidia-ver': '2.0', iss: ISS, iat: NOW, nbf: NOW,
    exp: NOW + 3600, jti: 'overall', 'x-nvidia-overall-att-result': true, eat_nonce: NONCE,
  };
  const result = await lib.createDetachedEat(overall, devices, signingKey, { kid });
  const resultText = JSON.stringify(result);
  // The same work with jose: 9 jwtVerify (in parallel, as ours) and 8 SHA-256 digests.
  const joseResult = async () => {
    const parsed = JSON.parse(resultText);
    const [main, ...rest] = await Promise.all([
      jose.jwtVerify(parsed[0][1], joseJwks, joseOptions),
      ...Object.values(parsed[1]).map((t) => jose.jwtVerify(t, joseJwks, joseOptions)),
    ]);
    const labels = Object.keys(parsed[1]);
    await Promise.all(labels.map(async (label) => {
      const digest = hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(parsed[1][label])));
      if (main.payload.submods[label][1][1] !== digest) throw new Error('digest');
    }));
    if (rest.length !== labels.length || Object.keys(main.payload.submods).length !== labels.length) throw new Error('devices');
  };
  await measure('detached EAT, 8 devices, verify', [
    ['ours webcrypto', () => lib.verifyAttestationResult(resultText, keySet, options('webcrypto'))],
    ['ours software (wasm)', () => lib.verifyAttestationResult(resultText, keySet, options('software'))],
    ['jose (9 jwtVerify + digests)', joseResult],
  ]);
  await measure('detached EAT, 8 devices, mint', [
    ['ours webcrypto', () => lib.createDetachedEat(overall, devices, signingKey, { kid })],
    ['ours software (wasm)', () => lib.createDetachedEat(overall, devices, softwareKey, { kid })],
  ]);

  // The real service's 8-GPU result with its 32-key JWKS, at its recorded time.
  const recordedSet = lib.createKeySet(recorded.jwks);
  const recordedOptions = (backend) => ({ backend, now: recorded.iat, nonce: recorded.nonce });
  await measure('recorded NRAS 8-GPU result, verify', [
    ['ours webcrypto', () => lib.verifyAttestationResult(recorded.response, recordedSet, recordedOptions('webcrypto'))],
    ['ours software (wasm)', () => lib.verifyAttestationResult(recorded.response, recordedSet, recordedOptions('software'))],
  ]);
  softwareKey.free();
  keySet.free();
  recordedSet.free();
  return rows;
}

/** Ratios of our WebCrypto path to jose for the headline cases. */
export function ratios(rows) {
  const get = (name, impl) => rows.find((r) => r.case === name && r.impl === impl)?.opsPerSec;
  return {
    sign: get('ES384 sign (JWT)', 'ours webcrypto') / get('ES384 sign (JWT)', 'jose SignJWT'),
    verify: get('ES384 verify (JWT, JWKS)', 'ours webcrypto') / get('ES384 verify (JWT, JWKS)', 'jose jwtVerify'),
    detachedEat: get('detached EAT, 8 devices, verify', 'ours webcrypto')
      / get('detached EAT, 8 devices, verify', 'jose (9 jwtVerify + digests)'),
  };
}
