//! authorityKeyIdentifier (RFC 5280 §4.2.1.1) and authorityInfoAccess (§4.2.2.1), checked
//! for well-formedness with `der`'s reader.
//!
//! Path validation uses the key identifier and whether an issuer/serial pair is present; the
//! `GeneralName`s inside are only checked. x509-cert's derived `GeneralName` decoder (every
//! alternative decoded into an owned value) cost about 14 KB of the wasm module for that
//! check. This walk makes the calls the derived decoders make, alternative by
//! alternative, so it refuses exactly what `AuthorityKeyIdentifier::from_der` and
//! `AuthorityInfoAccessSyntax::from_der` refuse (a unit test compares the two).

use const_oid::ObjectIdentifier;
use der::asn1::{AnyRef, ContextSpecific, Ia5StringRef, OctetStringRef};
use der::{Class, Decode, DecodeValue, FixedTag, Header, Reader, SliceReader, Tag, TagNumber};
use x509_cert::certificate::Rfc5280;
use x509_cert::ext::pkix::name::DirectoryString;
use x509_cert::serial_number::SerialNumber;

use super::name;
use super::AuthorityKeyId;

const fn context(number: u32, constructed: bool) -> Tag {
    Tag::ContextSpecific {
        constructed,
        number: TagNumber(number),
    }
}

/// The value inside an EXPLICIT `[number]`: `der`'s `ContextSpecific::<T>::decode` (a
/// constructed context-specific TLV holding exactly one value), then the tag number check
/// the derived decoders make, with the value borrowed (one instantiation for every use).
fn explicit<'a>(reader: &mut SliceReader<'a>, number: u32) -> der::Result<AnyRef<'a>> {
    let header = Header::decode(reader)?;
    if header.tag() != context(number, true) {
        return Err(header
            .tag()
            .unexpected_error(Some(context(number, true)))
            .to_error());
    }
    reader.read_nested(header.length(), AnyRef::decode)
}

/// A `DirectoryString` inside an EXPLICIT `[number]` (x509-cert's `EdiPartyName` fields).
fn directory_string(reader: &mut SliceReader<'_>, number: u32) -> der::Result<()> {
    explicit(reader, number)?.decode_as::<DirectoryString>()?;
    Ok(())
}

/// Reads one `GeneralName` (x509-cert's `GeneralName` CHOICE; `x400Address` is not one of
/// its alternatives, so it is refused as there).
fn general_name<'a>(reader: &mut SliceReader<'a>) -> der::Result<()> {
    let tag = Tag::peek(reader)?;
    let header = Header::decode(reader)?;
    reader.read_nested(header.length(), |r| -> der::Result<()> {
        match tag {
            // otherName [0] IMPLICIT SEQUENCE { type-id OID, value [0] EXPLICIT ANY }
            t if t == context(0, true) => {
                <ObjectIdentifier>::decode(r)?;
                explicit(r, 0)?;
            }
            // rfc822Name, dNSName, uniformResourceIdentifier: IA5String
            t if t == context(1, false) || t == context(2, false) || t == context(6, false) => {
                Ia5StringRef::decode_value(r, header)?;
            }
            // directoryName [4] EXPLICIT Name
            t if t == context(4, true) => {
                name::rdns(r.tlv_bytes()?)?;
            }
            // ediPartyName [5] IMPLICIT SEQUENCE { nameAssigner [0] EXPLICIT DirectoryString
            // OPTIONAL, partyName [1] EXPLICIT DirectoryString }
            t if t == context(5, true) => {
                // `decode_explicit`: only a context-specific [0] is the nameAssigner.
                let assigner = Tag::peek(r)?;
                if assigner.class() == Class::ContextSpecific && assigner.number() == TagNumber(0) {
                    directory_string(r, 0)?;
                }
                directory_string(r, 1)?;
            }
            // iPAddress [7] IMPLICIT OCTET STRING
            t if t == context(7, false) => {
                <&OctetStringRef>::decode_value(r, header)?;
            }
            // registeredID [8] IMPLICIT OBJECT IDENTIFIER
            t if t == context(8, false) => {
                <ObjectIdentifier>::decode_value(r, header)?;
            }
            actual => return Err(actual.unexpected_error(None).to_error()),
        }
        Ok(())
    })
}

/// `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName` as x509-cert reads it (its
/// `Vec<GeneralName>` also takes an empty one); only checked.
struct GeneralNames;

impl FixedTag for GeneralNames {
    const TAG: Tag = Tag::Sequence;
}

impl<'a> DecodeValue<'a> for GeneralNames {
    type Error = der::Error;

    fn decode_value<R: Reader<'a>>(reader: &mut R, header: Header) -> der::Result<Self> {
        let mut names = SliceReader::new(reader.read_slice(header.length())?)?;
        while !names.is_finished() {
            general_name(&mut names)?;
        }
        Ok(Self)
    }
}

/// The authorityKeyIdentifier extension's value (x509-cert's `AuthorityKeyIdentifier`).
pub(crate) fn authority_key_id(der: &[u8]) -> der::Result<AuthorityKeyId> {
    let mut reader = SliceReader::new(der)?;
    let aki = reader.sequence(|seq| {
        let key_id = ContextSpecific::<&OctetStringRef>::decode_implicit(seq, TagNumber(0))?;
        let issuer = ContextSpecific::<GeneralNames>::decode_implicit(seq, TagNumber(1))?;
        let serial = ContextSpecific::<SerialNumber<Rfc5280>>::decode_implicit(seq, TagNumber(2))?;
        Ok::<_, der::Error>(AuthorityKeyId {
            key_id: key_id.map(|k| k.value.as_bytes().to_vec()),
            has_issuer_serial: issuer.is_some() || serial.is_some(),
        })
    })?;
    reader.finish()?;
    Ok(aki)
}

/// id-ad-ocsp (RFC 5280 §4.2.2.1).
const ID_AD_OCSP: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.48.1");

/// How many `AccessDescription`s the authorityInfoAccess extension's value holds (x509-cert's
/// `AuthorityInfoAccessSyntax`), and the first OCSP responder URI among them.
pub(crate) fn access_descriptions(
    der: &[u8],
) -> der::Result<(usize, Option<alloc::string::String>)> {
    let mut reader = SliceReader::new(der)?;
    let mut ocsp = None;
    let count = reader.sequence(|seq| {
        let mut count = 0usize;
        while !seq.is_finished() {
            seq.sequence(|description| {
                let method = <ObjectIdentifier>::decode(description)?;
                let name = description.tlv_bytes()?;
                let mut names = SliceReader::new(name)?;
                general_name(&mut names)?;
                names.finish()?;
                if method == ID_AD_OCSP && ocsp.is_none() {
                    ocsp = uri(name);
                }
                Ok::<_, der::Error>(())
            })?;
            count = count.saturating_add(1);
        }
        Ok::<_, der::Error>(count)
    })?;
    reader.finish()?;
    Ok((count, ocsp))
}

/// The text of a `GeneralName` that is a uniformResourceIdentifier.
fn uri(name: &[u8]) -> Option<alloc::string::String> {
    let mut reader = SliceReader::new(name).ok()?;
    let header = Header::decode(&mut reader).ok()?;
    if header.tag() != context(6, false) {
        return None;
    }
    let text = Ia5StringRef::decode_value(&mut reader, header).ok()?;
    Some(text.as_str().into())
}
