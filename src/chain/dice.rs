//! FWIDs in the TCG DICE extensions of NVIDIA leaf certificates (TCG DICE Attestation
//! Architecture §6.1).
//!
//! * 2.23.133.5.4.1 (Hopper, LS10): `SEQUENCE { INTEGER, SubjectPublicKeyInfo,
//!   FWID ::= SEQUENCE { hashAlg OID, digest OCTET STRING } }` — the FWID is the digest of the
//!   last FWID element (NVIDIA's verifiers take the value's last 48 bytes, the same bytes).
//! * 2.23.133.5.4.1.1 TcbInfo (Blackwell): `SEQUENCE { … [6] IMPLICIT SEQUENCE OF FWID … }` —
//!   the FWID is the digest of the first entry of `[6]`.

use alloc::vec::Vec;

use der::asn1::{AnyRef, ObjectIdentifier};
use der::{Decode, Reader, SliceReader, Tag, TagNumber, Tagged};

/// id-sha384 (RFC 5758 / NIST CSOR).
const ID_SHA384: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.2");
/// SHA-384 digest length.
const FWID_LEN: usize = 48;

/// The elements of a constructed value's content.
fn elements(content: &[u8]) -> Option<Vec<AnyRef<'_>>> {
    let mut reader = SliceReader::new(content).ok()?;
    let mut out = Vec::new();
    while !reader.is_finished() {
        out.push(AnyRef::decode(&mut reader).ok()?);
    }
    Some(out)
}

/// `FWID ::= SEQUENCE { hashAlg OID, digest OCTET STRING }` with SHA-384 → the digest.
fn fwid(element: &AnyRef<'_>) -> Option<Vec<u8>> {
    if element.tag() != Tag::Sequence {
        return None;
    }
    let parts = elements(element.value())?;
    let [alg, digest] = parts.as_slice() else {
        return None;
    };
    let alg = ObjectIdentifier::try_from(*alg).ok()?;
    if alg != ID_SHA384 || digest.tag() != Tag::OctetString || digest.value().len() != FWID_LEN {
        return None;
    }
    Some(digest.value().to_vec())
}

/// The outer SEQUENCE's elements.
fn outer(value: &[u8]) -> Option<Vec<AnyRef<'_>>> {
    let any = AnyRef::from_der(value).ok()?;
    if any.tag() != Tag::Sequence {
        return None;
    }
    elements(any.value())
}

/// FWID of extension 2.23.133.5.4.1.
pub(crate) fn fwid_from_dice(value: &[u8]) -> Option<Vec<u8>> {
    outer(value)?.iter().rev().find_map(fwid)
}

/// First FWID of the TcbInfo `[6]` list (extension 2.23.133.5.4.1.1).
pub(crate) fn fwid_from_tcb_info(value: &[u8]) -> Option<Vec<u8>> {
    let fields = outer(value)?;
    let list = fields.iter().find(|f| {
        f.tag()
            == Tag::ContextSpecific {
                constructed: true,
                number: TagNumber(6),
            }
    })?;
    elements(list.value())?.first().and_then(fwid)
}

#[cfg(test)]
mod tests {
    use super::{fwid_from_dice, fwid_from_tcb_info};

    #[test]
    fn hopper_extension() {
        let value = hex::decode("3081ba0201013076301006072a8648ce3d020106052b81040022036200044f50da6e047a7981eac3d9e2a87e82cf39513b5dc92fbf1ae3f9bfef085b929a0e128948c15002e986182a58d604b5ea5e42fe9e47ee2db5218c6cc6b51e744b607dc76c7bb8580cda04db27b13e949bcd307a59278a8938e7adb7b190676f97303d06096086480165030402020430f5c384aebb579217a2c66b17ed0f28e6a9b8d639041acd7b4721cec004f7275494ba94bb5cdfdb3055ee051762b1f75d").unwrap();
        let fwid = fwid_from_dice(&value).unwrap();
        assert_eq!(fwid.as_slice(), value.get(value.len() - 48..).unwrap());
        assert_eq!(fwid_from_dice(&value[..value.len() - 1]), None);
    }

    #[test]
    fn blackwell_tcb_info() {
        let value = hex::decode("3081b180064e5649444941810d4742313030204130312047535082023031830101840100850100a67e303d06096086480165030402020430d090cab1b6e6ffddca83d1781e25b3f040fa1f3c7608230cb5f41b1c1b99f5f748349e59d0ef8eb830c9bc79ccf77502303d06096086480165030402020430000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000870500800000018801c0890100").unwrap();
        let fwid = fwid_from_tcb_info(&value).unwrap();
        assert_eq!(hex::encode(fwid), "d090cab1b6e6ffddca83d1781e25b3f040fa1f3c7608230cb5f41b1c1b99f5f748349e59d0ef8eb830c9bc79ccf77502");
        assert_eq!(fwid_from_dice(&value), None);
    }
}
