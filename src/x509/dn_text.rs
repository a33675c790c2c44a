//! The RFC 4514 text of a certificate's subject, as reports show it ("CN=…,O=…,C=US").
//!
//! x509-cert's `Display` for `Name` gives the same text, but it names attribute types through
//! const-oid's database of every registered OID (hundreds of entries): calling it links that
//! database into the wasm modules, about 28 KB gzip of the default module. The
//! attribute types that appear in certificate names are few, so they are listed here, each
//! with the database's shortest name (a unit test checks the two agree), and any other type
//! is written as RFC 4514 §2.4 allows for every type: its dotted OID and `#` + the value's
//! DER in hex.

use alloc::string::String;
use core::fmt::Write;

use const_oid::ObjectIdentifier;
use der::asn1::{Ia5StringRef, PrintableStringRef, TeletexStringRef, Utf8StringRef};
use der::{Tag, Tagged};

use super::cert::name::{Attribute, Rdns};

/// Attribute types by OID, with the name RFC 4514 text uses for them.
const NAMES: [(ObjectIdentifier, &str); 20] = [
    (ObjectIdentifier::new_unwrap("2.5.4.3"), "CN"),
    (ObjectIdentifier::new_unwrap("2.5.4.4"), "SN"),
    (ObjectIdentifier::new_unwrap("2.5.4.5"), "SERIALNUMBER"),
    (ObjectIdentifier::new_unwrap("2.5.4.6"), "C"),
    (ObjectIdentifier::new_unwrap("2.5.4.7"), "L"),
    (ObjectIdentifier::new_unwrap("2.5.4.8"), "ST"),
    (ObjectIdentifier::new_unwrap("2.5.4.9"), "STREET"),
    (ObjectIdentifier::new_unwrap("2.5.4.10"), "O"),
    (ObjectIdentifier::new_unwrap("2.5.4.11"), "OU"),
    (ObjectIdentifier::new_unwrap("2.5.4.12"), "TITLE"),
    (ObjectIdentifier::new_unwrap("2.5.4.15"), "BUSINESSCATEGORY"),
    (ObjectIdentifier::new_unwrap("2.5.4.17"), "POSTALCODE"),
    (ObjectIdentifier::new_unwrap("2.5.4.42"), "GN"),
    (ObjectIdentifier::new_unwrap("2.5.4.43"), "INITIALS"),
    (
        ObjectIdentifier::new_unwrap("2.5.4.44"),
        "GENERATIONQUALIFIER",
    ),
    (ObjectIdentifier::new_unwrap("2.5.4.46"), "DNQUALIFIER"),
    (ObjectIdentifier::new_unwrap("2.5.4.65"), "PSEUDONYM"),
    (
        ObjectIdentifier::new_unwrap("0.9.2342.19200300.100.1.1"),
        "UID",
    ),
    (
        ObjectIdentifier::new_unwrap("0.9.2342.19200300.100.1.25"),
        "DC",
    ),
    (
        ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.1"),
        "EMAIL",
    ),
];

/// A name as RFC 4514 text: its RDNs last first, `,` between them, `+` inside one.
pub(crate) fn dn_text(rdns: &Rdns<'_>) -> String {
    let mut text = String::new();
    for (i, rdn) in rdns.iter().rev().enumerate() {
        for (j, atv) in rdn.iter().enumerate() {
            if i > 0 && j == 0 {
                text.push(',');
            } else if j > 0 {
                text.push('+');
            }
            write_atv(&mut text, atv);
        }
    }
    text
}

fn write_atv(text: &mut String, atv: &Attribute<'_>) {
    let known = NAMES
        .iter()
        .find(|(oid, _)| *oid == atv.oid)
        .map(|(_, name)| *name);
    match (known, string_value(atv)) {
        (Some(name), Some(value)) => {
            text.push_str(name);
            text.push('=');
            escape_into(text, value);
        }
        _ => {
            // RFC 4514 §2.4: the dotted type and the value's BER (here DER) in hex.
            let _ = write!(text, "{}=#", atv.oid);
            for byte in atv.value_der {
                let _ = write!(text, "{byte:02x}");
            }
        }
    }
}

/// The value as text, for the string types RFC 4514 writes as strings.
fn string_value<'a>(atv: &Attribute<'a>) -> Option<&'a str> {
    let value = atv.value;
    match value.tag() {
        Tag::PrintableString => PrintableStringRef::try_from(value).ok().map(|s| s.as_str()),
        Tag::Utf8String => Utf8StringRef::try_from(value).ok().map(|s| s.as_str()),
        Tag::Ia5String => Ia5StringRef::try_from(value).ok().map(|s| s.as_str()),
        Tag::TeletexString => TeletexStringRef::try_from(value).ok().map(|s| s.as_str()),
        _ => None,
    }
}

/// RFC 4514 §2.4 escapes: a leading `#`, a leading or trailing space, the special
/// characters, and control characters as `\hh`.
fn escape_into(text: &mut String, value: &str) {
    let mut chars = value.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' if i == 0 => text.push_str("\\#"),
            ' ' if i == 0 || chars.peek().is_none() => text.push_str("\\ "),
            '"' | '+' | ',' | ';' | '<' | '>' | '\\' => {
                text.push('\\');
                text.push(c);
            }
            '\x00'..='\x1f' | '\x7f' => {
                let _ = write!(text, "\\{:02x}", c as u8);
            }
            _ => text.push(c),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use der::{DecodePem, Encode};
    use x509_cert::name::Name;
    use x509_cert::Certificate;

    use super::{dn_text, NAMES};

    /// The text of an x509-cert `Name`, through the crate's own reading of its DER.
    fn ours(name: &Name) -> String {
        let der = name.to_der().expect("encodes");
        dn_text(&crate::x509::cert::name::rdns(&der).expect("reads"))
    }

    #[test]
    fn names_are_the_oid_databases_shortest() {
        let mut differ = Vec::new();
        for (oid, name) in NAMES {
            // x509-cert's rule: the first of the shortest names the database has.
            let mut shortest: Option<&str> = None;
            for candidate in const_oid::db::DB.find_names_for_oid(oid) {
                if shortest.is_none_or(|s| candidate.len() < s.len()) {
                    shortest = Some(candidate);
                }
            }
            let shortest = shortest.expect("in the database").to_ascii_uppercase();
            if shortest != name {
                differ.push((oid.to_string(), shortest, name));
            }
        }
        assert!(differ.is_empty(), "(oid, database, table): {differ:?}");
    }

    /// Every certificate of the fixtures (NVIDIA chains, x509-limbo's many names) gives the
    /// text x509-cert's Display gives.
    #[test]
    fn text_is_x509_certs_display_on_every_fixture_certificate() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
        let mut pems = Vec::new();
        collect(std::path::Path::new(root), &mut pems);
        let mut seen = 0;
        for text in pems {
            for block in text.split("-----END CERTIFICATE-----") {
                let Some(start) = block.find("-----BEGIN CERTIFICATE-----") else {
                    continue;
                };
                let pem = [&block[start..], "-----END CERTIFICATE-----\n"].concat();
                let pem = pem.replace("\\n", "\n");
                let Ok(cert) = Certificate::from_pem(pem.as_bytes()) else {
                    continue;
                };
                for name in [
                    &cert.tbs_certificate().subject(),
                    &cert.tbs_certificate().issuer(),
                ] {
                    assert_eq!(ours(name), name.to_string());
                    seen += 1;
                }
            }
        }
        assert!(seen > 1000, "only {seen} names compared");
    }

    /// Escapes, several RDNs, a multi-valued RDN and a type outside the table.
    #[test]
    fn text_is_x509_certs_display_on_made_names() {
        for text in [
            r"CN=\ lead and trail\ ,O=a\,b+OU=c\+d,C=US",
            r"CN=\#hash;semi\;colon,DC=example,DC=com",
            r#"CN=quote \" and angle \<\>,UID=x"#,
            "2.5.4.99=#0c0178,CN=unknown type first",
        ] {
            let name: x509_cert::name::Name = text.parse().expect(text);
            assert_eq!(ours(&name), name.to_string(), "{text}");
        }
    }

    /// Every file under `dir` (recursively) that holds a PEM certificate, as text; the
    /// certificate tests of this module and of `cert::differential` read the fixtures so.
    pub(in crate::x509) fn collect(dir: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("fixtures") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                collect(&path, out);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                if text.contains("BEGIN CERTIFICATE") {
                    out.push(text);
                }
            }
        }
    }
}
