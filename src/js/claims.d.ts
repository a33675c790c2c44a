// GENERATED from the claims structs of src/service/claims/ by tests/it/claims_dts.rs; do not
// edit. Regenerate: EDGEATTEST_BLESS=1 cargo test --test it claims_dts
//
// Claim sets of the attestation service's tokens, as src/service/claims/*.rs writes them and as
// NVIDIA's service does (names and JSON types of the real tokens in tests/fixtures/nvidia/nras).
// A member is `null` where the service could not compute it (claims 3.0 and 4.0 keep every
// member on failure); every set stays open (`[claim: string]: unknown`) for claims a newer
// service adds. Narrow a device payload with `in` ('x-nvidia-error-details' in payload) or by
// the claims version the request asked for (the overall token's `x-nvidia-ver`).

/** Members a newer service may add. */
export interface OpenClaims {
  [claim: string]: unknown;
}

/** `submods` entry: `["DIGEST", [algorithm, lowercase hex]]` (RFC 9711 §4.2.18). */
export type SubmodDigest = ['DIGEST', [string, string]];

/** `iss`, `iat`, `nbf`, `exp`, `jti`: every token carries them (Unix seconds). */
export interface TokenTimeClaims extends OpenClaims {
  iss: string;
  iat: number;
  nbf: number;
  exp: number;
  jti: string;
}

/** `x-nvidia-error-details`: the first failure, as the service's error body names it. */
export interface ErrorDetailsClaim {
  /** The numeric code, e.g. 4010. */
  code: number;
  /** The request member concerned, e.g. "nonce". */
  fieldName: string;
  /** e.g. "400 BAD_REQUEST". */
  httpStatus: string;
  description: string;
  /** The symbolic name, e.g. "NONCE_NOT_MATCHING". */
  message: string;
}

/** The certificate-chain object of claims 3.0 and 4.0. */
export interface CertChainClaim {
  'x-nvidia-cert-status': 'valid' | 'expired' | 'invalid' | 'revoked';
  'x-nvidia-cert-ocsp-status': 'good' | 'revoked' | 'unknown';
  /** The earliest notAfter of the chain, `YYYY-MM-DDTHH:MM:SSZ`. */
  'x-nvidia-cert-expiration-date': string | null;
  'x-nvidia-cert-revocation-reason': string | null;
  /** Ours, not NVIDIA's: when the certificate the chain is reported revoked (or on hold) for was revoked, `YYYY-MM-DDTHH:MM:SSZ`; absent otherwise. A relying party's revokedGracePeriod counts from it. */
  'x-edgeattest-cert-revocation-time'?: string;
}

/** One entry of `x-nvidia-mismatch-measurement-records`. */
export interface MismatchMeasurementRecord {
  /** RIM (0-based) index. */
  index: number;
  goldenSize: number;
  /** Lower-case hex (the first alternative). */
  goldenValue: string;
  /** 0 when the block is missing. */
  runtimeSize: number;
  /** Lower-case hex, or "NA" when the block is missing. */
  runtimeValue: string;
  /** Which RIM: "Driver" or "Firmware". */
  measurementSource: string;
}

/** One entry of `x-nvidia-mismatch-opaque-data-records` (claims 4.0). */
export interface MismatchOpaqueDataRecord {
  id: number;
  name: string;
  goldenType: string;
  goldenValue: number;
  runtimeType?: string;
  runtimeValue?: number;
}

/** The overall token of a detached result (V2–V4). */
export interface OverallClaims extends TokenTimeClaims {
  sub: 'NVIDIA-PLATFORM-ATTESTATION';
  /** The claims version of the device tokens: "1.0" … "4.0". */
  'x-nvidia-ver': string;
  /** The service's verdict: true when every device passed. */
  'x-nvidia-overall-att-result': boolean;
  eat_nonce: string;
  /** Ours, not NVIDIA's: the CMW form the evidence came in; absent for plain evidence items. */
  'x-edgeattest-evidence-form'?: 'json-cmw' | 'cbor-cmw';
  /** Each device token's digest, by label. */
  submods: Record<string, SubmodDigest>;
}

/** A failed device's token under claims 1.0 and 2.0: the times and the error only. */
export interface ErrorOnlyClaims extends TokenTimeClaims {
  'x-nvidia-error-details': ErrorDetailsClaim;
}

/** What every GPU claims version carries: the nonce, the device, its firmware, the report checks. */
export interface GpuIdentityClaims extends TokenTimeClaims {
  eat_nonce: string;
  secboot: boolean | null;
  dbgstat: string | null;
  hwmodel: string | null;
  oemid: string | null;
  ueid: string | null;
  'x-nvidia-gpu-arch-check': boolean;
  'x-nvidia-gpu-driver-version': string | null;
  'x-nvidia-gpu-vbios-version': string | null;
  'x-nvidia-attestation-warning': string | null;
  'x-nvidia-gpu-attestation-report-parsed': boolean;
  'x-nvidia-gpu-attestation-report-signature-verified': boolean | null;
}

/** GPU claims 1.0: the device token of a V2 detached result. */
export interface GpuClaimsV1 extends GpuIdentityClaims {
  measres: 'comparison-successful' | 'comparison-fail';
  'x-nvidia-gpu-nonce-match': boolean | null;
  'x-nvidia-gpu-measurements-match': boolean;
  'x-nvidia-gpu-attestation-report-cert-chain-validated': boolean | null;
  'x-nvidia-gpu-driver-rim-schema-fetched': boolean;
  'x-nvidia-gpu-driver-rim-schema-validated': boolean | null;
  'x-nvidia-gpu-driver-rim-cert-validated': boolean | null;
  'x-nvidia-gpu-driver-rim-signature-verified': boolean | null;
  'x-nvidia-gpu-driver-rim-measurements-available': boolean | null;
  'x-nvidia-gpu-vbios-rim-schema-fetched': boolean;
  'x-nvidia-gpu-vbios-rim-schema-validated': boolean | null;
  'x-nvidia-gpu-vbios-rim-cert-validated': boolean | null;
  'x-nvidia-gpu-vbios-rim-signature-verified': boolean | null;
  'x-nvidia-gpu-vbios-rim-measurements-available': boolean | null;
  'x-nvidia-mismatch-measurement-records': MismatchMeasurementRecord[] | null;
  'x-nvidia-mismatch-indexes': number[] | null;
}

/** The checks of the V1 single token, grouped under `x-nvidia-attestation-detailed-result`. */
export interface GpuDetailedResultV1 {
  'x-nvidia-gpu-arch-check': boolean;
  'x-nvidia-gpu-attestation-report-parsed': boolean;
  'x-nvidia-gpu-attestation-report-signature-verified': boolean | null;
  'x-nvidia-gpu-nonce-match': boolean | null;
  'x-nvidia-gpu-measurements-match': boolean;
  'x-nvidia-gpu-attestation-report-cert-chain-validated': boolean | null;
  'x-nvidia-gpu-driver-rim-schema-fetched': boolean;
  'x-nvidia-gpu-driver-rim-schema-validated': boolean | null;
  'x-nvidia-gpu-driver-rim-cert-validated': boolean | null;
  'x-nvidia-gpu-driver-rim-signature-verified': boolean | null;
  'x-nvidia-gpu-driver-rim-driver-measurements-available': boolean | null;
  'x-nvidia-gpu-vbios-rim-schema-fetched': boolean;
  'x-nvidia-gpu-vbios-rim-schema-validated': boolean | null;
  'x-nvidia-gpu-vbios-rim-cert-validated': boolean | null;
  'x-nvidia-gpu-vbios-rim-signature-verified': boolean | null;
  'x-nvidia-gpu-vbios-rim-measurements-available': boolean | null;
}

/** The V1 single token (`{"eat": token}` of /v1/attest/gpu): one GPU's claims 1.0 and the verdict. */
export interface GpuSingleTokenV1Claims extends TokenTimeClaims {
  sub: 'NVIDIA-GPU-ATTESTATION';
  'x-nvidia-ver': '1.0';
  'x-nvidia-eat-ver': string;
  eat_nonce: string;
  'x-nvidia-overall-att-result': boolean;
  measres: 'comparison-successful' | 'comparison-fail';
  secboot: boolean | null;
  dbgstat: string | null;
  hwmodel: string | null;
  oemid: string | null;
  ueid: string | null;
  'x-nvidia-gpu-manufacturer': string;
  'x-nvidia-attestation-type': string;
  'x-nvidia-gpu-driver-version': string | null;
  'x-nvidia-gpu-vbios-version': string | null;
  'x-nvidia-attestation-warning': string | null;
  'x-nvidia-mismatch-measurement-records': MismatchMeasurementRecord[] | null;
  'x-nvidia-mismatch-indexes': number[] | null;
  'x-nvidia-attestation-detailed-result': GpuDetailedResultV1;
  'x-nvidia-error-details'?: ErrorDetailsClaim;
}

/** What GPU claims 2.0, 3.0 and 4.0 share. */
export interface GpuCommonClaims extends GpuIdentityClaims {
  measres: 'success' | 'fail';
  'x-nvidia-gpu-attestation-report-nonce-match': boolean | null;
  'x-nvidia-gpu-driver-rim-fetched': boolean;
  'x-nvidia-gpu-driver-rim-schema-validated': boolean | null;
  'x-nvidia-gpu-driver-rim-signature-verified': boolean | null;
  'x-nvidia-gpu-driver-rim-measurements-available': boolean | null;
  'x-nvidia-gpu-vbios-rim-fetched': boolean;
  'x-nvidia-gpu-vbios-rim-schema-validated': boolean | null;
  'x-nvidia-gpu-vbios-rim-signature-verified': boolean | null;
  'x-nvidia-gpu-vbios-rim-measurements-available': boolean | null;
  'x-nvidia-gpu-vbios-index-no-conflict': boolean | null;
}

/** GPU claims 2.0 (V3, and V4 on request). */
export interface GpuClaimsV2 extends GpuCommonClaims {
  'x-nvidia-gpu-attestation-report-cert-chain-validated': boolean | null;
  'x-nvidia-gpu-driver-rim-cert-validated': boolean | null;
  'x-nvidia-gpu-vbios-rim-cert-validated': boolean | null;
  'x-nvidia-error-details'?: ErrorDetailsClaim;
}

/** GPU claims 3.0 (the V4 default). */
export interface GpuClaimsV3 extends GpuCommonClaims {
  'x-nvidia-gpu-attestation-report-cert-chain': CertChainClaim | null;
  'x-nvidia-gpu-attestation-report-cert-chain-fwid-match': boolean | null;
  'x-nvidia-gpu-driver-rim-cert-chain': CertChainClaim | null;
  'x-nvidia-gpu-driver-rim-version-match': boolean | null;
  'x-nvidia-gpu-vbios-rim-cert-chain': CertChainClaim | null;
  'x-nvidia-gpu-vbios-rim-version-match': boolean | null;
  'x-nvidia-gpu-mode'?: string;
  /** Present when the device failed. */
  'x-nvidia-error-details'?: ErrorDetailsClaim;
}

/** GPU claims 4.0: 3.0 plus mismatch records, attester claims, device type and version. */
export interface GpuClaimsV4 extends GpuClaimsV3 {
  'x-nvidia-device-type': 'gpu';
  'x-nvidia-gpu-claims-version': '4.0';
  'x-nvidia-mismatch-measurement-records': MismatchMeasurementRecord[] | null;
  'x-nvidia-mismatch-opaque-data-records': MismatchOpaqueDataRecord[] | null;
  /** Opaque values the RIMs flag for the relying party; maybe `{}`. */
  'x-nvidia-attester-claims': Record<string, number>;
  /** PDIs of the connected switches, when the evidence carries them. */
  'x-nvidia-gpu-switch-pdis'?: string[];
}

/** Switch claims 1.0 (V2 detached): the BIOS RIM under the 1.0 `vbios` names. */
export interface SwitchClaimsV1 extends TokenTimeClaims {
  eat_nonce: string;
  measres: 'comparison-successful' | 'comparison-fail';
  secboot: boolean | null;
  dbgstat: string | null;
  hwmodel: string | null;
  ueid: string | null;
  'x-nvidia-switch-arch-check': boolean;
  'x-nvidia-switch-bios-version': string | null;
  'x-nvidia-switch-attestation-report-parsed': boolean;
  'x-nvidia-switch-attestation-report-signature-verified': boolean | null;
  'x-nvidia-switch-nonce-match': boolean | null;
  'x-nvidia-switch-attestation-report-cert-chain-validated': boolean | null;
  'x-nvidia-switch-measurements-match': boolean;
  'x-nvidia-switch-vbios-rim-schema-fetched': boolean;
  'x-nvidia-switch-vbios-rim-schema-validated': boolean | null;
  'x-nvidia-switch-vbios-rim-cert-validated': boolean | null;
  'x-nvidia-switch-vbios-rim-signature-verified': boolean | null;
  'x-nvidia-switch-vbios-rim-measurements-available': boolean | null;
  'x-nvidia-attestation-warning'?: string;
}

/** What switch claims 2.0 and 3.0 share. */
export interface SwitchCommonClaims extends TokenTimeClaims {
  eat_nonce: string;
  measres: 'success' | 'fail';
  secboot: boolean | null;
  dbgstat: string | null;
  hwmodel: string | null;
  ueid: string | null;
  'x-nvidia-switch-arch-check': boolean;
  'x-nvidia-switch-bios-version': string | null;
  'x-nvidia-switch-attestation-report-parsed': boolean;
  'x-nvidia-switch-attestation-report-signature-verified': boolean | null;
  'x-nvidia-switch-attestation-report-nonce-match': boolean | null;
  'x-nvidia-switch-bios-rim-fetched': boolean;
  'x-nvidia-switch-bios-rim-schema-validated': boolean | null;
  'x-nvidia-switch-bios-rim-signature-verified': boolean | null;
  'x-nvidia-switch-bios-rim-measurements-available': boolean | null;
}

/** Switch claims 2.0 (V3, and V4 on request). */
export interface SwitchClaimsV2 extends SwitchCommonClaims {
  'x-nvidia-switch-attestation-report-cert-chain-validated': boolean | null;
  'x-nvidia-switch-bios-rim-cert-validated': boolean | null;
  'x-nvidia-attestation-warning'?: string;
  'x-nvidia-error-details'?: ErrorDetailsClaim;
}

/** Switch claims 3.0 (the V4 default). */
export interface SwitchClaimsV3 extends SwitchCommonClaims {
  /** Always null for switches. */
  oemid: string | null;
  'x-nvidia-attestation-warning': string | null;
  'x-nvidia-switch-attestation-report-cert-chain': CertChainClaim | null;
  'x-nvidia-switch-attestation-report-cert-chain-fwid-match': boolean | null;
  'x-nvidia-switch-bios-rim-cert-chain': CertChainClaim | null;
  'x-nvidia-switch-bios-rim-version-match': boolean | null;
  'x-nvidia-switch-pdi'?: string;
  'x-nvidia-switch-gpu-pdis'?: string[];
  'x-nvidia-error-details'?: ErrorDetailsClaim;
}

/** A device token's claims: one of the service's sets, or claims this package does not know. */
export type DeviceClaims =
  | GpuClaimsV1
  | GpuClaimsV2
  | GpuClaimsV3
  | GpuClaimsV4
  | SwitchClaimsV1
  | SwitchClaimsV2
  | SwitchClaimsV3
  | ErrorOnlyClaims
  | OpenClaims;

/** The overall token's claims: a detached result's overall token, or the V1 single token. */
export type OverallTokenClaims = OverallClaims | GpuSingleTokenV1Claims | OpenClaims;
