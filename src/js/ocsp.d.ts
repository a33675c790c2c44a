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

/** POSTs the chain's OCSP requests and checks the answers; network failures become `failed` (5001). */
export function fetchOcspStatus(chainPem: string, options?: FetchOcspStatusOptions): Promise<OcspChainStatus>;
