//! A certificate `Name` (RFC 5280 §4.1.2.4) read with `der`'s reader into borrowed parts.
//!
//! x509-cert's `Name` decodes every attribute into an owned `SetOfVec` of `Any` values and
//! was then re-encoded to get the bytes paths compare: about 10 KB of the wasm module for
//! what is, in DER, the name's own bytes. The walk makes the same `der` calls the
//! derived decoder makes (SEQUENCE OF SET OF SEQUENCE { OBJECT IDENTIFIER, ANY }), so it
//! accepts exactly the names x509-cert accepts, and it keeps x509-cert's one normalisation:
//! a SET whose attributes are not in DER order is sorted (`SetOfVec` sorts on decode), so
//! the bytes kept are what x509-cert's re-encoding gave.

use alloc::vec::Vec;

use const_oid::ObjectIdentifier;
use der::asn1::AnyRef;
use der::{Decode, Header, Reader, SliceReader, Tag};

/// One `AttributeTypeAndValue`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attribute<'a> {
    pub(crate) oid: ObjectIdentifier,
    pub(crate) value: AnyRef<'a>,
    /// The value's whole TLV (DER).
    pub(crate) value_der: &'a [u8],
    /// The attribute's whole TLV: what a SET's DER order compares.
    der: &'a [u8],
}

/// A name's RDNs in encoded order, each RDN's attributes in DER order.
pub(crate) type Rdns<'a> = Vec<Vec<Attribute<'a>>>;

/// Reads the `Name` TLV `der` (nothing may follow it).
pub(crate) fn rdns(der: &[u8]) -> der::Result<Rdns<'_>> {
    let mut reader = SliceReader::new(der)?;
    let rdns = reader.sequence(|seq| {
        let mut rdns = Vec::new();
        while !seq.is_finished() {
            let header = Header::decode(seq)?;
            header.tag().assert_eq(Tag::Set)?;
            rdns.push(seq.read_nested(header.length(), attributes)?);
        }
        Ok::<_, der::Error>(rdns)
    })?;
    reader.finish()?;
    Ok(rdns)
}

/// The attributes of one RDN's SET, sorted into DER order as `SetOfVec` sorts them.
fn attributes<'a>(set: &mut SliceReader<'a>) -> der::Result<Vec<Attribute<'a>>> {
    let mut attributes = Vec::new();
    while !set.is_finished() {
        let der = set.tlv_bytes()?;
        let mut reader = SliceReader::new(der)?;
        let (oid, value, value_der) = reader.sequence(|seq| {
            let oid = ObjectIdentifier::decode(seq)?;
            let value_der = seq.tlv_bytes()?;
            let value = AnyRef::from_der(value_der)?;
            Ok::<_, der::Error>((oid, value, value_der))
        })?;
        reader.finish()?;
        attributes.push(Attribute {
            oid,
            value,
            value_der,
            der,
        });
    }
    // X.690 §11.6: SET OF components in the order of their encodings as octet strings,
    // which is `der`'s `DerOrd` on these (tag, then length, then content octets). Insertion
    // sort: an RDN holds one attribute, rarely a few.
    for i in 1..attributes.len() {
        let mut j = i;
        while j > 0 && attributes[j - 1].der > attributes[j].der {
            attributes.swap(j - 1, j);
            j -= 1;
        }
    }
    Ok(attributes)
}

/// The name's DER as x509-cert re-encodes it: `der` itself, unless a SET was out of order
/// (then that SET's attributes are written in DER order; no length changes).
pub(crate) fn normalised(der: &[u8], rdns: &Rdns<'_>) -> Vec<u8> {
    let mut out = der.to_vec();
    for rdn in rdns {
        // Read order: the SET's contents are its attributes' TLVs back to back, so the
        // first in memory is where the SET's contents start.
        let Some(start) = rdn
            .iter()
            .map(|a| (a.der.as_ptr() as usize).wrapping_sub(der.as_ptr() as usize))
            .min()
        else {
            continue;
        };
        let mut at = start;
        for attribute in rdn {
            if let Some(slot) = out.get_mut(at..at.saturating_add(attribute.der.len())) {
                slot.copy_from_slice(attribute.der);
            }
            at = at.saturating_add(attribute.der.len());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use der::{Decode, Encode};
    use x509_cert::name::Name;

    use super::{normalised, rdns};

    /// DER of a SET with the given attribute TLVs in the given order, inside a Name.
    fn name_der(sets: &[&[&[u8]]]) -> Vec<u8> {
        fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
            assert!(content.len() < 128);
            let mut out = alloc::vec![tag, content.len() as u8];
            out.extend_from_slice(content);
            out
        }
        let rdns: Vec<u8> = sets
            .iter()
            .flat_map(|set| tlv(0x31, &set.concat()))
            .collect();
        tlv(0x30, &rdns)
    }

    const CN_A: &[u8] = &[0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x01, b'a'];
    const CN_B: &[u8] = &[0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x01, b'b'];
    const CN_AB: &[u8] = &[
        0x30, 0x09, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x02, b'a', b'b',
    ];
    const O_A: &[u8] = &[0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x0a, 0x13, 0x01, b'a'];
    const C_US: &[u8] = &[
        0x30, 0x09, 0x06, 0x03, 0x55, 0x04, 0x06, 0x13, 0x02, b'U', b'S',
    ];
    const IA5: &[u8] = &[0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x03, 0x16, 0x01, b'a'];

    /// The bytes kept are x509-cert's re-encoding, sorted SETs or not; what x509-cert
    /// refuses is refused.
    #[test]
    fn same_bytes_and_verdicts_as_x509_cert() {
        let cases: Vec<Vec<u8>> = alloc::vec![
            name_der(&[]),
            name_der(&[&[CN_A]]),
            name_der(&[&[C_US], &[O_A], &[CN_A]]),
            name_der(&[&[CN_B, CN_A]]),
            name_der(&[&[CN_AB, CN_A, O_A, C_US, IA5]]),
            name_der(&[&[O_A, IA5, CN_B], &[C_US, CN_A]]),
            name_der(&[&[]]),
            // An attribute without a value, one with two, a SEQUENCE where a SET belongs,
            // trailing bytes, a truncated name.
            name_der(&[&[&[0x30, 0x05, 0x06, 0x03, 0x55, 0x04, 0x03]]]),
            name_der(&[&[&[
                0x30, 0x0b, 0x06, 0x03, 0x55, 0x04, 0x03, 0x05, 0x00, 0x0c, 0x01, b'a'
            ]]]),
            [&[0x30, 0x0c, 0x30, 0x0a][..], CN_A].concat(),
            [name_der(&[&[CN_A]]), alloc::vec![0]].concat(),
            name_der(&[&[CN_A]])[..8].to_vec(),
            // An OID with a non-minimal arc.
            name_der(&[&[&[0x30, 0x09, 0x06, 0x04, 0x55, 0x80, 0x04, 0x03, 0x0c, 0x01, b'a']]]),
        ];
        for der in cases {
            let theirs = Name::from_der(&der).and_then(|n| n.to_der());
            let ours = rdns(&der).map(|r| normalised(&der, &r));
            assert_eq!(ours.ok(), theirs.ok(), "{der:02x?}");
        }
    }
}
