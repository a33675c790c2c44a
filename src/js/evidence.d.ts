import type { PrepareEvidenceOptions, DeviceResult } from './edgeattest.js';

export { runSignatureChecks, type WebCryptoCheck } from './webcrypto.js';

/** Verifies the devices of one request with WebCrypto signatures; one result per device. */
export function verifyEvidenceBatch(options: PrepareEvidenceOptions, subtle?: SubtleCrypto): Promise<DeviceResult[]>;
