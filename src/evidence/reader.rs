//! A bounds-checked little-endian cursor that reports offsets of the whole transcript.

use super::error::ParseError;

pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Offset of `bytes[0]` in the transcript.
    base: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8], base: usize) -> Self {
        Self {
            bytes,
            pos: 0,
            base,
        }
    }

    /// The transcript offset of the next byte.
    pub(crate) fn offset(&self) -> usize {
        self.base.saturating_add(self.pos)
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    pub(crate) fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], ParseError> {
        let truncated = ParseError::Truncated {
            field,
            offset: self.offset(),
            needed: n,
        };
        let end = self.pos.checked_add(n).ok_or(truncated.clone())?;
        let slice = self.bytes.get(self.pos..end).ok_or(truncated)?;
        self.pos = end;
        Ok(slice)
    }

    pub(crate) fn array<const N: usize>(
        &mut self,
        field: &'static str,
    ) -> Result<[u8; N], ParseError> {
        let slice = self.take(N, field)?;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    pub(crate) fn u8(&mut self, field: &'static str) -> Result<u8, ParseError> {
        Ok(u8::from_le_bytes(self.array::<1>(field)?))
    }

    pub(crate) fn u16(&mut self, field: &'static str) -> Result<u16, ParseError> {
        Ok(u16::from_le_bytes(self.array::<2>(field)?))
    }

    pub(crate) fn u24(&mut self, field: &'static str) -> Result<u32, ParseError> {
        let [a, b, c] = self.array::<3>(field)?;
        Ok(u32::from_le_bytes([a, b, c, 0]))
    }

    /// Reads a byte that must equal one of `accepted`.
    pub(crate) fn expect_u8(
        &mut self,
        field: &'static str,
        accepted: &[u8],
    ) -> Result<u8, ParseError> {
        let offset = self.offset();
        let value = self.u8(field)?;
        if accepted.contains(&value) {
            Ok(value)
        } else {
            Err(ParseError::UnexpectedValue {
                field,
                offset,
                found: u32::from(value),
            })
        }
    }
}
