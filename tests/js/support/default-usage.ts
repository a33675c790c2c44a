// Compiled with tsc by tests/js/runtimes.test.mjs: the default entry's published types (pkg/).
import {
  buildAttestRequest,
  generateNonce,
  verifyAttestationResult,
  type AttestRequestBody,
  type EdgeAttestError,
  type VerifiedAttestationResultData,
} from '../../../pkg/index.js';

const nonce: string = generateNonce();
const body: AttestRequestBody = buildAttestRequest({
  endpoint: '/v4/attest/switch',
  arch: 'LS10',
  nonce,
  evidence: [{ evidence: new Uint8Array(4), certificate: '-----BEGIN CERTIFICATE-----' }],
});
export async function check(result: unknown[], jwks: { keys: object[] }): Promise<boolean> {
  try {
    const verified: VerifiedAttestationResultData = await verifyAttestationResult(result, jwks, { nonce });
    return verified.devices.length > 0 && body.nonce === nonce;
  } catch (error) {
    return (error as EdgeAttestError).code.startsWith('ERR_');
  }
}

// @ts-expect-error the default entry has no service
import { AttestationService } from '../../../pkg/index.js';
export const absent = AttestationService;

// @ts-expect-error nor local verification (edgeattest/local)
import { verifyEvidence } from '../../../pkg/index.js';
export const local = verifyEvidence;
