// Starts the built edge worker (target/worker) in workerd through Miniflare, on a free
// loopback port, with a fresh signing key, for a test.
import { Miniflare } from 'miniflare';
import { createPublicKey, webcrypto } from 'node:crypto';
import { createDevelopmentChain } from '../../../pkg-config/dev-certificate.mjs';
import { workerOptions } from '../../../pkg-config/worker-options.mjs';
import { settledHealth } from '../../../pkg-config/health-banner.mjs';

/** A fresh P-384 private key as PKCS#8 PEM. */
export async function freshSigningKeyPem() {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', pair.privateKey));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END PRIVATE KEY-----\n`;
}

/**
 * A fresh signing key with a development certificate chain (as the local server makes one,
 * pkg-config/dev-certificate.mjs): the worker's bindings, and the `signers` a relying party
 * pins to verify its tokens (the chain's root).
 */
export async function developmentSigner(now = Math.floor(Date.now() / 1000)) {
  const key = await freshSigningKeyPem();
  const chain = createDevelopmentChain(createPublicKey(key), now);
  const root = chain.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g)[1];
  return { bindings: { EDGEATTEST_SIGNING_KEY: key, EDGEATTEST_SIGNING_CERTIFICATE: chain }, root, signers: [{ certificate: root }] };
}

/**
 * Tests never reach the internet: the RIM service and the OCSP responder (NVIDIA's by
 * default) are off unless a test points them at loopback. As the local server does before its
 * banner, the worker is asked for /health and the probe of its sources awaited (`settle`), so
 * that what a test counts at a source is its own requests', not the probe's HEADs.
 */
export async function startWorker({ bindings = {}, settle = true, chain = false, ...extra } = {}) {
  // `chain`: the key gets a development chain (as the local server's does), published as
  // x5c; `signers` pins its root. Without it the key is published bare: pinning refuses it.
  const signer = chain ? await developmentSigner() : undefined;
  const all = {
    EDGEATTEST_SIGNING_KEY: await freshSigningKeyPem(),
    ...signer?.bindings,
    EDGEATTEST_RIM_SERVICE_URL: 'off',
    EDGEATTEST_OCSP_URL: 'off',
    ...bindings,
  };
  const mf = new Miniflare(workerOptions({ host: '127.0.0.1', port: 0, bindings: all, ...extra }));
  const url = await mf.ready;
  if (settle) await settledHealth(() => fetch(`${url.origin}/health`), { timeoutMs: 8000 });
  return { mf, origin: url.origin, stop: () => mf.dispose(), signers: signer?.signers, root: signer?.root };
}
