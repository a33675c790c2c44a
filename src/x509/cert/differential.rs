//! The `der`-reader walks ([`super::tbs`], [`super::name`], [`super::general_name`]) against
//! x509-cert's derived decoders they replace: on every certificate of the fixtures and on
//! mutations of them, both accept the same inputs and give the same fields.

use alloc::vec::Vec;

use der::{Decode, DecodePem, Encode};
use x509_cert::certificate::TbsCertificate;
use x509_cert::ext::pkix::{AuthorityInfoAccessSyntax, AuthorityKeyIdentifier};
use x509_cert::Certificate;

use super::general_name::{access_descriptions, authority_key_id};
use super::tbs::Tbs;
use super::{AuthorityKeyId, AUTHORITY_INFO_ACCESS, AUTHORITY_KEY_ID};

/// The fields of both readings that `Cert::parse` uses, `None` when refused.
fn ours(der: &[u8]) -> Option<Vec<Vec<u8>>> {
    let tbs = Tbs::read(der).ok()?;
    let mut fields = alloc::vec![
        alloc::vec![tbs.version as u8],
        tbs.serial.as_bytes().to_vec(),
        tbs.signature.to_der().ok()?,
        tbs.issuer.der,
        tbs.validity.to_der().ok()?,
        tbs.subject.der,
        tbs.spki.to_der().ok()?,
    ];
    for ext in tbs.extensions {
        fields.push(ext.oid.as_bytes().to_vec());
        fields.push(alloc::vec![u8::from(ext.critical)]);
        fields.push(ext.value.to_vec());
    }
    Some(fields)
}

fn theirs(der: &[u8]) -> Option<Vec<Vec<u8>>> {
    let tbs = TbsCertificate::from_der(der).ok()?;
    let mut fields = alloc::vec![
        alloc::vec![tbs.version() as u8],
        tbs.serial_number().as_bytes().to_vec(),
        tbs.signature().to_der().ok()?,
        tbs.issuer().to_der().ok()?,
        tbs.validity().to_der().ok()?,
        tbs.subject().to_der().ok()?,
        tbs.subject_public_key_info().to_der().ok()?,
    ];
    for ext in tbs.extensions().map(Vec::as_slice).unwrap_or_default() {
        fields.push(ext.extn_id.as_bytes().to_vec());
        fields.push(alloc::vec![u8::from(ext.critical)]);
        fields.push(ext.extn_value.as_bytes().to_vec());
    }
    Some(fields)
}

fn aki_theirs(der: &[u8]) -> Option<AuthorityKeyId> {
    let aki = AuthorityKeyIdentifier::from_der(der).ok()?;
    Some(AuthorityKeyId {
        key_id: aki.key_identifier.map(|k| k.as_bytes().to_vec()),
        has_issuer_serial: aki.authority_cert_issuer.is_some()
            || aki.authority_cert_serial_number.is_some(),
    })
}

fn aia_theirs(der: &[u8]) -> Option<usize> {
    AuthorityInfoAccessSyntax::from_der(der)
        .ok()
        .map(|aia| aia.0.len())
}

/// Every byte flipped (three ways) and every truncation of `der`, and `der` itself.
fn mutations(der: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    let flips = (0..der.len()).flat_map(move |i| {
        [0x01u8, 0x80, 0xff].into_iter().map(move |x| {
            let mut m = der.to_vec();
            m[i] ^= x;
            m
        })
    });
    let cuts = (0..der.len()).map(move |n| der[..n].to_vec());
    core::iter::once(der.to_vec()).chain(flips).chain(cuts)
}

/// Every certificate (DER) under tests/fixtures.
fn fixture_certificates() -> Vec<Vec<u8>> {
    use crate::x509::dn_text::tests::collect;
    let mut texts = Vec::new();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    collect(std::path::Path::new(root), &mut texts);
    let mut out = Vec::new();
    for text in texts {
        for block in text.split("-----END CERTIFICATE-----") {
            let Some(start) = block.find("-----BEGIN CERTIFICATE-----") else {
                continue;
            };
            let pem = [&block[start..], "-----END CERTIFICATE-----\n"].concat();
            let pem = pem.replace("\\n", "\n");
            if let Ok(cert) = Certificate::from_pem(pem.as_bytes()) {
                out.extend(cert.to_der().ok());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The exact TBS bytes of a DER certificate.
fn tbs_of(der: &[u8]) -> Option<&[u8]> {
    super::split(der).ok().map(|(tbs, _, _)| tbs)
}

#[test]
fn tbs_reading_agrees_with_x509_cert_on_every_fixture_certificate() {
    let certs = fixture_certificates();
    assert!(certs.len() > 500, "only {} certificates", certs.len());
    for der in &certs {
        let tbs = tbs_of(der).expect("split");
        assert_eq!(ours(tbs), theirs(tbs), "{der:02x?}");
        assert!(ours(tbs).is_some());
    }
}

/// Mutations of a few certificates of different shapes (NVIDIA device and RIM chains, and
/// limbo certificates with many extensions and names).
#[test]
fn tbs_reading_agrees_with_x509_cert_on_mutations() {
    let certs = fixture_certificates();
    let mut accepted = 0;
    let mut refused = 0;
    // A spread of the fixtures: every 60th, which keeps the run short.
    for der in certs.iter().step_by(60) {
        let tbs = tbs_of(der).expect("split");
        for m in mutations(tbs) {
            let (a, b) = (ours(&m), theirs(&m));
            assert_eq!(a, b, "{m:02x?}");
            if a.is_some() {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
    }
    assert!(accepted > 1000 && refused > 1000, "{accepted} {refused}");
}

/// [`super::Cert::public_key_info`] reads the key of what `Certificate::from_der` reads.
#[test]
fn public_key_info_agrees_with_x509_cert_on_mutations() {
    let certs = fixture_certificates();
    let mut accepted = 0;
    for der in certs.iter().step_by(90) {
        for m in mutations(der) {
            let ours = super::Cert::public_key_info(&m).and_then(|k| k.to_der().ok());
            let theirs = Certificate::from_der(&m)
                .ok()
                .and_then(|c| c.tbs_certificate().subject_public_key_info().to_der().ok());
            assert_eq!(ours, theirs, "{m:02x?}");
            accepted += usize::from(ours.is_some());
        }
    }
    assert!(accepted > 1000, "{accepted}");
}

#[test]
fn authority_key_id_and_access_agree_with_x509_cert() {
    let mut values = Vec::new();
    for der in fixture_certificates() {
        let cert = Certificate::from_der(&der).expect("decodes");
        for ext in cert
            .tbs_certificate()
            .extensions()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            if ext.extn_id == AUTHORITY_KEY_ID || ext.extn_id == AUTHORITY_INFO_ACCESS {
                values.push(ext.extn_value.as_bytes().to_vec());
            }
        }
    }
    // Made values: each GeneralName alternative, valid and not.
    let made: [&[u8]; 16] = [
        // keyIdentifier only; empty AKI; key id + issuer (directoryName) + serial.
        &[0x30, 0x04, 0x80, 0x02, 0x01, 0x02],
        &[0x30, 0x00],
        &[
            0x30, 0x12, 0x80, 0x01, 0x01, 0xa1, 0x0a, 0xa4, 0x08, 0x30, 0x06, 0x31, 0x04, 0x30,
            0x02, 0x06, 0x00, 0x82, 0x01, 0x05,
        ],
        // issuer as dNSName, rfc822Name with a non-ASCII byte, an x400Address.
        &[0x30, 0x07, 0xa1, 0x05, 0x82, 0x03, b'a', b'.', b'b'],
        &[0x30, 0x05, 0xa1, 0x03, 0x81, 0x01, 0xff],
        &[0x30, 0x06, 0xa1, 0x04, 0xa3, 0x02, 0x05, 0x00],
        // otherName with [0] and with [1]; ediPartyName with and without nameAssigner.
        &[
            0x30, 0x0b, 0xa1, 0x09, 0xa0, 0x07, 0x06, 0x01, 0x2a, 0xa0, 0x02, 0x05, 0x00,
        ],
        &[
            0x30, 0x0b, 0xa1, 0x09, 0xa0, 0x07, 0x06, 0x01, 0x2a, 0xa1, 0x02, 0x05, 0x00,
        ],
        &[
            0x30, 0x0f, 0xa1, 0x0d, 0xa5, 0x0b, 0xa0, 0x03, 0x0c, 0x01, b'a', 0xa1, 0x04, 0x0c,
            0x02, b'b', b'c',
        ],
        &[
            0x30, 0x0a, 0xa1, 0x08, 0xa5, 0x06, 0xa1, 0x04, 0x0c, 0x02, b'b', b'c',
        ],
        // iPAddress, registeredID, registeredID malformed, an empty GeneralNames.
        &[0x30, 0x08, 0xa1, 0x06, 0x87, 0x04, 127, 0, 0, 1],
        &[0x30, 0x05, 0xa1, 0x03, 0x88, 0x01, 0x2a],
        &[0x30, 0x05, 0xa1, 0x03, 0x88, 0x01, 0x80],
        &[0x30, 0x02, 0xa1, 0x00],
        // AIA: one URI description; an empty one.
        &[
            0x30, 0x0f, 0x30, 0x0d, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01,
            0x86, 0x01, b'u',
        ],
        &[0x30, 0x00],
    ];
    values.extend(made.iter().map(|v| v.to_vec()));
    let (mut aki_ok, mut aia_ok, mut refused) = (0, 0, 0);
    for value in &values {
        for m in mutations(value) {
            let aki = authority_key_id(&m).ok();
            assert_eq!(aki, aki_theirs(&m), "AKI {m:02x?}");
            let aia = access_descriptions(&m).ok().map(|(count, _)| count);
            assert_eq!(aia, aia_theirs(&m), "AIA {m:02x?}");
            aki_ok += usize::from(aki.is_some());
            aia_ok += usize::from(aia.is_some());
            refused += usize::from(aki.is_none() && aia.is_none());
        }
    }
    assert!(
        aki_ok > 100 && aia_ok > 100 && refused > 1000,
        "{aki_ok} {aia_ok} {refused}"
    );
}
