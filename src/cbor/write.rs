//! The deterministic encoding (RFC 8949 §4.2.1). A head is a dozen lines of bit layout,
//! written here rather than through an encoder whose writer and error types would cost more.

use alloc::vec::Vec;

use super::Cbor;

/// Appends the deterministic encoding of `item` to `out`.
pub(super) fn encode_into(item: &Cbor, out: &mut Vec<u8>) {
    match item {
        Cbor::Uint(n) => head(out, 0, *n),
        Cbor::Neg(n) => head(out, 1, *n),
        Cbor::Bytes(bytes) => {
            head(out, 2, bytes.len() as u64);
            out.extend_from_slice(bytes);
        }
        Cbor::Text(text) => {
            head(out, 3, text.len() as u64);
            out.extend_from_slice(text.as_bytes());
        }
        Cbor::Array(items) => {
            head(out, 4, items.len() as u64);
            for item in items {
                encode_into(item, out);
            }
        }
        Cbor::Map(entries) => {
            head(out, 5, entries.len() as u64);
            let mut encoded: Vec<(Vec<u8>, &Cbor)> = entries
                .iter()
                .map(|(key, value)| (key.encode(), value))
                .collect();
            encoded.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            for (key, value) in encoded {
                out.extend_from_slice(&key);
                encode_into(value, out);
            }
        }
        Cbor::Tag(tag, inner) => {
            head(out, 6, *tag);
            encode_into(inner, out);
        }
        Cbor::Bool(false) => out.push(0xf4),
        Cbor::Bool(true) => out.push(0xf5),
        Cbor::Null => out.push(0xf6),
        Cbor::Undefined => out.push(0xf7),
        Cbor::Simple(n) => head(out, 7, u64::from(*n)),
        // Always the double form: no document this crate writes holds a float.
        Cbor::Float(x) => {
            out.push(0xfb);
            out.extend_from_slice(&x.to_bits().to_be_bytes());
        }
    }
}

/// A major type's head with its argument in the shortest form.
fn head(out: &mut Vec<u8>, major: u8, argument: u64) {
    let major = major << 5;
    match argument {
        0..=23 => out.push(major | argument as u8),
        24..=0xff => out.extend_from_slice(&[major | 24, argument as u8]),
        0x100..=0xffff => {
            out.push(major | 25);
            out.extend_from_slice(&(argument as u16).to_be_bytes());
        }
        0x1_0000..=0xffff_ffff => {
            out.push(major | 26);
            out.extend_from_slice(&(argument as u32).to_be_bytes());
        }
        _ => {
            out.push(major | 27);
            out.extend_from_slice(&argument.to_be_bytes());
        }
    }
}
