// Compiled with `tsc --noEmit` by tests/js/types.test.mjs: the package's published types must
// describe the API precisely. Each @ts-expect-error line must be an error, or tsc fails.
import {
  buildAttestRequest,
  generateNonce,
  validateAttestRequest,
  type AttestRequestBody,
  type EdgeAttestError,
  type ValidatedAttestRequest,
} from '../../../pkg/index.js';

const nonce: string = generateNonce();
const body: AttestRequestBody = buildAttestRequest({
  endpoint: '/v4/attest/gpu',
  arch: 'HOPPER',
  nonce,
  claimsVersion: '3.0',
  evidence: [{ evidence: new Uint8Array(4), certificate: '-----BEGIN CERTIFICATE-----' }],
});
const summary: ValidatedAttestRequest = validateAttestRequest('/v4/attest/gpu', body);
const label: string = summary.devices[0].label;
const firmware: string | null = summary.devices[0].firmwareVersion;

// @ts-expect-error: not an endpoint path
buildAttestRequest({ endpoint: '/v5/attest/gpu', evidence: [] });
// @ts-expect-error: not an architecture
buildAttestRequest({ endpoint: '/v4/attest/gpu', arch: 'AMPERE', evidence: [] });
// @ts-expect-error: evidence items need a certificate
buildAttestRequest({ endpoint: '/v4/attest/gpu', evidence: [{ evidence: 'aa' }] });
// @ts-expect-error: the summary has no such member
summary.deviceCount;

function report(error: EdgeAttestError): string {
  return `${error.code} ${error.field ?? ''}`;
}

export { label, firmware, report };
