/** One ECDSA P-384/SHA-384 check: SEC1 public key, message, raw r||s signature. */
export interface WebCryptoCheck {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/** Runs signature checks with WebCrypto (`crypto.subtle` by default); one verdict per check. */
export function runSignatureChecks(
  checks: WebCryptoCheck[],
  subtle?: SubtleCrypto,
  keys?: { get(id: string): Promise<CryptoKey> | undefined; set(id: string, key: Promise<CryptoKey>): void },
): Promise<boolean[]>;
