// Starts the built edge worker (target/worker) in workerd through Miniflare, on a free
// loopback port, with a fresh signing key, for a test.
import { Miniflare } from 'miniflare';
import { webcrypto } from 'node:crypto';
import { workerOptions } from '../../../pkg-config/worker-options.mjs';
import { settledHealth } from '../../../pkg-config/health-banner.mjs';

/** A fresh P-384 private key as PKCS#8 PEM. */
export async function freshSigningKeyPem() {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', pair.privateKey));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END PRIVATE KEY-----\n`;
}

/**
 * Tests never reach the internet: the RIM service and the OCSP responder (NVIDIA's by
 * default) are off unless a test points them at loopback. As the local server does before its
 * banner, the worker is asked for /health and the probe of its sources awaited (`settle`), so
 * that what a test counts at a source is its own requests', not the probe's HEADs.
 */
export async function startWorker({ bindings = {}, settle = true, ...extra } = {}) {
  const all = {
    EDGEATTEST_SIGNING_KEY: await freshSigningKeyPem(),
    EDGEATTEST_RIM_SERVICE_URL: 'off',
    EDGEATTEST_OCSP_URL: 'off',
    ...bindings,
  };
  const mf = new Miniflare(workerOptions({ host: '127.0.0.1', port: 0, bindings: all, ...extra }));
  const url = await mf.ready;
  if (settle) await settledHealth(() => fetch(`${url.origin}/health`), { timeoutMs: 8000 });
  return { mf, origin: url.origin, stop: () => mf.dispose() };
}
