import type { PrepareEvidenceOptions, SignatureCheck, DeviceResult } from './edgeattest.js';

/** Runs signature checks with WebCrypto (`crypto.subtle` by default); one verdict per check. */
export function runSignatureChecks(
  checks: SignatureCheck[],
  subtle?: SubtleCrypto,
  keys?: { get(id: string): Promise<CryptoKey> | undefined; set(id: string, key: Promise<CryptoKey>): void },
): Promise<boolean[]>;

/** Verifies the devices of one request with WebCrypto signatures; one result per device. */
export function verifyEvidenceBatch(options: PrepareEvidenceOptions, subtle?: SubtleCrypto): Promise<DeviceResult[]>;
