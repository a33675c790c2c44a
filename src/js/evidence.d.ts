import type { PrepareEvidenceOptions, DeviceResult } from './edgeattest.js';

export { runSignatureChecks, type WebCryptoCheck } from './webcrypto.js';

/**
 * Verifies the devices of one request with WebCrypto signatures (`prepareEvidence`, then
 * `runSignatureChecks`, then `finish`): the checks of `verifyEvidence` for each device,
 * shared chain links checked once. Resolves with one result per device, in order: its report,
 * or the error that failed it.
 *
 * @throws EdgeAttestError (as a rejection) what `prepareEvidence` throws for options that are
 * not valid: `ERR_INVALID_ARGUMENT`, `ERR_REQUEST_INVALID_NONCE`, `ERR_EVIDENCE_ENCODING`,
 * `ERR_CHAIN_PEM` (a device's own failure is its result, not a rejection).
 *
 * @example
 * ```ts
 * declare const devices: { evidence: string; certificate: string }[];
 * declare const nonce: string;
 * const results = await verifyEvidenceBatch({ devices, nonce, arch: 'HOPPER' });
 * const failed = results.filter((result) => !result.ok);
 * ```
 */
export function verifyEvidenceBatch(options: PrepareEvidenceOptions, subtle?: SubtleCrypto): Promise<DeviceResult[]>;
