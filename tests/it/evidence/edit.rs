//! Editing a real legacy-format GPU or switch transcript's opaque data and signing it again
//! with a test key: evidence a real device never sent, for the rules that read opaque tags.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::Nonce;
use edgeattest::crypto::SigningKey;

/// One opaque entry: its tag and value.
pub(crate) type Entry = (u16, Vec<u8>);

/// The transcript with its opaque entries replaced by what `edit` makes of them (in order),
/// re-signed with `key`. The layout is SPDM 1.1's: a 37-byte request, then the response's
/// measurement record, nonce, opaque length and entries, and the signature.
pub(crate) fn rewrite_opaque(
    transcript: &[u8],
    edit: impl FnOnce(&mut Vec<Entry>),
    key: &SigningKey,
) -> Vec<u8> {
    let (request, response) = transcript.split_at(37);
    let blocks =
        usize::from(response[5]) | usize::from(response[6]) << 8 | usize::from(response[7]) << 16;
    let at = 8 + blocks + 32;
    let length = usize::from(u16::from_le_bytes([response[at], response[at + 1]]));
    let opaque = &response[at + 2..at + 2 + length];
    let mut entries = Vec::new();
    let mut i = 0;
    while i < opaque.len() {
        let tag = u16::from_le_bytes([opaque[i], opaque[i + 1]]);
        let len = usize::from(u16::from_le_bytes([opaque[i + 2], opaque[i + 3]]));
        entries.push((tag, opaque[i + 4..i + 4 + len].to_vec()));
        i += 4 + len;
    }
    edit(&mut entries);
    let mut written = Vec::new();
    for (tag, value) in &entries {
        written.extend_from_slice(&tag.to_le_bytes());
        written.extend_from_slice(&u16::try_from(value.len()).unwrap().to_le_bytes());
        written.extend_from_slice(value);
    }
    let mut signed = request.to_vec();
    signed.extend_from_slice(&response[..at]);
    signed.extend_from_slice(&u16::try_from(written.len()).unwrap().to_le_bytes());
    signed.extend_from_slice(&written);
    let signature = key.sign(&signed);
    signed.extend_from_slice(&signature);
    signed
}

/// Sets `tag` to `value` (replacing it where it is, or appending it), or removes it.
pub(crate) fn set(entries: &mut Vec<Entry>, tag: u16, value: Option<Vec<u8>>) {
    let at = entries.iter().position(|(t, _)| *t == tag);
    match (at, value) {
        (Some(i), Some(value)) => entries[i].1 = value,
        (None, Some(value)) => entries.push((tag, value)),
        (Some(i), None) => {
            entries.remove(i);
        }
        (None, None) => {}
    }
}

/// The caller's nonce of a transcript (request bytes 4..36).
pub(crate) fn nonce_of(transcript: &[u8]) -> Nonce {
    Nonce::from_bytes(transcript[4..36].try_into().unwrap())
}
