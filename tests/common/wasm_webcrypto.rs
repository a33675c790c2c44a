//! The core's two-phase verifications with the host's WebCrypto as the ECDSA backend, in the
//! JS engine under test (Node, Chromium, Firefox): the signature checks the core hands out
//! are run by the package's own `runSignatureChecks` (`src/js/webcrypto.js`, on
//! `crypto.subtle`), their verdicts go back into the core, and every fixture must end with
//! the verdict of `tests/common/verdicts.rs` — the same as the software backend's, which
//! each test also runs. The Wycheproof P-384 vectors go through `crypto.subtle` directly.

use edgeattest::attest::{Arch, FwidPolicy, Nonce};
use edgeattest::chain::{parse_pem_chain, ChainOptions, ChainPlan, ChainStatus, TrustStore};
use edgeattest::crypto::SignatureCheck;
use edgeattest::evidence::{BatchPlan, DeviceInput, VerifyContext};
use edgeattest::rim::{prepare_rim, verify_rim, RimTrust};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use js_sys::{Array, Object, Reflect, Uint8Array};
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::fixture_files::{bytes, files_in, text};
use crate::verdicts::{
    rim_verdict, CHAINS, CHAINS_REFUSED, EVIDENCE_REFUSED, EVIDENCE_VALID, NOW, RIM_COUNTS,
    RIM_DIRS, RIM_NOW,
};

#[wasm_bindgen(module = "/src/js/webcrypto.js")]
extern "C" {
    /// The package's WebCrypto backend: `[{publicKey, message, signature}]` → `boolean[]`.
    #[wasm_bindgen(js_name = runSignatureChecks)]
    fn run_signature_checks(checks: &Array) -> js_sys::Promise;
}

fn check_object(check: &SignatureCheck) -> JsValue {
    let object = Object::new();
    for (name, value) in [
        ("publicKey", &check.public_key_sec1),
        ("message", &check.message),
        ("signature", &check.signature),
    ] {
        Reflect::set(&object, &name.into(), &Uint8Array::from(value.as_slice())).unwrap();
    }
    object.into()
}

/// The verdicts of `crypto.subtle` for `checks`, in order.
async fn webcrypto(checks: &[SignatureCheck]) -> Vec<bool> {
    let array: Array = checks.iter().map(check_object).collect();
    let result = JsFuture::from(run_signature_checks(&array)).await.unwrap();
    let verdicts: Vec<bool> = Array::from(&result)
        .iter()
        .map(|v| v.as_bool().unwrap())
        .collect();
    assert_eq!(verdicts.len(), checks.len());
    verdicts
}

fn software(checks: &[SignatureCheck]) -> Vec<bool> {
    checks.iter().map(|c| c.verify().is_ok()).collect()
}

fn nvidia(path: &str) -> &'static str {
    text(&format!("nvidia/{path}"))
}

fn hex_file(path: &str) -> Vec<u8> {
    hex::decode(nvidia(path).trim()).unwrap()
}

fn vectors(name: &str) -> Value {
    serde_json::from_slice(bytes(&format!("vectors/wycheproof/{name}"))).unwrap()
}

fn hex_field(value: &Value) -> Vec<u8> {
    hex::decode(value.as_str().unwrap()).unwrap()
}

/// The core's gate before any backend (JWS, evidence, certificates): 96 bytes, r and s in
/// [1, n−1]. Hosts differ outside it — Firefox's WebCrypto verifies the 2-byte signature
/// `0201` of Wycheproof tcId 153 as r = 2, s = 1 — so the core never hands them such a one.
fn passes_the_core_gate(signature: &[u8]) -> bool {
    signature.len() == 96 && p384::ecdsa::Signature::from_slice(signature).is_ok()
}

#[wasm_bindgen_test]
async fn wycheproof_p1363_vectors_through_webcrypto() {
    let file = vectors("ecdsa_secp384r1_sha384_p1363_test.json");
    let (mut checks, mut expected, mut gated) = (Vec::new(), Vec::new(), 0);
    for group in file["testGroups"].as_array().unwrap() {
        let key = hex_field(&group["publicKey"]["uncompressed"]);
        for test in group["tests"].as_array().unwrap() {
            let check = SignatureCheck {
                public_key_sec1: key.clone(),
                message: hex_field(&test["msg"]),
                signature: hex_field(&test["sig"]),
            };
            let valid = test["result"] == "valid";
            if passes_the_core_gate(&check.signature) {
                checks.push(check);
                expected.push((test["tcId"].as_u64().unwrap(), valid));
            } else {
                // The gate never drops a valid signature.
                assert!(!valid, "tcId {}", test["tcId"]);
                assert!(check.verify().is_err());
                gated += 1;
            }
        }
    }
    let verdicts = webcrypto(&checks).await;
    let ours = software(&checks);
    let wrong: Vec<String> = expected
        .iter()
        .zip(verdicts.iter().zip(&ours))
        .filter(|((_, valid), (webcrypto, software))| *webcrypto != valid || *software != valid)
        .map(|((id, valid), (webcrypto, software))| {
            format!("tcId {id}: expected {valid}, WebCrypto {webcrypto}, software {software}")
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
    let valid = expected.iter().filter(|(_, v)| *v).count();
    // 193 valid and 18 invalid signatures reach WebCrypto; 69 stop at the gate.
    assert_eq!((valid, checks.len() - valid, gated), (193, 18, 69));
}

#[wasm_bindgen_test]
async fn jwts_through_webcrypto_and_malformed_signatures_never_reach_it() {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    use edgeattest::crypto::SigningKey;
    use edgeattest::token::{
        prepare_jwt, sign_jwt, Jwks, JwksKey, Signers, TokenError, VerifyOptions,
    };
    let key = SigningKey::generate(&[7u8; 48]).unwrap();
    let jwks = Jwks::new(vec![JwksKey::new(Some("k".into()), key.public_key())]).unwrap();
    let now = 1_782_698_883;
    let claims = serde_json::json!({"iss": "https://issuer.example", "iat": now, "exp": now + 60, "eat_nonce": "n"});
    let token = sign_jwt(&claims, &key, "k").unwrap();
    let options = VerifyOptions::new().signers(Signers::Any);
    let prepared = prepare_jwt(&token, &jwks, &options, UnixTime::from_secs(now).unwrap()).unwrap();
    let verdict = webcrypto(prepared.signature_checks()).await;
    assert_eq!(verdict, [true]);
    let jwt = prepared.finish(&verdict).unwrap();
    assert_eq!(jwt.claim("eat_nonce").unwrap(), "n");
    // Another payload under the same signature: WebCrypto says false, the core refuses.
    let (head, rest) = token.split_once('.').unwrap();
    let signature = rest.split_once('.').unwrap().1;
    let other = URL_SAFE_NO_PAD.encode(br#"{"iss":"https://issuer.example","eat_nonce":"m"}"#);
    let forged = format!("{head}.{other}.{signature}");
    let prepared =
        prepare_jwt(&forged, &jwks, &options, UnixTime::from_secs(now).unwrap()).unwrap();
    let verdict = webcrypto(prepared.signature_checks()).await;
    assert_eq!(verdict, [false]);
    assert_eq!(
        prepared.finish(&verdict).unwrap_err(),
        TokenError::SignatureVerificationFailed
    );
    // Wycheproof tcId 153's signature (`0201`) and an all-zero one never become a check.
    for bad in [&[2u8, 1][..], &[0u8; 96][..]] {
        let token = format!(
            "{head}.{}.{}",
            rest.split_once('.').unwrap().0,
            URL_SAFE_NO_PAD.encode(bad)
        );
        assert_eq!(
            prepare_jwt(&token, &jwks, &options, UnixTime::from_secs(now).unwrap()).unwrap_err(),
            TokenError::SignatureMalformed
        );
    }
}

#[wasm_bindgen_test]
async fn wycheproof_der_vectors_through_webcrypto_once_converted() {
    let file = vectors("ecdsa_secp384r1_sha384_test.json");
    let (mut checks, mut ids, mut total) = (Vec::new(), Vec::new(), 0);
    for group in file["testGroups"].as_array().unwrap() {
        let key = hex_field(&group["publicKey"]["uncompressed"]);
        for test in group["tests"].as_array().unwrap() {
            total += 1;
            let der = hex_field(&test["sig"]);
            // A DER signature is never an ES384 one: only strictly decoded ones are converted.
            match p384::ecdsa::Signature::from_der(&der) {
                Ok(sig) => {
                    checks.push(SignatureCheck {
                        public_key_sec1: key.clone(),
                        message: hex_field(&test["msg"]),
                        signature: sig.to_bytes().to_vec(),
                    });
                    ids.push((test["tcId"].as_u64().unwrap(), test["result"] == "valid"));
                }
                Err(_) => assert_ne!(test["result"], "valid", "tcId {}", test["tcId"]),
            }
        }
    }
    let verdicts = webcrypto(&checks).await;
    assert_eq!(verdicts, software(&checks));
    for ((id, valid), verdict) in ids.iter().zip(&verdicts) {
        assert_eq!(verdict, valid, "tcId {id}");
    }
    assert_eq!((total, verdicts.iter().filter(|v| **v).count()), (504, 194));
}

#[wasm_bindgen_test]
async fn webcrypto_refuses_what_is_not_a_p384_signature() {
    let file = vectors("ecdsa_secp384r1_sha384_p1363_test.json");
    let group = &file["testGroups"][0];
    let test = group["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["result"] == "valid")
        .unwrap();
    let good = SignatureCheck {
        public_key_sec1: hex_field(&group["publicKey"]["uncompressed"]),
        message: hex_field(&test["msg"]),
        signature: hex_field(&test["sig"]),
    };
    let mut flipped = good.clone();
    flipped.signature[95] ^= 1;
    let mut off_curve = good.clone();
    off_curve.public_key_sec1[96] ^= 1;
    let mut other_message = good.clone();
    other_message.message.push(0);
    let checks = [good, flipped, off_curve, other_message];
    assert_eq!(webcrypto(&checks).await, [true, false, false, false]);
    assert_eq!(software(&checks), [true, false, false, false]);
}

fn context<'s>(store: &'s TrustStore, arch: Arch, nonce: &str) -> VerifyContext<'s> {
    VerifyContext {
        arch,
        nonce: Nonce::parse(nonce).unwrap(),
        now: UnixTime::from_secs(NOW).unwrap(),
        trust_store: store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    }
}

#[wasm_bindgen_test]
async fn every_evidence_fixture_verdict_through_webcrypto() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    for (report, chain, arch, nonce, driver, vbios, _) in EVIDENCE_VALID {
        let evidence = hex_file(report);
        let input = [DeviceInput {
            evidence: &evidence,
            certificate_pem: nvidia(chain),
        }];
        let plan = BatchPlan::new(&input, &context(&store, arch, nonce));
        // The evidence signature and the four links of the chain.
        assert_eq!(plan.signature_checks().len(), 5, "{report}");
        let verdicts = webcrypto(plan.signature_checks()).await;
        assert_eq!(verdicts, [true; 5], "{report}");
        let device = plan.clone().finish(&verdicts).unwrap().remove(0);
        let device = device.unwrap_or_else(|e| panic!("{report}: {e}"));
        assert_eq!(device.driver_version(), driver, "{report}");
        assert_eq!(device.vbios_version(), vbios, "{report}");
        assert_eq!(device.chain_status(), ChainStatus::Valid);
        assert!(device.signature_verified() && device.nonce_match());
        let software = plan.verify().remove(0).unwrap();
        assert_eq!(software.ueid(), device.ueid(), "{report}");
    }
    for (report, chain, arch, nonce, code) in EVIDENCE_REFUSED {
        let evidence = hex_file(report);
        let input = [DeviceInput {
            evidence: &evidence,
            certificate_pem: nvidia(chain),
        }];
        let plan = BatchPlan::new(&input, &context(&store, arch, nonce));
        let verdicts = webcrypto(plan.signature_checks()).await;
        assert_eq!(verdicts, software(plan.signature_checks()), "{report}");
        let err = plan.finish(&verdicts).unwrap().remove(0).unwrap_err();
        assert_eq!(err.code(), code, "{report}");
    }
}

#[wasm_bindgen_test]
async fn a_tampered_report_fails_through_webcrypto() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let (report, chain, arch, nonce, ..) = EVIDENCE_VALID[0];
    let mut evidence = hex_file(report);
    let last = evidence.len() - 1;
    evidence[last] ^= 1; // inside s of the report signature
    let input = [DeviceInput {
        evidence: &evidence,
        certificate_pem: nvidia(chain),
    }];
    let plan = BatchPlan::new(&input, &context(&store, arch, nonce));
    let verdicts = webcrypto(plan.signature_checks()).await;
    assert_eq!(verdicts.iter().filter(|v| !**v).count(), 1);
    let err = plan.finish(&verdicts).unwrap().remove(0).unwrap_err();
    assert_eq!(err.code(), "ERR_EVIDENCE_SIGNATURE");
}

#[wasm_bindgen_test]
async fn an_eight_gpu_set_through_webcrypto_checks_shared_links_once() {
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD;
    let items: Value = serde_json::from_str(nvidia(
        "evidence/serialized/nvtrust_ppcie_gpu_evidence_8gpu.json",
    ))
    .unwrap();
    let decoded: Vec<(Vec<u8>, String)> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let pem = b64.decode(item["certificate"].as_str().unwrap()).unwrap();
            (
                b64.decode(item["evidence"].as_str().unwrap()).unwrap(),
                String::from_utf8(pem).unwrap(),
            )
        })
        .collect();
    let inputs: Vec<DeviceInput<'_>> = decoded
        .iter()
        .map(|(evidence, pem)| DeviceInput {
            evidence,
            certificate_pem: pem,
        })
        .collect();
    let store = TrustStore::nvidia_device_identity().unwrap();
    let nonce = items[0]["nonce"].as_str().unwrap();
    let plan = BatchPlan::new(&inputs, &context(&store, Arch::Hopper, nonce));
    assert_eq!(plan.signature_checks().len(), 8 * 3 + 2);
    let verdicts = webcrypto(plan.signature_checks()).await;
    assert!(verdicts.iter().all(|v| *v));
    let devices = plan.finish(&verdicts).unwrap();
    assert_eq!(devices.len(), 8);
    assert!(devices.iter().all(Result::is_ok));
}

#[wasm_bindgen_test]
async fn every_device_chain_verdict_through_webcrypto() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    for (path, hwmodel) in CHAINS {
        let ders = parse_pem_chain(nvidia(path)).unwrap();
        let plan = ChainPlan::new(
            &ders,
            &store,
            UnixTime::from_secs(NOW).unwrap(),
            &ChainOptions::default(),
        )
        .unwrap();
        let verdicts = webcrypto(plan.signature_checks()).await;
        assert_eq!(verdicts, [true; 4], "{path}");
        let chain = plan.finish(&verdicts).unwrap();
        assert_eq!(chain.hwmodel(), Some(hwmodel), "{path}");
        assert_eq!(chain.status(), ChainStatus::Valid);
        // A flipped byte inside s of each link: WebCrypto refuses exactly that link.
        for link in 0..4 {
            let mut tampered = ders.clone();
            let n = tampered[link].len();
            tampered[link][n - 3] ^= 0x01;
            let plan = ChainPlan::new(
                &tampered,
                &store,
                UnixTime::from_secs(NOW).unwrap(),
                &ChainOptions::default(),
            )
            .unwrap();
            let verdicts = webcrypto(plan.signature_checks()).await;
            let failed: Vec<usize> = (0..4).filter(|i| !verdicts[*i]).collect();
            assert_eq!(failed, [link], "{path} link {link}");
            assert_eq!(
                plan.finish(&verdicts).unwrap_err().code(),
                "ERR_CHAIN_SIGNATURE_INVALID"
            );
        }
    }
    for (path, code) in CHAINS_REFUSED {
        let ders = parse_pem_chain(nvidia(path)).unwrap();
        let err = ChainPlan::new(
            &ders,
            &store,
            UnixTime::from_secs(NOW).unwrap(),
            &ChainOptions::default(),
        )
        .unwrap_err();
        assert_eq!(err.code(), code, "{path}");
    }
}

#[wasm_bindgen_test]
async fn every_rim_fixture_verdict_through_webcrypto() {
    let trust = RimTrust::nvidia();
    let (mut total, mut verified) = (0, 0);
    for dir in RIM_DIRS {
        for path in files_in(&format!("nvidia/{dir}")) {
            if !(path.ends_with(".xml") || path.ends_with(".swidtag")) {
                continue;
            }
            total += 1;
            let name = path.trim_start_matches("nvidia/");
            let xml = bytes(path);
            // The digest is the core's; the ECDSA checks are WebCrypto's.
            let result = match prepare_rim(xml, &trust, UnixTime::from_secs(RIM_NOW).unwrap()) {
                Ok(pending) => {
                    let verdicts = webcrypto(pending.signature_checks()).await;
                    assert_eq!(verdicts, software(pending.signature_checks()), "{name}");
                    pending.finish(&verdicts)
                }
                Err(err) => Err(err),
            };
            match (rim_verdict(name), result) {
                (Ok(()), Ok(rim)) => {
                    assert_eq!(
                        rim,
                        verify_rim(xml, &trust, UnixTime::from_secs(RIM_NOW).unwrap()).unwrap(),
                        "{name}"
                    );
                    verified += 1;
                }
                (Err(code), Err(err)) => assert_eq!(err.code(), code, "{name}"),
                (want, got) => panic!("{name}: expected {want:?}, got {got:?}"),
            }
        }
    }
    assert_eq!((total, verified), RIM_COUNTS);
}
