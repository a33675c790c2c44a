//! EARs against Veraison's own library (`ear` 0.6.0 for -04, 0.5.0 for the veraison profile),
//! through `ear-interop` (pkg-config/ear-interop, installed by pkg-config/setup.sh): for every
//! recorded attestation of the suite, the EARs we write (veraison JWT, -04 JWT, -04 CWT) read
//! by the library give the same status, trust vectors, submodules, policy ids and nonce; and
//! the EARs the library signs from our claims read the same through our verifier.
//!
//! Without the tool (`$CARGO_HOME/bin/ear-interop`, or `EDGEATTEST_EAR_INTEROP`) the tests
//! say so and pass, unless `CI` or `EDGEATTEST_EAR_INTEROP_REQUIRED` is set: then its absence
//! fails them (pkg-config/test.sh's ear-interop stage sets the latter).
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use edgeattest::crypto::SigningKey;
use edgeattest::ear::{verify_ear, verify_ear_cwt, Ear, EarAppraisal, EarDialect};
use edgeattest::token::Signers;
use edgeattest::token::{assemble_jws, VerifiedAttestationResult, VerifyOptions};
use edgeattest::UnixTime;
use serde_json::{json, Value};

use crate::policy::signed::{jwks, key, recorded, resigned, KID};

/// The tool, or `None` (with a message) when it is absent and not required.
fn tool() -> Option<PathBuf> {
    // setup.sh installs it beside the other cargo tools.
    let cargo_home = || {
        std::env::var_os("CARGO_HOME").map_or_else(
            || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo"),
            PathBuf::from,
        )
    };
    let path = std::env::var_os("EDGEATTEST_EAR_INTEROP")
        .map_or_else(|| cargo_home().join("bin/ear-interop"), PathBuf::from);
    if path.is_file() {
        return Some(path);
    }
    let required = std::env::var_os("CI").is_some()
        || std::env::var_os("EDGEATTEST_EAR_INTEROP_REQUIRED").is_some();
    assert!(
        !required,
        "{} is missing: run `bash pkg-config/setup.sh` (it builds ear-interop)",
        path.display()
    );
    eprintln!(
        "SKIPPED: {} is missing (run `bash pkg-config/setup.sh`); the differential EAR test did not run",
        path.display()
    );
    None
}

fn run(tool: &PathBuf, args: &[&str], input: &[u8]) -> Result<Value, String> {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.success() {
        Ok(serde_json::from_slice(&out.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The test key as the tool reads it: the private key as PKCS#8 PEM, the public key as JWK.
fn key_files() -> (tempfile_path::Path, tempfile_path::Path) {
    let pem = tempfile_path::Path::new("key.pem", key().to_pkcs8_pem().as_bytes());
    let jwk = serde_json::to_vec(&key().public_key().to_jwk(None)).unwrap();
    (pem, tempfile_path::Path::new("key.jwk", &jwk))
}

/// Files for the tool in the temporary directory, removed when dropped.
mod tempfile_path {
    pub(super) struct Path(pub(super) std::path::PathBuf);

    impl Path {
        pub(super) fn new(name: &str, bytes: &[u8]) -> Self {
            static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir =
                std::env::temp_dir().join(format!("edgeattest-ear-interop-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("{n}-{name}"));
            std::fs::write(&path, bytes).unwrap();
            Self(path)
        }

        pub(super) fn arg(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }

    impl Drop for Path {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// Every recorded attestation of the suite, as verified results: NVAT detached results
/// (re-signed), NRAS recordings (1 and 8 GPUs, and a refused one), and a failing device.
fn fixtures() -> Vec<(&'static str, VerifiedAttestationResult)> {
    vec![
        ("hopperClaimsv3", resigned("hopperClaimsv3", |_| {})),
        ("switch", resigned("switch", |_| {})),
        (
            "v3_1gpu_success_20260629",
            recorded("v3_1gpu_success_20260629"),
        ),
        (
            "v3_8gpu_success_20260629",
            recorded("v3_8gpu_success_20260629"),
        ),
        (
            "v3_8gpu_nonce_mismatch_20260520",
            recorded("v3_8gpu_nonce_mismatch_20260520"),
        ),
        (
            "hopperClaimsv3 secboot off",
            resigned("hopperClaimsv3", |claims| {
                claims.insert("secboot".into(), json!(false));
            }),
        ),
    ]
}

/// The fixture's EARs: as written, and with a policy id on every submodule.
fn ears(result: &VerifiedAttestationResult) -> Vec<Ear> {
    let plain = Ear::from_result(result, None, 1_800_000_000);
    let with_policy: Vec<(String, EarAppraisal)> = plain
        .submods()
        .iter()
        .map(|(label, appraisal)| {
            let mut appraisal = appraisal.clone();
            appraisal.policy_ids = vec!["tag:github.com,2026:edgeattest/policy/test".into()];
            (label.clone(), appraisal)
        })
        .collect();
    let nonce = plain.nonce().map(str::to_owned);
    vec![plain, Ear::new(1_800_000_000, nonce, with_policy)]
}

fn signed_jwt(ear: &Ear, key: &SigningKey) -> String {
    let input = ear.signing_input(KID).unwrap();
    assemble_jws(&input, &key.sign(input.as_bytes())).unwrap()
}

/// What the library read, in our model's terms: (status, per submodule (label, status,
/// vector, policy ids), nonce as hex or verbatim text).
fn summary_of_library(ear: &Value, dialect: EarDialect) -> Value {
    let (status, vector, policy) = match dialect {
        EarDialect::Veraison => (
            "ear.status",
            "ear.trustworthiness-vector",
            "ear.appraisal-policy-id",
        ),
        _ => (
            "ear_status",
            "ear_trustworthiness_vector",
            "ear_appraisal_policy_ids",
        ),
    };
    let submods: Vec<Value> = ear["submods"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(label, a)| {
            let policies = match &a[policy] {
                Value::Null => json!([]),
                Value::String(one) => json!([one]),
                many => many.clone(),
            };
            json!([
                label,
                a[status],
                a.get(vector).cloned().unwrap_or(json!({})),
                policies
            ])
        })
        .collect();
    let nonce = match (&ear["eat_nonce"], dialect) {
        (Value::String(text), EarDialect::Veraison) => json!(text),
        (Value::String(b64), _) => json!(hex::encode(URL_SAFE_NO_PAD.decode(b64).unwrap())),
        (other, _) => other.clone(),
    };
    json!({"submods": submods, "nonce": nonce})
}

fn summary_of_ours(ear: &Ear) -> Value {
    let mut submods: Vec<Value> = ear
        .submods()
        .iter()
        .map(|(label, a)| {
            let vector = a
                .vector
                .as_ref()
                .map_or(json!({}), |v| serde_json::to_value(v).unwrap());
            json!([label, a.status.as_str(), vector, a.policy_ids])
        })
        .collect();
    // The library keeps submodules in a sorted map.
    submods.sort_by_key(|s| s[0].as_str().unwrap().to_owned());
    json!({"submods": submods, "nonce": ear.nonce()})
}

#[test]
fn veraisons_library_reads_our_ears_as_we_wrote_them() {
    let Some(tool) = tool() else { return };
    let (_, jwk) = key_files();
    for (name, result) in fixtures() {
        for ear in ears(&result) {
            let old = signed_jwt(&ear, &key());
            let read = run(
                &tool,
                &["verify", "--jwk", jwk.arg(), "--old"],
                old.as_bytes(),
            )
            .unwrap_or_else(|e| panic!("{name} veraison JWT: {e}"));
            assert_eq!(read["encoding"], "jwt");
            assert_eq!(
                summary_of_library(&read["ear"], EarDialect::Veraison),
                summary_of_ours(&ear),
                "{name} veraison JWT"
            );
            let ear04 = ear.clone().into_dialect(EarDialect::Ietf04).unwrap();
            let jwt = signed_jwt(&ear04, &key());
            let read = run(&tool, &["verify", "--jwk", jwk.arg()], jwt.as_bytes())
                .unwrap_or_else(|e| panic!("{name} -04 JWT: {e}"));
            assert_eq!(
                summary_of_library(&read["ear"], EarDialect::Ietf04),
                summary_of_ours(&ear04),
                "{name} -04 JWT"
            );
            assert_eq!(read["ear"]["ear_status"], ear04.status().as_str(), "{name}");
            let input = ear04.cwt_to_be_signed(KID).unwrap();
            let cwt = input.assemble(&key().sign(input.to_be_signed())).unwrap();
            let read = run(
                &tool,
                &["verify", "--jwk", jwk.arg()],
                hex::encode(&cwt).as_bytes(),
            )
            .unwrap_or_else(|e| panic!("{name} -04 CWT: {e}"));
            assert_eq!(read["encoding"], "cwt");
            assert_eq!(
                summary_of_library(&read["ear"], EarDialect::Ietf04),
                summary_of_ours(&ear04),
                "{name} -04 CWT"
            );
            assert_eq!(read["ear"]["ear_status"], ear04.status().as_str(), "{name}");
        }
    }
}

#[test]
fn our_verifier_reads_the_ears_veraisons_library_signs() {
    let Some(tool) = tool() else { return };
    let (pem, _) = key_files();
    let at = UnixTime::from_secs(1_800_000_010).unwrap();
    for (name, result) in fixtures() {
        for ear in ears(&result) {
            let ear04 = ear.into_dialect(EarDialect::Ietf04).unwrap();
            let signed = run(
                &tool,
                &["sign", "--key", pem.arg()],
                ear04.to_json().as_bytes(),
            )
            .unwrap_or_else(|e| panic!("{name} sign: {e}"));
            let options = VerifyOptions::new()
                .signers(Signers::Any)
                .nonce(ear04.nonce().unwrap());
            let jwt = signed["jwt"].as_str().unwrap();
            let read = verify_ear(jwt, &jwks(), &options, at)
                .unwrap_or_else(|e| panic!("{name} library JWT: {e}"));
            // The library writes submodules sorted by label: compare as sets.
            assert_eq!(
                summary_of_ours(&read),
                summary_of_ours(&ear04),
                "{name} JWT"
            );
            assert_eq!(read.status(), ear04.status(), "{name}");
            assert_eq!(read.verifier_id(), ear04.verifier_id(), "{name}");
            let cwt = hex::decode(signed["cwt"].as_str().unwrap()).unwrap();
            let read = verify_ear_cwt(&cwt, &jwks(), &options, at)
                .unwrap_or_else(|e| panic!("{name} library CWT: {e}"));
            assert_eq!(
                summary_of_ours(&read),
                summary_of_ours(&ear04),
                "{name} CWT"
            );
            assert_eq!(read.status(), ear04.status(), "{name}");
        }
    }
}

#[test]
fn the_library_refuses_a_tampered_ear_of_ours() {
    let Some(tool) = tool() else { return };
    let (_, jwk) = key_files();
    let result = resigned("hopperClaimsv3", |_| {});
    let ear = Ear::from_result(&result, None, 1_800_000_000)
        .into_dialect(EarDialect::Ietf04)
        .unwrap();
    let jwt = signed_jwt(&ear, &key());
    let other = SigningKey::generate(&[0x47; 48]).unwrap();
    let forged = signed_jwt(&ear, &other);
    assert!(run(&tool, &["verify", "--jwk", jwk.arg()], jwt.as_bytes()).is_ok());
    assert!(run(&tool, &["verify", "--jwk", jwk.arg()], forged.as_bytes()).is_err());
    // A CWT under another key: the library panics on it; the tool reports an error.
    let input = ear.cwt_to_be_signed(KID).unwrap();
    let forged = input.assemble(&other.sign(input.to_be_signed())).unwrap();
    let error = run(
        &tool,
        &["verify", "--jwk", jwk.arg()],
        hex::encode(forged).as_bytes(),
    );
    assert!(error.is_err());
}
