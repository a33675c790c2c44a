//! The seven attest endpoints and what each accepts (spec §4, §9).

use core::fmt;

pub use super::arch::Arch;
use super::arch::{DeviceKind, GPUS, SWITCHES};

/// Claims version of the issued tokens (spec §4, "Claims version(s)").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ClaimsVersion {
    /// `1.0`: V1 and V2.
    V1_0,
    /// `2.0`: V3, and V4 on request.
    V2_0,
    /// `3.0`: the V4 default; every claim present, null when not computable.
    V3_0,
    /// `4.0`: V4 GPU only; adds the opaque-data records.
    V4_0,
}

impl ClaimsVersion {
    /// The wire value, e.g. `"3.0"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V1_0 => "1.0",
            Self::V2_0 => "2.0",
            Self::V3_0 => "3.0",
            Self::V4_0 => "4.0",
        }
    }

    /// Parses a wire value; only the exact strings of the spec are accepted.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "1.0" => Some(Self::V1_0),
            "2.0" => Some(Self::V2_0),
            "3.0" => Some(Self::V3_0),
            "4.0" => Some(Self::V4_0),
            _ => None,
        }
    }
}

impl fmt::Display for ClaimsVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How evidence is encoded in a request item (spec §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EvidenceGeneration {
    /// Generation 1 (V1, V2; deprecated): base64 of the hex text of the evidence.
    Gen1,
    /// Generation 2 (V3, V4): base64 of the raw evidence bytes.
    Gen2,
}

impl EvidenceGeneration {
    /// The encoding of the `evidence` member.
    pub const fn encoding(self) -> super::EvidenceEncoding {
        match self {
            Self::Gen1 => super::EvidenceEncoding::Base64Hex,
            Self::Gen2 => super::EvidenceEncoding::Base64,
        }
    }
}

/// One attest endpoint: a generation (`v1`…`v4`) and a device kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Endpoint {
    /// `POST /v1/attest/gpu`: one device, `{"eat": jwt}` result.
    GpuV1,
    /// `POST /v2/attest/gpu`: `evidences` of generation-1 items.
    GpuV2,
    /// `POST /v3/attest/gpu`: `evidence_list`, claims 2.0.
    GpuV3,
    /// `POST /v4/attest/gpu`: `evidence_list`, claims 2.0, 3.0 or 4.0.
    GpuV4,
    /// `POST /v2/attest/switch`: `evidences`, no `arch`.
    SwitchV2,
    /// `POST /v3/attest/switch`: `evidence_list`, claims 2.0.
    SwitchV3,
    /// `POST /v4/attest/switch`: `evidence_list`, claims 2.0 or 3.0.
    SwitchV4,
}

impl Endpoint {
    /// Every attest endpoint, newest first.
    pub const ALL: [Self; 7] = [
        Self::SwitchV4,
        Self::GpuV4,
        Self::SwitchV3,
        Self::GpuV3,
        Self::SwitchV2,
        Self::GpuV2,
        Self::GpuV1,
    ];

    /// The path relative to the service's base URL.
    pub const fn path(self) -> &'static str {
        match self {
            Self::GpuV1 => "/v1/attest/gpu",
            Self::GpuV2 => "/v2/attest/gpu",
            Self::GpuV3 => "/v3/attest/gpu",
            Self::GpuV4 => "/v4/attest/gpu",
            Self::SwitchV2 => "/v2/attest/switch",
            Self::SwitchV3 => "/v3/attest/switch",
            Self::SwitchV4 => "/v4/attest/switch",
        }
    }

    /// The endpoint at `path`. A single trailing slash is tolerated, as routers commonly do.
    pub fn from_path(path: &str) -> Option<Self> {
        let path = match path.strip_suffix('/') {
            Some(stripped) if !stripped.is_empty() => stripped,
            _ => path,
        };
        Self::ALL
            .into_iter()
            .find(|endpoint| endpoint.path() == path)
    }

    /// The generation number, 1 to 4 (spec §9.1).
    pub const fn version(self) -> u8 {
        match self {
            Self::GpuV1 => 1,
            Self::GpuV2 | Self::SwitchV2 => 2,
            Self::GpuV3 | Self::SwitchV3 => 3,
            Self::GpuV4 | Self::SwitchV4 => 4,
        }
    }

    /// GPU or switch.
    pub const fn device_kind(self) -> DeviceKind {
        match self {
            Self::GpuV1 | Self::GpuV2 | Self::GpuV3 | Self::GpuV4 => DeviceKind::Gpu,
            Self::SwitchV2 | Self::SwitchV3 | Self::SwitchV4 => DeviceKind::Switch,
        }
    }

    /// How evidence items are encoded (spec §9.2).
    pub const fn evidence_generation(self) -> EvidenceGeneration {
        if self.version() <= 2 {
            EvidenceGeneration::Gen1
        } else {
            EvidenceGeneration::Gen2
        }
    }

    /// The JSON member holding the evidence: `evidence` (V1), `evidences` (V2) or
    /// `evidence_list` (V3, V4).
    pub const fn evidence_field(self) -> &'static str {
        match self.version() {
            1 => "evidence",
            2 => "evidences",
            _ => "evidence_list",
        }
    }

    /// The `arch` values accepted: the architectures of the endpoint's device kind (the
    /// table's order); empty for Switch V2, which has no `arch` member.
    pub const fn arches(self) -> &'static [Arch] {
        match self {
            Self::GpuV1 | Self::GpuV2 | Self::GpuV3 | Self::GpuV4 => &GPUS,
            Self::SwitchV3 | Self::SwitchV4 => &SWITCHES,
            Self::SwitchV2 => &[],
        }
    }

    /// Whether the body must carry `arch`.
    pub const fn has_arch(self) -> bool {
        !self.arches().is_empty()
    }

    /// The claims versions the caller may ask for with `claims_version`; empty where the
    /// version is fixed by the endpoint and the member is not accepted.
    pub const fn selectable_claims_versions(self) -> &'static [ClaimsVersion] {
        match self {
            Self::GpuV4 => &[
                ClaimsVersion::V2_0,
                ClaimsVersion::V3_0,
                ClaimsVersion::V4_0,
            ],
            Self::SwitchV4 => &[ClaimsVersion::V2_0, ClaimsVersion::V3_0],
            _ => &[],
        }
    }

    /// The claims version used when the body names none (spec §4 rule 1, §9.4).
    pub const fn default_claims_version(self) -> ClaimsVersion {
        match self.version() {
            1 | 2 => ClaimsVersion::V1_0,
            3 => ClaimsVersion::V2_0,
            _ => ClaimsVersion::V3_0,
        }
    }

    /// Whether this endpoint takes deprecated generation-1 evidence items: the V2 endpoints
    /// (spec §2 "Device evidence, generation 1 (used by V2 requests; marked deprecated)",
    /// §9.5). V1 encodes its single evidence the same way but is not marked deprecated.
    pub const fn is_deprecated(self) -> bool {
        self.version() == 2
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.path())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip() {
        for endpoint in Endpoint::ALL {
            assert_eq!(Endpoint::from_path(endpoint.path()), Some(endpoint));
            let slashed = alloc::format!("{}/", endpoint.path());
            assert_eq!(Endpoint::from_path(&slashed), Some(endpoint));
        }
        assert_eq!(Endpoint::from_path("/v1/attest/switch"), None);
        assert_eq!(Endpoint::from_path("/v5/attest/gpu"), None);
        assert_eq!(Endpoint::from_path("/V4/attest/gpu"), None);
        assert_eq!(Endpoint::from_path("/"), None);
        assert_eq!(Endpoint::from_path(""), None);
    }

    #[test]
    fn spec_table() {
        use ClaimsVersion::*;
        assert_eq!(Endpoint::GpuV4.default_claims_version(), V3_0);
        assert_eq!(Endpoint::SwitchV4.default_claims_version(), V3_0);
        assert_eq!(Endpoint::GpuV3.default_claims_version(), V2_0);
        assert_eq!(Endpoint::GpuV2.default_claims_version(), V1_0);
        assert_eq!(Endpoint::GpuV1.default_claims_version(), V1_0);
        assert!(!Endpoint::SwitchV2.has_arch());
        assert_eq!(Endpoint::SwitchV4.arches(), &[Arch::Ls10]);
        assert!(Endpoint::GpuV4.selectable_claims_versions().contains(&V4_0));
        assert!(!Endpoint::SwitchV4
            .selectable_claims_versions()
            .contains(&V4_0));
        assert!(Endpoint::GpuV2.is_deprecated() && Endpoint::SwitchV2.is_deprecated());
        assert!(!Endpoint::GpuV3.is_deprecated() && !Endpoint::GpuV1.is_deprecated());
        assert_eq!(Endpoint::GpuV1.evidence_field(), "evidence");
        assert_eq!(Endpoint::SwitchV2.evidence_field(), "evidences");
        assert_eq!(Endpoint::SwitchV3.evidence_field(), "evidence_list");
    }

    #[test]
    fn wire_values() {
        for arch in [Arch::Hopper, Arch::Blackwell, Arch::Ls10] {
            assert_eq!(Arch::parse(arch.as_str()), Some(arch));
        }
        assert_eq!(Arch::parse("hopper"), None);
        for version in [
            ClaimsVersion::V1_0,
            ClaimsVersion::V2_0,
            ClaimsVersion::V3_0,
            ClaimsVersion::V4_0,
        ] {
            assert_eq!(ClaimsVersion::parse(version.as_str()), Some(version));
        }
        assert_eq!(ClaimsVersion::parse("3"), None);
        assert_eq!(ClaimsVersion::parse("3.00"), None);
    }
}
