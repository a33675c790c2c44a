// Compiled with tsc --strict by tests/js/runtimes.test.mjs (tsconfig.json): the verdict API's
// published types — the appraisal, the claim sets, EdgeAttestError as a class — as a relying
// party uses them. Each @ts-expect-error line must be an error, or tsc fails.
import {
  EdgeAttestError,
  verifyAttestationResult,
  type Appraisal,
  type AppraisalReason,
  type AttestationVerdictError,
  type DeviceAppraisal,
  type DeviceClaims,
  type GpuClaimsV1,
  type GpuClaimsV2,
  type GpuClaimsV3,
  type GpuClaimsV4,
  type GpuSingleTokenV1Claims,
  type OverallClaims,
  type SwitchClaimsV1,
  type SwitchClaimsV2,
  type SwitchClaimsV3,
  type ErrorOnlyClaims,
  type VerifiedAttestationResultData,
  type VerdictLevel,
} from '../../../pkg/index.js';
import { EdgeAttestError as ClientError, type Appraisal as ClientAppraisal } from '../../../pkg/local/index.js';

/** What a relying party does: pass or explain. */
export async function attest(result: unknown[], jwks: { keys: object[] }, nonce: string): Promise<string> {
  try {
    const verified: VerifiedAttestationResultData = await verifyAttestationResult(result, jwks, { nonce });
    const passed: boolean = verified.appraisal.passed;
    return passed ? 'pass' : 'unreachable by default';
  } catch (error) {
    if (error instanceof EdgeAttestError) {
      // `instanceof` narrows: code and field are typed.
      const field: string | undefined = error.field;
      if (error.code === 'ERR_ATTESTATION_FAILED' || error.code === 'ERR_ATTESTATION_RESULT_MISSING') {
        const refused = error as AttestationVerdictError;
        return explain(refused.appraisal) + (refused.result.devices[0]?.label ?? '') + (field ?? '');
      }
      return error.code;
    }
    throw error;
  }
}

function explain(appraisal: Appraisal): string {
  const verdict: boolean | null = appraisal.overallResult;
  // The one verdict scale: a union of its six names.
  const level: VerdictLevel = appraisal.level;
  // @ts-expect-error not a level
  const notALevel: VerdictLevel = 'maybe';
  const warnings: string[] = appraisal.devices.flatMap((d) => d.warnings);
  const lines = appraisal.devices.map((device: DeviceAppraisal) => {
    const passed: boolean | null = device.passed;
    const reasons = device.reasons.map((r: AppraisalReason) => `${r.claim}: ${r.message} (${JSON.stringify(r.value)})`);
    return `${device.label} ${passed} ${reasons.join('; ')}`;
  });
  return `${verdict} ${level} ${notALevel} ${warnings.join('; ')} ${lines.join('\n')}`;
}

/** Diagnostic tools opt in and read the appraisal. */
export async function diagnose(result: string, jwks: string): Promise<string> {
  const verified = await verifyAttestationResult(result, jwks, { allowFailedResult: true, format: 'detached' });
  const overall = verified.overall.payload as OverallClaims;
  const verdict: boolean = overall['x-nvidia-overall-att-result'];
  const version: string = overall['x-nvidia-ver'];
  return `${verdict} ${version} ${explain(verified.appraisal)} ${verified.devices.map((d) => describe(d.payload, version)).join()}`;
}

/** Reading a device's claims by the version the request asked for. */
function describe(payload: DeviceClaims, version: string): string {
  if ('x-nvidia-error-details' in payload && !('measres' in payload)) {
    const failed = payload as ErrorOnlyClaims;
    return `${failed['x-nvidia-error-details'].code} ${failed['x-nvidia-error-details'].message}`;
  }
  if ('x-nvidia-switch-arch-check' in payload) {
    if (version === '1.0') return String((payload as SwitchClaimsV1)['x-nvidia-switch-measurements-match']);
    if (version === '2.0') return String((payload as SwitchClaimsV2)['x-nvidia-switch-bios-rim-cert-validated']);
    const v3 = payload as SwitchClaimsV3;
    return v3['x-nvidia-switch-bios-rim-cert-chain']?.['x-nvidia-cert-status'] ?? 'not computed';
  }
  switch (version) {
    case '1.0': {
      const v1 = payload as GpuClaimsV1;
      const measres: 'comparison-successful' | 'comparison-fail' = v1.measres;
      return `${measres} ${(v1['x-nvidia-mismatch-indexes'] ?? []).join()}`;
    }
    case '2.0':
      return String((payload as GpuClaimsV2)['x-nvidia-gpu-driver-rim-cert-validated']);
    case '3.0': {
      const chain = (payload as GpuClaimsV3)['x-nvidia-gpu-driver-rim-cert-chain'];
      const status: 'valid' | 'expired' | 'invalid' | 'revoked' | undefined = chain?.['x-nvidia-cert-status'];
      return status ?? 'not computed';
    }
    default: {
      const v4 = payload as GpuClaimsV4;
      const records = v4['x-nvidia-mismatch-measurement-records'] ?? [];
      return records.map((r) => `${r.index}:${r.measurementSource}:${r.runtimeValue}`).join();
    }
  }
}

export function single(token: GpuSingleTokenV1Claims): boolean {
  return token['x-nvidia-overall-att-result'] && token['x-nvidia-attestation-detailed-result']['x-nvidia-gpu-measurements-match'];
}

export function clientSide(error: unknown, appraisal: ClientAppraisal): boolean {
  return error instanceof ClientError && appraisal.passed;
}

export const made: EdgeAttestError = new EdgeAttestError('ERR_ATTESTATION_FAILED', 'made', { field: 'GPU-0' });

// @ts-expect-error: allowFailedResult is a boolean
verifyAttestationResult([], '{}', { allowFailedResult: 'yes' });
// @ts-expect-error: the appraisal has no `verdict` member
export const wrong = (a: Appraisal) => a.verdict;
// @ts-expect-error: a reason's message is a string
export const notNumber = (r: AppraisalReason): number => r.message;
// @ts-expect-error: the overall verdict is a boolean
export const badOverall: OverallClaims['x-nvidia-overall-att-result'] = 'true';
