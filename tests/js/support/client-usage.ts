// Compiled with tsc by tests/js/runtimes.test.mjs: the client entry's published types.
import {
  buildAttestRequest,
  generateNonce,
  verifyAttestationResult,
  type AttestRequestBody,
  type EdgeAttestError,
  type VerifiedAttestationResultData,
} from '../../../pkg/client/index.js';

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

// @ts-expect-error the client has no service
import { AttestationService } from '../../../pkg/client/index.js';
export const absent = AttestationService;
