//! Claims → AR4SI trustworthiness vector: the table of the module documentation, one row
//! each. A key's value is the worst (highest) any row gives it.

use alloc::string::String;

use serde_json::{Map, Value};

use super::TrustVector;

/// The V1 single token groups its checks under this member.
const DETAILED_RESULT: &str = "x-nvidia-attestation-detailed-result";

/// `measres` values that mean the comparison succeeded (2.0+ and 1.0).
const MEASRES_SUCCESS: [&str; 2] = ["success", "comparison-successful"];

/// The AR4SI keys written here.
#[derive(Clone, Copy)]
enum Key {
    Identity,
    Configuration,
    Executables,
    Hardware,
}

/// The trustworthiness vector the claims of one device token support (see the module
/// documentation's table); empty when they hold none of the claims it reads.
pub fn trust_vector(claims: &Map<String, Value>) -> TrustVector {
    let mut vector = TrustVector::default();
    let detailed = claims.get(DETAILED_RESULT).and_then(Value::as_object);
    let mut chain_valid = None;
    let mut arch_ok = None;
    for (name, value) in claims.iter().chain(detailed.into_iter().flatten()) {
        let flag = value.as_bool();
        let failed = flag == Some(false);
        let device = |suffix: &str| name.starts_with("x-nvidia-") && name.ends_with(suffix);
        if device("-attestation-report-signature-verified") {
            set(
                &mut vector,
                Key::Identity,
                if failed { 99 } else { 2 },
                flag,
            );
        } else if device("-attestation-report-parsed") || device("-nonce-match") {
            let bad = if device("-nonce-match") { 99 } else { 1 };
            if failed {
                set(&mut vector, Key::Identity, bad, flag);
            }
        } else if device("-attestation-report-cert-chain") {
            let (status, ocsp) = chain(value);
            chain_valid = status.map(|s| s == "valid");
            let revoked = status == Some("revoked") || ocsp == Some("revoked");
            let value = match status {
                _ if revoked => Some(96),
                Some("invalid") => Some(97),
                Some("expired") => Some(32),
                Some(_) if ocsp == Some("unknown") => Some(32),
                _ => None,
            };
            if let Some(v) = value {
                set(&mut vector, Key::Identity, v, Some(true));
            }
            let hardware = match status {
                _ if revoked => Some(96),
                Some("invalid") => Some(97),
                _ => None,
            };
            if let Some(v) = hardware {
                set(&mut vector, Key::Hardware, v, Some(true));
            }
        } else if device("-attestation-report-cert-chain-validated") {
            if failed {
                set(&mut vector, Key::Identity, 97, flag);
                set(&mut vector, Key::Hardware, 97, flag);
            } else if flag == Some(true) {
                chain_valid = Some(true);
            }
        } else if device("-cert-chain-fwid-match") {
            if failed {
                set(&mut vector, Key::Identity, 96, flag);
            }
        } else if device("-arch-check") {
            arch_ok = flag;
            if failed {
                set(&mut vector, Key::Hardware, 97, flag);
            }
        } else if device("-rim-cert-chain") {
            let (status, ocsp) = chain(value);
            let value = match status {
                _ if status == Some("revoked") || ocsp == Some("revoked") => Some(96),
                Some("invalid") => Some(99),
                Some("expired") => Some(32),
                Some(_) if ocsp == Some("unknown") => Some(32),
                _ => None,
            };
            if let Some(v) = value {
                set(&mut vector, Key::Executables, v, Some(true));
            }
        } else if device("-rim-cert-validated") || device("-rim-signature-verified") {
            if failed {
                set(&mut vector, Key::Executables, 99, flag);
            }
        } else if device("-rim-fetched")
            || device("-rim-schema-fetched")
            || device("-rim-schema-validated")
            || device("-rim-measurements-available")
            || device("-rim-driver-measurements-available")
        {
            if failed {
                set(&mut vector, Key::Executables, 33, flag);
            }
        } else if device("-rim-version-match") || device("-vbios-index-no-conflict") {
            set(
                &mut vector,
                Key::Configuration,
                if failed { 96 } else { 2 },
                flag,
            );
        } else if device("-measurements-match") {
            set(
                &mut vector,
                Key::Executables,
                if failed { 33 } else { 2 },
                flag,
            );
        } else if name == "measres" {
            if let Some(measres) = value.as_str() {
                let ok = MEASRES_SUCCESS.contains(&measres);
                set(
                    &mut vector,
                    Key::Executables,
                    if ok { 2 } else { 33 },
                    Some(true),
                );
            }
        } else if name == "x-nvidia-mismatch-measurement-records"
            || name == "x-nvidia-mismatch-indexes"
        {
            if value.as_array().is_some_and(|a| !a.is_empty()) {
                set(&mut vector, Key::Executables, 33, Some(true));
            }
        } else if name == "x-nvidia-mismatch-opaque-data-records" {
            if value.as_array().is_some_and(|a| !a.is_empty()) {
                set(&mut vector, Key::Executables, 32, Some(true));
            }
        } else if name == "secboot" {
            set(
                &mut vector,
                Key::Configuration,
                if failed { 96 } else { 2 },
                flag,
            );
        } else if name == "dbgstat" {
            if let Some(status) = value.as_str() {
                let v = if status == "disabled" { 2 } else { 96 };
                set(&mut vector, Key::Configuration, v, Some(true));
            }
        }
    }
    // Genuine hardware: the architecture the request named, on a chain to NVIDIA's root.
    if arch_ok == Some(true) {
        let v = match chain_valid {
            Some(true) => Some(2),
            Some(false) => Some(32),
            None => None,
        };
        if let Some(v) = v {
            set(&mut vector, Key::Hardware, v, Some(true));
        }
    }
    vector
}

/// A certificate-chain claim's `x-nvidia-cert-status` and `x-nvidia-cert-ocsp-status`.
fn chain(value: &Value) -> (Option<&str>, Option<&str>) {
    let get = |name: &str| value.get(name).and_then(Value::as_str);
    (
        get("x-nvidia-cert-status"),
        get("x-nvidia-cert-ocsp-status"),
    )
}

/// Raises `key` to `value` when the claim is present (`present`: `Some`; a `null` claim was
/// not computed and says nothing).
fn set(vector: &mut TrustVector, key: Key, value: i8, present: Option<bool>) {
    if present.is_none() {
        return;
    }
    let slot = match key {
        Key::Identity => &mut vector.instance_identity,
        Key::Configuration => &mut vector.configuration,
        Key::Executables => &mut vector.executables,
        Key::Hardware => &mut vector.hardware,
    };
    *slot = Some(slot.map_or(value, |old| old.max(value)));
}
