//! The crate's one JSON writer ([`to_string`], [`to_vec`]): what `serde_json::to_string`
//! writes, byte for byte, for every serde form: members in order, `null` for `None` and unit,
//! integers in decimal and floats as serde_json writes them (zmij's shortest round-trip
//! digits), bytes as arrays of numbers, enum variants externally tagged, map keys as strings
//! (a number or boolean key quoted). Two keys serde_json refuses and no shape has are written
//! here (`Some(key)`, a float key as its digits): JSON keys are strings either way.
//!
//! Why not serde_json's writer: the crate is built for size, where serde_json's string
//! escaping makes a non-inlined `split_at` call per byte and every write passes four
//! non-inlined `Vec` layers. An 8-GPU batch's results are about 110 KB of JSON, mostly hex,
//! and writing them that way was over half the CPU of completing the batch. Here a string's
//! bytes are scanned by one plain loop and copied in runs.

// Here too, not only at the crate root: tests/it/evidence/report_json.rs compiles this file
// into the native tests by path, to compare it with serde_json.
extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::ser::{self, Serialize};

/// `value` as JSON text; `Err` for what JSON cannot hold (a map key that is not a string, a
/// number or a boolean) or a `Serialize` impl's own error.
pub(crate) fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Unsupported> {
    String::from_utf8(to_vec(value)?).map_err(|_| Unsupported)
}

/// [`to_string`] as UTF-8 bytes.
pub(crate) fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Unsupported> {
    let mut writer = Writer {
        out: Vec::with_capacity(1024),
    };
    value.serialize(&mut writer)?;
    Ok(writer.out)
}

/// The value cannot be written as JSON.
#[derive(Debug)]
pub(crate) struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not JSON")
    }
}

impl ser::StdError for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Self
    }
}

struct Writer {
    out: Vec<u8>,
}

/// `s` as a JSON string: runs of plain bytes copied whole, `"`, `\` and controls escaped
/// (as serde_json escapes them).
#[inline(never)]
fn string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if byte >= 0x20 && byte != b'"' && byte != b'\\' {
            i += 1;
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        let short = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x0c => b'f',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            _ => 0,
        };
        if short == 0 {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(byte >> 4)]);
            out.push(HEX[usize::from(byte & 0x0f)]);
        } else {
            out.push(b'\\');
            out.push(short);
        }
        i += 1;
        start = i;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// `n` in decimal, `-` first when `negative`.
#[inline(never)]
fn number(out: &mut Vec<u8>, negative: bool, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        // A digit: n % 10 < 10.
        #[allow(clippy::cast_possible_truncation)]
        let digit = (n % 10) as u8;
        digits[at] = b'0' + digit;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if negative {
        out.push(b'-');
    }
    out.extend_from_slice(&digits[at..]);
}

/// A float as serde_json writes it: `null` unless `finite`.
fn float<F: zmij::Float>(out: &mut Vec<u8>, v: F, finite: bool) {
    if finite {
        out.extend_from_slice(zmij::Buffer::new().format_finite(v).as_bytes());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// Opens an object whose first member is `key` (an enum variant's externally tagged form).
#[inline(never)]
fn tagged(out: &mut Vec<u8>, key: &str) {
    out.push(b'{');
    string(out, key);
    out.push(b':');
}

/// A sequence, map or struct being written; `close` ends it (`]`, `}`, or `]}` / `}}` for a
/// variant's contents).
struct Compound<'a> {
    writer: &'a mut Writer,
    first: bool,
    close: &'static [u8],
}

impl Compound<'_> {
    /// The separator before an element or a member.
    #[inline(never)]
    fn next(&mut self) {
        if !self.first {
            self.writer.out.push(b',');
        }
        self.first = false;
    }

    /// A struct member's key, separator first.
    #[inline(never)]
    fn key(&mut self, key: &str) {
        self.next();
        string(&mut self.writer.out, key);
        self.writer.out.push(b':');
    }

    #[inline(never)]
    fn close(self) {
        self.writer.out.extend_from_slice(self.close);
    }
}

impl<'a> Writer {
    #[inline(never)]
    fn open(&'a mut self, open: &[u8], close: &'static [u8]) -> Compound<'a> {
        self.out.extend_from_slice(open);
        Compound {
            writer: self,
            first: true,
            close,
        }
    }
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.out
            .extend_from_slice(if v { b"true" as &[u8] } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        number(&mut self.out, v < 0, v.unsigned_abs());
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Unsupported> {
        self.out.extend_from_slice(alloc::format!("{v}").as_bytes());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        number(&mut self.out, false, v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Unsupported> {
        self.out.extend_from_slice(alloc::format!("{v}").as_bytes());
        Ok(())
    }
    // The shortest digits that read back as `v`, by serde_json's own formatter (zmij); NaN
    // and the infinities are `null`, as serde_json writes them.
    fn serialize_f32(self, v: f32) -> Result<(), Unsupported> {
        float(&mut self.out, v, v.is_finite());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unsupported> {
        float(&mut self.out, v, v.is_finite());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        string(&mut self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        string(&mut self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unsupported> {
        let mut seq = self.open(b"[", b"]");
        for &byte in v {
            seq.next();
            number(&mut seq.writer.out, false, byte.into());
        }
        seq.close();
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        tagged(&mut self.out, variant);
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        Ok(self.open(b"[", b"]"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Unsupported> {
        Ok(self.open(b"[", b"]"))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        Ok(self.open(b"[", b"]"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        tagged(&mut self.out, variant);
        Ok(self.open(b"[", b"]}"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        Ok(self.open(b"{", b"}"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unsupported> {
        Ok(self.open(b"{", b"}"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        tagged(&mut self.out, variant);
        Ok(self.open(b"{", b"}}"))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.next();
        value.serialize(&mut *self.writer)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    // A key is written as a value, then must be a string, or a number or boolean, which
    // serde_json quotes; anything else (null, an array, an object) is not a JSON key.
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        self.next();
        let at = self.writer.out.len();
        key.serialize(&mut *self.writer)?;
        map_key(&mut self.writer.out, at)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.writer.out.push(b':');
        value.serialize(&mut *self.writer)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close();
        Ok(())
    }
}

/// The key written from `at` made a JSON key: a string kept, a number or boolean quoted.
#[inline(never)]
fn map_key(out: &mut Vec<u8>, at: usize) -> Result<(), Unsupported> {
    match out.get(at) {
        Some(b'"') => Ok(()),
        Some(b'-' | b'0'..=b'9' | b't' | b'f') => {
            out.insert(at, b'"');
            out.push(b'"');
            Ok(())
        }
        _ => Err(Unsupported),
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        self.key(key);
        value.serialize(&mut *self.writer)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close();
        Ok(())
    }
}
