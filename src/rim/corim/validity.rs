//! A CoRIM's validity period (draft-ietf-rats-corim-11 §4.1.3, §4.2.2):
//!
//! ```text
//! validity-map = { ? 0 => time ; not-before
//!                    1 => time } ; not-after
//! time         = #6.1(int)       ; seconds since the Unix epoch
//! ```
//!
//! It can be stated twice: by the `corim-map` (`rim-validity`, key 4) and, for a signed
//! CoRIM, by the signer in the protected `corim-meta` header (label 8, `signature-validity`,
//! key 1). The document is usable only while both hold, so the two are intersected. A
//! CoRIM that states neither has no period of its own: only its signer's certificates'
//! validity (checked with its chain) limits it.

use super::error::CorimError;
use crate::cbor::Cbor;
use crate::time::UnixTime;

/// CBOR tag of an epoch-based date/time (RFC 8949 §3.4.2).
const TAG_EPOCH: u64 = 1;

/// The period in which a CoRIM may be used, in seconds since the Unix epoch; either bound
/// may be absent (no constraint on that side).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Validity {
    not_before: Option<i64>,
    not_after: Option<i64>,
}

impl Validity {
    /// Reads a `validity-map` at `field` (a path for the error).
    ///
    /// # Errors
    /// [`CorimError::Schema`] when it is not a map, `not-after` is missing, or a bound is not
    /// `#6.1(int)`.
    pub(crate) fn read(map: &Cbor, field: &str) -> Result<Self, CorimError> {
        let entries = map
            .as_map()
            .ok_or_else(|| CorimError::schema(field, "validity is not a map"))?;
        let mut validity = Self::default();
        for (key, value) in entries {
            let slot = match key.as_u64() {
                Some(0) => &mut validity.not_before,
                Some(1) => &mut validity.not_after,
                _ => return Err(CorimError::schema(field, "validity has an unknown key")),
            };
            *slot = Some(epoch(value).ok_or_else(|| {
                CorimError::schema(field, "validity bound is not #6.1(int) epoch time")
            })?);
        }
        if validity.not_after.is_none() {
            return Err(CorimError::schema(field, "validity has no not-after"));
        }
        Ok(validity)
    }

    /// The period in which both `self` and `other` hold.
    pub(crate) fn and(self, other: Self) -> Self {
        let pick = |a: Option<i64>, b: Option<i64>, f: fn(i64, i64) -> i64| match (a, b) {
            (Some(a), Some(b)) => Some(f(a, b)),
            (a, b) => a.or(b),
        };
        Self {
            not_before: pick(self.not_before, other.not_before, i64::max),
            not_after: pick(self.not_after, other.not_after, i64::min),
        }
    }

    /// Whether the period holds at `now`: both bounds inclusive, as a certificate's are.
    ///
    /// # Errors
    /// [`CorimError::NotYetValid`] before `not-before`, [`CorimError::Expired`] after
    /// `not-after`.
    pub(crate) fn check(self, now: UnixTime) -> Result<(), CorimError> {
        let secs = now.as_secs();
        let at = i64::try_from(secs).unwrap_or(i64::MAX);
        if let Some(not_before) = self.not_before.filter(|bound| at < *bound) {
            return Err(CorimError::NotYetValid {
                not_before,
                now: secs,
            });
        }
        if let Some(not_after) = self.not_after.filter(|bound| at > *bound) {
            return Err(CorimError::Expired {
                not_after,
                now: secs,
            });
        }
        Ok(())
    }
}

/// `#6.1(int)`: seconds since the epoch. Floating-point times are refused: a bound is
/// compared to the second.
fn epoch(value: &Cbor) -> Option<i64> {
    value.untag(TAG_EPOCH)?.as_i64()
}
