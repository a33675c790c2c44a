//! A count of the work one RIM preparation may do before its signature is checked, in the
//! spirit of rustls-webpki's path-building `Budget`: every pass over the document spends
//! units *before* the work they stand for (canonicalisation charges re-reading one start
//! tag right after it, a step the pre-scan has already bounded), and the first pass that
//! would go over [`super::MAX_RIM_WORK`] stops the preparation with
//! [`RimError::WorkBudgetExceeded`].
//!
//! The count is of operations, never of time, so the same document always costs the same
//! number of units on every host. One unit is one of:
//!
//! * a byte scanned or copied: the pre-scan reads every byte of the document, the XML parser
//!   tokenises it, canonicalisation re-reads each start tag and copies names, text and
//!   attribute values (the canonical output is at most 6 bytes per unit: `"` → `&quot;`);
//! * a node visited by a pass (the depth check, the signature and content checks, each
//!   canonicalisation);
//! * a comparison: an attribute or namespace examined, a namespace-scope lookup or update,
//!   one step of a sort (`n · ⌈log₂ n⌉` for `n` items);
//! * the XML parser's own comparisons, charged from the pre-scan's counts before it runs
//!   (see `scan::XmlCounts::parse_cost`).

use super::error::RimError;

/// Units of work left for one preparation.
#[derive(Debug)]
pub(crate) struct Budget {
    spent: u64,
    limit: u64,
}

impl Budget {
    pub(crate) fn new(limit: u64) -> Self {
        Self { spent: 0, limit }
    }

    /// Spends `units` before the work they stand for; refuses once the total would exceed
    /// the limit (the units are counted as spent either way).
    pub(crate) fn spend(&mut self, units: u64) -> Result<(), RimError> {
        self.spent = self.spent.saturating_add(units);
        if self.spent > self.limit {
            return Err(RimError::WorkBudgetExceeded { limit: self.limit });
        }
        Ok(())
    }

    /// [`Self::spend`] for a `usize` count.
    pub(crate) fn spend_usize(&mut self, units: usize) -> Result<(), RimError> {
        self.spend(u64::try_from(units).unwrap_or(u64::MAX))
    }

    /// The units of sorting `n` items: `n · ⌈log₂ n⌉`, at least `n`.
    pub(crate) fn spend_sort(&mut self, n: usize) -> Result<(), RimError> {
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        self.spend(n.saturating_mul(log2(n)))
    }

    /// The units of one lookup or insertion in an ordered set of `n` items: `⌈log₂ n⌉`, at
    /// least 1.
    pub(crate) fn spend_lookup(&mut self, n: usize) -> Result<(), RimError> {
        self.spend(log2(u64::try_from(n).unwrap_or(u64::MAX)))
    }

    /// Units spent so far.
    pub(crate) fn spent(&self) -> u64 {
        self.spent
    }
}

/// The number of significant bits of `n`, at least 1: an upper bound of `⌈log₂ n⌉`.
fn log2(n: u64) -> u64 {
    u64::from(u64::BITS - n.leading_zeros()).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spending_past_the_limit_is_refused_and_counted() {
        let mut budget = Budget::new(10);
        assert!(budget.spend(10).is_ok());
        assert_eq!(
            budget.spend(1),
            Err(RimError::WorkBudgetExceeded { limit: 10 })
        );
        assert_eq!(budget.spent(), 11);
        assert!(budget.spend(u64::MAX).is_err());
        assert_eq!(budget.spent(), u64::MAX);
    }

    #[test]
    fn sorting_costs_n_log_n() {
        let mut budget = Budget::new(u64::MAX);
        budget.spend_sort(0).unwrap();
        budget.spend_sort(1).unwrap();
        assert_eq!(budget.spent(), 1);
        budget.spend_sort(8).unwrap(); // 8 · 4 (8 has 4 significant bits: an upper bound)
        assert_eq!(budget.spent(), 33);
        budget.spend_lookup(0).unwrap();
        budget.spend_lookup(1000).unwrap();
        assert_eq!(budget.spent(), 33 + 1 + 10);
    }
}
