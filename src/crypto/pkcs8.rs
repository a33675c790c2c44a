//! Reading a P-384 PKCS#8 key (RFC 5208/5958 `OneAsymmetricKey` holding an RFC 5915
//! `ECPrivateKey`) and a P-384 SPKI (RFC 5480) with a small DER reader of its own.
//!
//! `p384`'s `from_pkcs8_der` (pkcs8, sec1, spki and der's generic decoders, all inlined) was
//! about 11 KB of the wasm modules, for one fixed structure. This reader accepts
//! exactly what that decoder accepts — der 0.8's DER rules for tags and lengths, then the
//! calls pkcs8 0.11, sec1 0.8 and elliptic-curve 0.14 make, in their order — and every
//! refusal is the one error the API has (`KeyError::InvalidEncoding`). The same for SPKI,
//! against spki's decoder and `PublicKey`'s `TryFrom<SubjectPublicKeyInfoRef>`. The tests
//! compare them on well-formed keys of every shape the formats allow and on every byte
//! change and truncation of them.

/// A tag as der 0.8 decodes it: class bits (`0x00` universal ... `0xc0` private), the
/// constructed bit, the number.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Tag {
    class: u8,
    constructed: bool,
    number: u32,
}

const CONTEXT: u8 = 0x80;

/// The universal tags der 0.8 knows (`Tag::decode`); any other universal byte is an error.
const UNIVERSAL: [u8; 22] = [
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x09, 0x0a, 0x0c, 0x0d, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
    0x18, 0x1a, 0x1b, 0x1e, 0x30, 0x31,
];

/// What is left of one DER value's contents.
struct Der<'a>(&'a [u8]);

impl<'a> Der<'a> {
    fn finished(&self) -> bool {
        self.0.is_empty()
    }

    fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    /// der's `Tag::decode_with_constructed_bit` (the multi-byte number rules of its
    /// `parse_parts`).
    fn tag(&mut self) -> Option<Tag> {
        let first = self.byte()?;
        let class = first & 0xc0;
        let constructed = first & 0x20 != 0;
        if class == 0 {
            return UNIVERSAL.contains(&first).then_some(Tag {
                class,
                constructed,
                number: u32::from(first & 0x1f),
            });
        }
        if first & 0x1f != 0x1f {
            let number = u32::from(first & 0x1f);
            return Some(Tag {
                class,
                constructed,
                number,
            });
        }
        let mut number = 0u32;
        for i in 0..5 {
            let byte = self.byte()?;
            number |= u32::from(byte & 0x7f);
            if byte & 0x80 == 0 {
                return (number >= 0x1f).then_some(Tag {
                    class,
                    constructed,
                    number,
                });
            }
            if (i == 0 && number == 0) || number.leading_zeros() < 7 {
                return None;
            }
            number <<= 7;
        }
        None
    }

    /// The next tag, not consumed (der's `Tag::peek`).
    fn peek(&self) -> Option<Tag> {
        Der(self.0).tag()
    }

    /// One value (der's `Header::decode` and `read_slice`): its tag and its contents. DER
    /// lengths: definite, in the fewest octets, at most four of them.
    fn value(&mut self) -> Option<(Tag, &'a [u8])> {
        let tag = self.tag()?;
        let len = match self.byte()? {
            short @ 0..=0x7f => usize::from(short),
            long @ 0x81..=0x84 => {
                let mut len = 0u32;
                for _ in 0x80..long {
                    len = (len << 8) | u32::from(self.byte()?);
                }
                let fewest = match len {
                    0..=0x7f => 0,
                    0x80..=0xff => 0x81,
                    0x100..=0xffff => 0x82,
                    0x1_0000..=0xff_ffff => 0x83,
                    _ => 0x84,
                };
                if fewest != long {
                    return None;
                }
                usize::try_from(len).ok()?
            }
            _ => return None,
        };
        if len > self.0.len() {
            return None;
        }
        let (contents, rest) = self.0.split_at(len);
        self.0 = rest;
        Some((tag, contents))
    }

    /// A value of one universal tag byte (`0x02` INTEGER, `0x30` SEQUENCE ...).
    fn expect(&mut self, byte: u8) -> Option<&'a [u8]> {
        let (tag, contents) = self.value()?;
        let want = Tag {
            class: 0,
            constructed: byte & 0x20 != 0,
            number: u32::from(byte & 0x1f),
        };
        (tag == want).then_some(contents)
    }

    /// der's `context_specific(number, mode)`: `None` when the reader is finished or the next
    /// tag is another; `Some(Err)` (`None` inside) for a malformed or wrongly constructed one.
    fn context(&mut self, number: u32, constructed: bool) -> Option<Option<&'a [u8]>> {
        if self.finished() {
            return Some(None);
        }
        let tag = self.peek()?;
        if tag.class != CONTEXT || tag.number != number {
            return Some(None);
        }
        let (tag, contents) = self.value()?;
        (tag.constructed == constructed).then_some(Some(contents))
    }
}

/// der's `BitStringRef` contents: the unused-bit count (0 to 7, 0 when empty), then the bits.
fn bit_string(contents: &[u8]) -> Option<(u8, &[u8])> {
    let (&unused, bits) = contents.split_first()?;
    (unused <= 7 && (unused == 0 || !bits.is_empty())).then_some((unused, bits))
}

/// The one TLV an EXPLICIT context-specific field holds (der's `read_value`: nothing after).
fn explicit(contents: &[u8]) -> Option<(Tag, &[u8])> {
    let mut inner = Der(contents);
    let value = inner.value()?;
    inner.finished().then_some(value)
}

/// `AlgorithmIdentifier { id-ecPublicKey, secp384r1 }`'s contents: spki's `assert_oids`
/// wants exactly these OIDs, and DER has one encoding of each.
const EC_P384_ALGORITHM: [u8; 16] = [
    0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22,
];
/// The secp384r1 OID value, the only named curve elliptic-curve takes for P-384.
const SECP384R1: [u8; 7] = [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22];

/// A P-384 private key's parts as the DER holds them: the `privateKey` octets of the
/// `ECPrivateKey` and its `publicKey` bits, if any. `None`: refused.
pub(super) fn read(der: &[u8]) -> Option<(&[u8], Option<&[u8]>)> {
    // pkcs8 0.11 `PrivateKeyInfo::decode_value`.
    let mut outer = Der(der);
    let mut info = Der(outer.expect(0x30)?);
    if !outer.finished() {
        return None;
    }
    let has_public_key = match info.expect(0x02)? {
        [0] => false,
        [1] => true,
        _ => return None,
    };
    if info.expect(0x30)? != EC_P384_ALGORITHM {
        return None;
    }
    let private_key = info.expect(0x04)?;
    let _attributes = info.context(0, true)?;
    let public_key = info.context(1, false)?;
    if let Some(bits) = public_key {
        bit_string(bits)?;
    }
    if has_public_key != public_key.is_some() {
        return None;
    }
    // "Ignore any remaining extension fields": each an EXPLICIT context-specific value.
    while !info.finished() {
        let (tag, contents) = info.value()?;
        if !tag.constructed || tag.class != CONTEXT {
            return None;
        }
        explicit(contents)?;
    }
    ec_private_key(private_key)
}

/// A P-384 public key's SEC1 bytes as a DER `SubjectPublicKeyInfo` holds them (spki 0.8's
/// decoder, `assert_oids` and `as_bytes`: the algorithm exactly, a whole-byte BIT STRING,
/// nothing after). `None`: refused. The point itself is [`super::PublicKey::from_sec1`]'s.
pub(super) fn read_spki(der: &[u8]) -> Option<&[u8]> {
    let mut outer = Der(der);
    let mut info = Der(outer.expect(0x30)?);
    if !outer.finished() || info.expect(0x30)? != EC_P384_ALGORITHM {
        return None;
    }
    let point = match bit_string(info.expect(0x03)?)? {
        (0, bits) => bits,
        _ => return None,
    };
    (info.finished()).then_some(point)
}

/// sec1 0.8 `EcPrivateKey::decode_value` and elliptic-curve 0.14's checks of its curve.
fn ec_private_key(der: &[u8]) -> Option<(&[u8], Option<&[u8]>)> {
    let mut outer = Der(der);
    let mut key = Der(outer.expect(0x30)?);
    if !outer.finished() || key.expect(0x02)? != [1] {
        return None;
    }
    let scalar = key.expect(0x04)?;
    if let Some(parameters) = key.context(0, true)? {
        let (tag, oid) = explicit(parameters)?;
        let oid_tag = Tag {
            class: 0,
            constructed: false,
            number: 6,
        };
        if tag != oid_tag || oid != &SECP384R1[2..] {
            return None;
        }
    }
    let public_key = match key.context(1, true)? {
        Some(field) => {
            let (tag, contents) = explicit(field)?;
            let bit_string_tag = Tag {
                class: 0,
                constructed: false,
                number: 3,
            };
            match (tag == bit_string_tag, bit_string(contents)?) {
                (true, (0, bits)) => Some(bits),
                _ => return None,
            }
        }
        None => None,
    };
    key.finished().then_some((scalar, public_key))
}

#[cfg(test)]
mod tests;
