//! Reading a CBOR document into a [`Cbor`] tree under a budget.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use minicbor::data::Token;
use minicbor::Decoder;

use super::Cbor;
use crate::error_code::ErrorCode;

/// The budget of one document: how deep it may nest and how many items it may hold.
///
/// Items are counted as read (every integer, string chunk, array, map, tag and simple value
/// is one), so the reader's work is bounded by `max_items` whatever the declared lengths say;
/// the input's size is the caller's bound (a document is in memory before it is read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CborLimits {
    /// The most arrays, maps and tags one item may sit inside.
    pub max_depth: usize,
    /// The most items the whole document may hold.
    pub max_items: usize,
}

impl CborLimits {
    /// 16 levels, 65,536 items: a CoRIM of a few hundred measurements, an EAR of 64 devices.
    pub const DEFAULT: Self = Self {
        max_depth: 16,
        max_items: 65_536,
    };
}

impl Default for CborLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Why a CBOR document was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CborError {
    /// Not well-formed CBOR: truncated, a reserved value, a text string that is not UTF-8,
    /// a chunk of the wrong type in an indefinite string, or a break out of place.
    Malformed {
        /// The byte offset the reader stopped at.
        offset: usize,
    },
    /// A whole item followed by more bytes.
    TrailingBytes {
        /// The offset of the first byte after the item.
        offset: usize,
    },
    /// Nested deeper than [`CborLimits::max_depth`].
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// More than [`CborLimits::max_items`] items.
    TooManyItems {
        /// The limit.
        limit: usize,
    },
    /// A map holds the same key twice.
    DuplicateKey,
}

impl fmt::Display for CborError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed { offset } => write!(f, "malformed CBOR at byte {offset}"),
            Self::TrailingBytes { offset } => {
                write!(f, "bytes after the CBOR item, from byte {offset}")
            }
            Self::TooDeep { limit } => write!(f, "CBOR nests deeper than {limit} levels"),
            Self::TooManyItems { limit } => write!(f, "CBOR holds more than {limit} items"),
            Self::DuplicateKey => write!(f, "a CBOR map holds the same key twice"),
        }
    }
}

impl core::error::Error for CborError {}

impl ErrorCode for CborError {
    fn code(&self) -> &'static str {
        match self {
            Self::Malformed { .. } => "ERR_CBOR_MALFORMED",
            Self::TrailingBytes { .. } => "ERR_CBOR_TRAILING_BYTES",
            Self::TooDeep { .. } => "ERR_CBOR_TOO_DEEP",
            Self::TooManyItems { .. } => "ERR_CBOR_TOO_MANY_ITEMS",
            Self::DuplicateKey => "ERR_CBOR_DUPLICATE_KEY",
        }
    }
}

/// An item being read: its container and what is read of it so far.
enum Open {
    Array {
        items: Vec<Cbor>,
        left: Option<u64>,
    },
    Map {
        entries: Vec<(Cbor, Cbor)>,
        key: Option<Cbor>,
        left: Option<u64>,
    },
    Tag(u64),
    Bytes(Vec<u8>),
    Text(String),
}

/// Reads exactly one CBOR item from `bytes`.
///
/// # Errors
/// [`CborError`]: not well-formed, bytes after the item, over the budget, a duplicate key.
pub fn decode(bytes: &[u8], limits: CborLimits) -> Result<Cbor, CborError> {
    let mut decoder = Decoder::new(bytes);
    let mut open: Vec<Open> = Vec::new();
    let mut items = 0usize;
    loop {
        let offset = decoder.position();
        let malformed = |_| CborError::Malformed { offset };
        let token: Token = decoder.decode().map_err(malformed)?;
        items += 1;
        if items > limits.max_items {
            return Err(CborError::TooManyItems {
                limit: limits.max_items,
            });
        }
        let done = match token {
            Token::Break => match open.pop() {
                Some(Open::Array { items, left: None }) => Cbor::Array(items),
                Some(Open::Map {
                    entries,
                    key: None,
                    left: None,
                }) => finish_map(entries)?,
                Some(Open::Bytes(bytes)) => Cbor::Bytes(bytes),
                Some(Open::Text(text)) => Cbor::Text(text),
                _ => return Err(CborError::Malformed { offset }),
            },
            Token::Bytes(chunk) if matches!(open.last(), Some(Open::Bytes(_))) => {
                if let Some(Open::Bytes(bytes)) = open.last_mut() {
                    bytes.extend_from_slice(chunk);
                }
                continue;
            }
            Token::String(chunk) if matches!(open.last(), Some(Open::Text(_))) => {
                if let Some(Open::Text(text)) = open.last_mut() {
                    text.push_str(chunk);
                }
                continue;
            }
            // An indefinite string holds only definite chunks of its own type.
            _ if matches!(open.last(), Some(Open::Bytes(_) | Open::Text(_))) => {
                return Err(CborError::Malformed { offset });
            }
            Token::BeginBytes => {
                push(&mut open, Open::Bytes(Vec::new()), limits)?;
                continue;
            }
            Token::BeginString => {
                push(&mut open, Open::Text(String::new()), limits)?;
                continue;
            }
            Token::Array(0) => Cbor::Array(Vec::new()),
            Token::Map(0) => Cbor::Map(Vec::new()),
            Token::Array(len) => {
                let array = Open::Array {
                    items: Vec::with_capacity(capacity(len, bytes.len() - decoder.position())),
                    left: Some(len),
                };
                push(&mut open, array, limits)?;
                continue;
            }
            Token::Map(len) => {
                let map = Open::Map {
                    entries: Vec::with_capacity(capacity(len, bytes.len() - decoder.position())),
                    key: None,
                    left: Some(len),
                };
                push(&mut open, map, limits)?;
                continue;
            }
            Token::BeginArray => {
                let array = Open::Array {
                    items: Vec::new(),
                    left: None,
                };
                push(&mut open, array, limits)?;
                continue;
            }
            Token::BeginMap => {
                let map = Open::Map {
                    entries: Vec::new(),
                    key: None,
                    left: None,
                };
                push(&mut open, map, limits)?;
                continue;
            }
            Token::Tag(tag) => {
                push(&mut open, Open::Tag(tag.as_u64()), limits)?;
                continue;
            }
            other => scalar(other),
        };
        if let Some(item) = close(&mut open, done)? {
            let offset = decoder.position();
            return if offset == bytes.len() {
                Ok(item)
            } else {
                Err(CborError::TrailingBytes { offset })
            };
        }
    }
}

/// A scalar token's item (containers and breaks are handled by the caller).
fn scalar(token: Token<'_>) -> Cbor {
    match token {
        Token::Bool(value) => Cbor::Bool(value),
        Token::U8(n) => Cbor::Uint(n.into()),
        Token::U16(n) => Cbor::Uint(n.into()),
        Token::U32(n) => Cbor::Uint(n.into()),
        Token::U64(n) => Cbor::Uint(n),
        Token::I8(n) => Cbor::int(n.into()),
        Token::I16(n) => Cbor::int(n.into()),
        Token::I32(n) => Cbor::int(n.into()),
        Token::I64(n) => Cbor::int(n),
        // Past i64: a negative integer down to -2^64 (`-1 - n` for n up to u64::MAX).
        Token::Int(n) => {
            let value = i128::from(n);
            if value < 0 {
                Cbor::Neg((-1 - value) as u64)
            } else {
                Cbor::Uint(value as u64)
            }
        }
        Token::F16(x) | Token::F32(x) => Cbor::Float(x.into()),
        Token::F64(x) => Cbor::Float(x),
        Token::Bytes(bytes) => Cbor::Bytes(bytes.to_vec()),
        Token::String(text) => Cbor::Text(text.into()),
        Token::Null => Cbor::Null,
        Token::Undefined => Cbor::Undefined,
        Token::Simple(n) => Cbor::Simple(n),
        // Containers, tags and breaks never reach here (`decode` matches them first).
        _ => Cbor::Undefined,
    }
}

/// Room for at most as many items as the rest of the input could hold (one byte each), so
/// a declared length cannot make the reader allocate more than the input's size.
fn capacity(declared: u64, rest: usize) -> usize {
    usize::try_from(declared).map_or(rest, |len| len.min(rest))
}

fn push(open: &mut Vec<Open>, item: Open, limits: CborLimits) -> Result<(), CborError> {
    if open.len() >= limits.max_depth {
        return Err(CborError::TooDeep {
            limit: limits.max_depth,
        });
    }
    open.push(item);
    Ok(())
}

/// Puts a finished item into its container, closing every container it completes; the
/// document's item when nothing is left open.
fn close(open: &mut Vec<Open>, mut done: Cbor) -> Result<Option<Cbor>, CborError> {
    loop {
        let finished = match open.last_mut() {
            None => return Ok(Some(done)),
            Some(Open::Tag(tag)) => {
                let tag = *tag;
                open.pop();
                done = Cbor::Tag(tag, Box::new(done));
                continue;
            }
            Some(Open::Array { items, left }) => {
                items.push(done);
                countdown(left)
            }
            Some(Open::Map { entries, key, left }) => match key.take() {
                None => {
                    *key = Some(done);
                    return Ok(None);
                }
                Some(key) => {
                    entries.push((key, done));
                    countdown(left)
                }
            },
            // Chunks of indefinite strings are taken by `decode` before they get here.
            Some(Open::Bytes(_) | Open::Text(_)) => return Err(CborError::Malformed { offset: 0 }),
        };
        if !finished {
            return Ok(None);
        }
        done = match open.pop() {
            Some(Open::Array { items, .. }) => Cbor::Array(items),
            Some(Open::Map { entries, .. }) => finish_map(entries)?,
            _ => return Ok(None),
        };
    }
}

/// A complete map, once its keys are known to be unique: their encodings sorted and compared
/// side by side, so a map of n entries costs n log n comparisons, not n².
fn finish_map(entries: Vec<(Cbor, Cbor)>) -> Result<Cbor, CborError> {
    if entries.len() > 1 {
        let mut keys: Vec<Vec<u8>> = entries.iter().map(|(key, _)| key.encode()).collect();
        keys.sort_unstable();
        if keys.windows(2).any(|pair| pair[0] == pair[1]) {
            return Err(CborError::DuplicateKey);
        }
    }
    Ok(Cbor::Map(entries))
}

/// Counts one more entry of a definite container: whether it is now complete.
fn countdown(left: &mut Option<u64>) -> bool {
    match left {
        Some(n) => {
            *n -= 1;
            *n == 0
        }
        None => false,
    }
}
