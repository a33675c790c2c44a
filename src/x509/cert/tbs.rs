//! `TBSCertificate` (RFC 5280 §4.1) read with `der`'s reader, field by field.
//!
//! `TbsCertificate::from_der` inlined x509-cert's whole derived decoder into `Cert::parse`
//! (owned names, every extension copied, about 26 KB of the wasm module). This
//! makes the calls the derived decoder makes, in its order and with its types where they
//! are cheap (`Version`, `SerialNumber`, `Validity`, spki's `SubjectPublicKeyInfoRef`), and
//! borrows the rest, so it accepts exactly what `TbsCertificate::from_der` accepts.

use alloc::vec::Vec;

use const_oid::ObjectIdentifier;
use der::asn1::{BitStringRef, ContextSpecific, OctetStringRef};
use der::{Decode, Reader, SliceReader, TagNumber};
use spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};
use x509_cert::certificate::{Rfc5280, Version};
use x509_cert::serial_number::SerialNumber;
use x509_cert::time::Validity;

use super::name::{self, Rdns};

/// One `Extension`, borrowed.
pub(crate) struct Extension<'a> {
    pub(crate) oid: ObjectIdentifier,
    pub(crate) critical: bool,
    /// The contents of `extnValue`.
    pub(crate) value: &'a [u8],
}

/// `Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension` (x509-cert's `Vec<Extension>`, which
/// also takes an empty one).
struct Extensions<'a>(Vec<Extension<'a>>);

impl<'a> Decode<'a> for Extensions<'a> {
    type Error = der::Error;

    fn decode<R: Reader<'a>>(reader: &mut R) -> der::Result<Self> {
        reader.sequence(|seq| {
            let mut extensions = Vec::new();
            while !seq.is_finished() {
                // x509-cert's derived `Extension`: `critical BOOLEAN DEFAULT FALSE`.
                extensions.push(seq.sequence(|ext| {
                    Ok::<_, der::Error>(Extension {
                        oid: ObjectIdentifier::decode(ext)?,
                        critical: Option::<bool>::decode(ext)?.unwrap_or(false),
                        value: <&OctetStringRef>::decode(ext)?.as_bytes(),
                    })
                })?);
            }
            Ok(Self(extensions))
        })
    }
}

/// A `Name`: its DER as kept (see [`name::normalised`]) and its RDNs.
pub(crate) struct Name<'a> {
    pub(crate) der: Vec<u8>,
    pub(crate) rdns: Rdns<'a>,
}

fn read_name<'a>(reader: &mut SliceReader<'a>) -> der::Result<Name<'a>> {
    let raw = reader.tlv_bytes()?;
    let rdns = name::rdns(raw)?;
    Ok(Name {
        der: name::normalised(raw, &rdns),
        rdns,
    })
}

/// The fields of a `TBSCertificate` that [`super::Cert`] uses.
pub(crate) struct Tbs<'a> {
    pub(crate) version: Version,
    pub(crate) serial: SerialNumber<Rfc5280>,
    pub(crate) signature: AlgorithmIdentifierRef<'a>,
    pub(crate) issuer: Name<'a>,
    pub(crate) validity: Validity<Rfc5280>,
    pub(crate) subject: Name<'a>,
    pub(crate) spki: SubjectPublicKeyInfoRef<'a>,
    pub(crate) extensions: Vec<Extension<'a>>,
}

impl<'a> Tbs<'a> {
    /// Reads the DER `tbsCertificate` (nothing may follow it).
    pub(crate) fn read(der: &'a [u8]) -> der::Result<Self> {
        let mut reader = SliceReader::new(der)?;
        let tbs = reader.sequence(|seq| {
            let version = ContextSpecific::<Version>::decode_explicit(seq, TagNumber(0))?
                .map(|cs| cs.value)
                .unwrap_or_default();
            let serial = SerialNumber::<Rfc5280>::decode(seq)?;
            let signature = AlgorithmIdentifierRef::decode(seq)?;
            let issuer = read_name(seq)?;
            let validity = Validity::<Rfc5280>::decode(seq)?;
            let subject = read_name(seq)?;
            let spki = SubjectPublicKeyInfoRef::decode(seq)?;
            // issuerUniqueID, subjectUniqueID: read (and checked) only.
            ContextSpecific::<BitStringRef<'_>>::decode_implicit(seq, TagNumber(1))?;
            ContextSpecific::<BitStringRef<'_>>::decode_implicit(seq, TagNumber(2))?;
            let extensions = ContextSpecific::<Extensions<'_>>::decode_explicit(seq, TagNumber(3))?
                .map(|cs| cs.value.0)
                .unwrap_or_default();
            Ok::<_, der::Error>(Self {
                version,
                serial,
                signature,
                issuer,
                validity,
                subject,
                spki,
                extensions,
            })
        })?;
        reader.finish()?;
        Ok(tbs)
    }
}
