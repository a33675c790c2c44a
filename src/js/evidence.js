// Device evidence with the WebCrypto backend: the wasm core parses the transcripts and builds
// the certificate paths, hands over the distinct ECDSA P-384/SHA-384 checks, WebCrypto runs
// them in parallel, and the core completes every device with the verdicts.
import { prepareEvidence } from './edgeattest.js';
import { runSignatureChecks } from './webcrypto.js';

export { runSignatureChecks };

/**
 * verifyEvidence for several devices of one request with WebCrypto signatures; resolves to
 * one `{ ok, report | error }` per device, in order.
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
