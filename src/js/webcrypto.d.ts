/** One ECDSA P-384/SHA-384 check: SEC1 public key, message, raw r||s signature. */
export interface WebCryptoCheck {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/** A bounded cache of imported WebCrypto verification keys (a `Map` also fits). */
export interface VerifyKeyCache {
  get(id: string): Promise<CryptoKey> | undefined;
  set(id: string, key: Promise<CryptoKey>): void;
  /** When present, a key WebCrypto refused is dropped. */
  delete?(id: string): boolean;
  readonly size: number;
}

/**
 * Runs ECDSA P-384/SHA-384 signature checks with WebCrypto (`crypto.subtle` by default); one
 * verdict per check, in order. A key or signature of another size, or a key WebCrypto
 * refuses, is a failed check, not a rejection. `keys`: default the package's shared cache
 * (512 keys) for the global crypto.subtle, this call only for another.
 *
 * @example
 * ```ts
 * declare const evidence: string, certificate: string, nonce: string;
 * const batch = prepareEvidence({ devices: [{ evidence, certificate }], nonce, arch: 'HOPPER' });
 * const results = batch.finish(await runSignatureChecks(batch.signatureChecks()));
 * batch.free();
 * ```
 */
export function runSignatureChecks(
  checks: WebCryptoCheck[],
  subtle?: SubtleCrypto,
  keys?: Pick<VerifyKeyCache, 'get' | 'set'> & Partial<Pick<VerifyKeyCache, 'delete'>>,
): Promise<boolean[]>;
