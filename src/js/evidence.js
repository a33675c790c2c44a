// Device evidence with the WebCrypto backend: the wasm core parses the transcripts and builds
// the certificate paths, hands over the distinct ECDSA P-384/SHA-384 checks, WebCrypto runs
// them in parallel, and the core completes every device with the verdicts.
import { prepareEvidence } from './edgeattest.js';
import { runSignatureChecks } from './webcrypto.js';

/** @import { PrepareEvidenceOptions, DeviceResult } from './edgeattest.js' */

export { runSignatureChecks };

/**
 * Verifies the devices of one request with WebCrypto signatures (`prepareEvidence`, then
 * `runSignatureChecks`, then `finish`): the checks of `verifyEvidence` for each device,
 * shared chain links checked once. Resolves with one result per device, in order: its report,
 * or the error that failed it.
 *
 * @param {PrepareEvidenceOptions} options
 * @param {SubtleCrypto} [subtle]
 * @returns {Promise<DeviceResult[]>}
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
export async function verifyEvidenceBatch(options, subtle) {
  const batch = prepareEvidence(options);
  try {
    const verdicts = await runSignatureChecks(batch.signatureChecks(), subtle);
    return batch.finish(verdicts);
  } finally {
    batch.free();
  }
}
