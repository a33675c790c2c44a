//! The claims every version of every device carries, read from a [`DeviceOutcome`] in one
//! place: the identity and evidence checks ([`SharedClaims`]) and the checks of one RIM
//! ([`RimClaims`]). Each claims version flattens them into its own struct; only the claim
//! names differ between GPU and switch and between 1.0 and later, and those are the tables
//! below.

use alloc::string::String;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::common::{measres, measres_v1};
use crate::attest::Nonce;
use crate::service::outcome::{DeviceOutcome, RimOutcome};

/// The names of the shared claims of one device kind and claims generation.
#[derive(Debug, PartialEq, Eq)]
pub struct SharedNames {
    /// GPU claims: `oemid`, the driver version and the warning are among the shared ones.
    gpu: bool,
    /// Claims 1.0: `measres` is `comparison-successful` / `comparison-fail`.
    v1: bool,
    arch_check: &'static str,
    firmware_version: &'static str,
    report_parsed: &'static str,
    report_signature_verified: &'static str,
    nonce_match: &'static str,
}

macro_rules! shared_names {
    ($name:ident, $device:literal, $gpu:literal, $v1:literal, $firmware:literal, $nonce:literal) => {
        #[doc = concat!("`", $device, "` claims, ", $nonce, ".")]
        pub(super) const $name: SharedNames = SharedNames {
            gpu: $gpu,
            v1: $v1,
            arch_check: concat!("x-nvidia-", $device, "-arch-check"),
            firmware_version: concat!("x-nvidia-", $device, "-", $firmware, "-version"),
            report_parsed: concat!("x-nvidia-", $device, "-attestation-report-parsed"),
            report_signature_verified: concat!(
                "x-nvidia-",
                $device,
                "-attestation-report-signature-verified"
            ),
            nonce_match: concat!("x-nvidia-", $device, "-", $nonce),
        };
    };
}

shared_names!(GPU_1_0, "gpu", true, true, "vbios", "nonce-match");
shared_names!(
    GPU,
    "gpu",
    true,
    false,
    "vbios",
    "attestation-report-nonce-match"
);
shared_names!(SWITCH_1_0, "switch", false, true, "bios", "nonce-match");
shared_names!(
    SWITCH,
    "switch",
    false,
    false,
    "bios",
    "attestation-report-nonce-match"
);

/// The identity and evidence claims of one device, in this order: `eat_nonce`, `measres`,
/// `secboot`, `dbgstat`, `hwmodel`, (GPU) `oemid`, `ueid`, the arch check, (GPU) the driver
/// version, the firmware version, (GPU) the warning, and the evidence's parse, signature and
/// nonce checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedClaims {
    /// The names to write.
    pub names: &'static SharedNames,
    /// The request nonce, lowercase hex.
    pub eat_nonce: String,
    /// `success` / `fail` (1.0: `comparison-successful` / `comparison-fail`).
    pub measres: &'static str,
    /// Secure boot.
    pub secboot: Option<bool>,
    /// Debug status.
    pub dbgstat: Option<String>,
    /// Hardware model.
    pub hwmodel: Option<String>,
    /// OEM id (GPU claims only).
    pub oemid: Option<String>,
    /// Leaf serial number, decimal.
    pub ueid: Option<String>,
    /// Arch check.
    pub arch_check: bool,
    /// Driver version (GPU claims only).
    pub driver_version: Option<String>,
    /// VBIOS (GPU) or BIOS (switch) version.
    pub firmware_version: Option<String>,
    /// `x-nvidia-attestation-warning` (GPU claims only).
    pub warning: Option<String>,
    /// The evidence parsed.
    pub report_parsed: bool,
    /// The evidence signature verified.
    pub report_signature_verified: Option<bool>,
    /// The evidence carries the request nonce.
    pub nonce_match: Option<bool>,
}

impl SharedClaims {
    /// The shared claims of `outcome`, to be written with `names`.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, names: &'static SharedNames) -> Self {
        let passed = outcome.passed();
        Self {
            names,
            eat_nonce: nonce.to_hex(),
            measres: if names.v1 {
                measres_v1(passed)
            } else {
                measres(passed)
            },
            secboot: outcome.secure_boot,
            dbgstat: outcome.debug_status.clone(),
            hwmodel: outcome.hwmodel.clone(),
            oemid: outcome.oemid.clone(),
            ueid: outcome.ueid.clone(),
            arch_check: outcome.arch_check,
            driver_version: outcome.driver_version.clone(),
            firmware_version: outcome.firmware_version.clone(),
            warning: outcome.warning.clone(),
            report_parsed: outcome.report_parsed,
            report_signature_verified: outcome.signature_verified,
            nonce_match: outcome.nonce_match,
        }
    }
}

impl Serialize for SharedClaims {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let names = self.names;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("eat_nonce", &self.eat_nonce)?;
        map.serialize_entry("measres", self.measres)?;
        map.serialize_entry("secboot", &self.secboot)?;
        map.serialize_entry("dbgstat", &self.dbgstat)?;
        map.serialize_entry("hwmodel", &self.hwmodel)?;
        if names.gpu {
            map.serialize_entry("oemid", &self.oemid)?;
        }
        map.serialize_entry("ueid", &self.ueid)?;
        map.serialize_entry(names.arch_check, &self.arch_check)?;
        if names.gpu {
            map.serialize_entry("x-nvidia-gpu-driver-version", &self.driver_version)?;
        }
        map.serialize_entry(names.firmware_version, &self.firmware_version)?;
        if names.gpu {
            map.serialize_entry("x-nvidia-attestation-warning", &self.warning)?;
        }
        map.serialize_entry(names.report_parsed, &self.report_parsed)?;
        map.serialize_entry(
            names.report_signature_verified,
            &self.report_signature_verified,
        )?;
        map.serialize_entry(names.nonce_match, &self.nonce_match)?;
        map.end()
    }
}

/// The names of the checks of one RIM.
#[derive(Debug, PartialEq, Eq)]
pub struct RimNames {
    fetched: &'static str,
    schema_validated: &'static str,
    /// Claims 1.0 only: there the chain's check sits among the RIM's.
    cert_validated: Option<&'static str>,
    signature_verified: &'static str,
    measurements_available: &'static str,
}

macro_rules! rim_names {
    ($name:ident, $prefix:literal, 1.0, $measurements:literal) => {
        #[doc = concat!("`", $prefix, "*` of claims 1.0.")]
        pub(super) const $name: RimNames = RimNames {
            fetched: concat!($prefix, "schema-fetched"),
            schema_validated: concat!($prefix, "schema-validated"),
            cert_validated: Some(concat!($prefix, "cert-validated")),
            signature_verified: concat!($prefix, "signature-verified"),
            measurements_available: concat!($prefix, $measurements),
        };
    };
    ($name:ident, $prefix:literal) => {
        #[doc = concat!("`", $prefix, "*` of claims 2.0 and later.")]
        pub(super) const $name: RimNames = RimNames {
            fetched: concat!($prefix, "fetched"),
            schema_validated: concat!($prefix, "schema-validated"),
            cert_validated: None,
            signature_verified: concat!($prefix, "signature-verified"),
            measurements_available: concat!($prefix, "measurements-available"),
        };
    };
}

rim_names!(
    GPU_DRIVER_1_0,
    "x-nvidia-gpu-driver-rim-",
    1.0,
    "measurements-available"
);
// The V1 single token's grouped result names the driver's measurements twice over.
rim_names!(
    GPU_DRIVER_1_0_GROUPED,
    "x-nvidia-gpu-driver-rim-",
    1.0,
    "driver-measurements-available"
);
rim_names!(
    GPU_VBIOS_1_0,
    "x-nvidia-gpu-vbios-rim-",
    1.0,
    "measurements-available"
);
rim_names!(GPU_DRIVER, "x-nvidia-gpu-driver-rim-");
rim_names!(GPU_VBIOS, "x-nvidia-gpu-vbios-rim-");
// Switch claims 1.0 keep the GPU's `vbios` word for the switch's BIOS RIM.
rim_names!(
    SWITCH_BIOS_1_0,
    "x-nvidia-switch-vbios-rim-",
    1.0,
    "measurements-available"
);
rim_names!(SWITCH_BIOS, "x-nvidia-switch-bios-rim-");

/// The checks of one RIM (driver, VBIOS, or the switch's BIOS): found, schema, (1.0) signing
/// chain, signature, measurements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RimClaims {
    /// The names to write.
    pub names: &'static RimNames,
    /// The document was found.
    pub fetched: bool,
    /// It parsed as a SWID RIM.
    pub schema_validated: Option<bool>,
    /// Its signing chain verified, expired or not (written by claims 1.0 only).
    pub cert_validated: Option<bool>,
    /// Its signature verified.
    pub signature_verified: Option<bool>,
    /// It holds measurements.
    pub measurements_available: Option<bool>,
}

impl RimClaims {
    /// The checks of `rim` (`None`: the RIM was not looked for), to be written with `names`.
    pub fn new(rim: Option<&RimOutcome>, names: &'static RimNames) -> Self {
        Self {
            names,
            fetched: rim.is_some_and(|rim| rim.fetched),
            schema_validated: rim.and_then(|rim| rim.schema_validated),
            cert_validated: rim.and_then(RimOutcome::cert_validated),
            signature_verified: rim.and_then(|rim| rim.signature_verified),
            measurements_available: rim.and_then(|rim| rim.measurements_available),
        }
    }

    /// The same checks written with other names.
    pub fn named(self, names: &'static RimNames) -> Self {
        Self { names, ..self }
    }
}

impl Serialize for RimClaims {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let names = self.names;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry(names.fetched, &self.fetched)?;
        map.serialize_entry(names.schema_validated, &self.schema_validated)?;
        if let Some(name) = names.cert_validated {
            map.serialize_entry(name, &self.cert_validated)?;
        }
        map.serialize_entry(names.signature_verified, &self.signature_verified)?;
        map.serialize_entry(names.measurements_available, &self.measurements_available)?;
        map.end()
    }
}
