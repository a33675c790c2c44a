import type { OcspChainKind, OcspChainStatus } from './edgeattest.js';

/** NVIDIA's OCSP responder, the default `url`. */
export const NVIDIA_OCSP_URL: string;

/** Options of fetchOcspStatus. */
export interface FetchOcspStatusOptions {
  /** Default "device" (the leaf is not asked about); "rim" asks about the signer too. */
  kind?: OcspChainKind;
  /** The responder; default NVIDIA_OCSP_URL. Certificates' own AIA URLs are never used. */
  url?: string;
  /** Default globalThis.fetch. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Per request; default 10000 (NVIDIA's verifier's budget). */
  timeoutMs?: number;
  /** Count certificateHold as good (`held: true`). */
  allowHold?: boolean;
  /** Unix seconds; default the host clock. */
  now?: number;
  /** One 32-byte nonce per request; default crypto.getRandomValues. */
  nonces?: Uint8Array[];
}

/**
 * Asks an OCSP responder (NVIDIA's by default) about a certificate chain: POSTs the chain's
 * OCSP requests (`ocspRequests`), each within `timeoutMs`, and checks the answers
 * (`checkOcspResponses`: signer, signature, certificate, times, nonce). Resolves with the
 * chain's status; network failures are not thrown: they make the certificate's status
 * `failed` with `ERR_OCSP_UNAVAILABLE` (service code 5001).
 *
 * @throws EdgeAttestError (as a rejection) `ERR_INVALID_ARGUMENT` for options of the wrong
 * shape (`fetch`, `url`, `timeoutMs`), `ERR_CHAIN_PEM` / `ERR_CERT_*` for a chain that does
 * not read.
 *
 * @example
 * ```ts
 * declare const certificate: string; // the device's chain (PEM, leaf first)
 * const revocation = await fetchOcspStatus(certificate, { kind: 'device' });
 * if (revocation.status !== 'good') console.error(revocation.status, revocation.serviceCode);
 * ```
 */
export function fetchOcspStatus(chainPem: string, options?: FetchOcspStatusOptions): Promise<OcspChainStatus>;
