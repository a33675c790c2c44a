//! `ear-interop`: Veraison's Rust `ear` library as a command, for edgeattest's differential EAR
//! test. Test-only; reads and signs ES384 EARs.
//!
//! ```text
//! ear-interop verify --jwk KEY.jwk [--old] < TOKEN    # JWT text, or CWT as hex (or raw bytes)
//! ear-interop sign --key KEY.pem < CLAIMS.json          # a -04 EAR's JSON claims
//! ```
//!
//! `verify` prints one JSON line `{"encoding": "jwt"|"cwt", "ear": <the EAR as the library
//! re-serialises it to JSON>}` (the -04 names; with `--old`, ear 0.5.0 and the veraison names),
//! or exits 1 with `error: …` on stderr. `sign` prints `{"jwt": "…", "cwt": "<hex>"}`.
//!
//! Traps of the library this works around:
//! - `Ear::from_cose_jwk` unwraps the COSE signature check and panics on a bad signature: the
//!   call runs under `catch_unwind` and a panic is reported as a verification error.
//! - Deserialising runs `validate()`, which compares `exp` with the real clock: sign claims
//!   without `exp` (or a far future one).
//! - Its CWT payload uses indefinite-length maps and insertion order (readers must accept them).

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn option<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|at| args.get(at + 1))
        .map(String::as_str)
}

fn stdin() -> Result<Vec<u8>, String> {
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .map_err(|e| format!("reading stdin: {e}"))?;
    Ok(input)
}

fn run(args: &[String]) -> Result<String, String> {
    let usage = "usage: ear-interop verify --jwk FILE [--old] < TOKEN | sign --key FILE.pem < CLAIMS";
    match args.first().map(String::as_str) {
        Some("verify") => {
            let jwk_path = option(args, "--jwk").ok_or(usage)?;
            let jwk = std::fs::read(jwk_path).map_err(|e| format!("{jwk_path}: {e}"))?;
            verify(&stdin()?, &jwk, args.iter().any(|a| a == "--old"))
        }
        Some("sign") => {
            let key_path = option(args, "--key").ok_or(usage)?;
            let key = std::fs::read(key_path).map_err(|e| format!("{key_path}: {e}"))?;
            sign(&stdin()?, &key)
        }
        _ => Err(usage.into()),
    }
}

fn verify(input: &[u8], jwk: &[u8], old: bool) -> Result<String, String> {
    let text = std::str::from_utf8(input).map(str::trim).ok();
    let jwt = text.filter(|t| t.starts_with("ey"));
    let (encoding, ear) = match (jwt, old) {
        (Some(token), false) => {
            let ear = ear::Ear::from_jwt_jwk(token, ear::Algorithm::ES384, jwk)
                .map_err(|e| e.to_string())?;
            ("jwt", serde_json::to_value(&ear).map_err(|e| e.to_string())?)
        }
        (Some(token), true) => {
            let ear = ear05::Ear::from_jwt_jwk(token, ear05::Algorithm::ES384, jwk)
                .map_err(|e| e.to_string())?;
            ("jwt", serde_json::to_value(&ear).map_err(|e| e.to_string())?)
        }
        (None, old) => {
            let bytes = match text.map(hex::decode) {
                Some(Ok(bytes)) => bytes,
                _ => input.to_vec(),
            };
            let json = std::panic::catch_unwind(|| {
                if old {
                    ear05::Ear::from_cose_jwk(&bytes, ear05::Algorithm::ES384, jwk)
                        .map_err(|e| e.to_string())
                        .and_then(|e| serde_json::to_value(&e).map_err(|e| e.to_string()))
                } else {
                    ear::Ear::from_cose_jwk(&bytes, ear::Algorithm::ES384, jwk)
                        .map_err(|e| e.to_string())
                        .and_then(|e| serde_json::to_value(&e).map_err(|e| e.to_string()))
                }
            })
            .map_err(|_| String::from("COSE signature did not verify (the library panicked)"))??;
            ("cwt", json)
        }
    };
    Ok(serde_json::json!({ "encoding": encoding, "ear": ear }).to_string())
}

fn sign(claims: &[u8], key: &[u8]) -> Result<String, String> {
    let ear: ear::Ear = serde_json::from_slice(claims).map_err(|e| e.to_string())?;
    let jwt = ear
        .sign_jwt_pem(ear::Algorithm::ES384, key)
        .map_err(|e| e.to_string())?;
    let cwt = ear
        .sign_cose_pem(ear::Algorithm::ES384, key)
        .map_err(|e| e.to_string())?;
    Ok(serde_json::json!({ "jwt": jwt, "cwt": hex::encode(cwt) }).to_string())
}
