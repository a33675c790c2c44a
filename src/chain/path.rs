//! Path building and validation (RFC 5280 §6.1) in a strict closed-PKI profile.
//!
//! Path building is structural — names, key identifiers, CA constraints, and time when it
//! is enforced — and never runs a signature check; the signatures of the chosen path are then
//! returned as data ([`ChainPlan::signature_checks`]) so that any backend can run them.
//! Anchors are preferred over pool certificates at each step, so a supplied root equal to
//! an anchor ends the path there and a cross-signed detour is never taken.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::store::TrustStore;
use super::verified::{ChainCertificate, ChainStatus, VerifiedChain};
use crate::crypto::{Deferred, SignatureCheck};
use crate::time::UnixTime;
use crate::x509::{Cert, CertPosition, ChainError, Purpose, MAX_CHAIN_CERTIFICATES};

/// Most certificates on one path, anchor included, whatever the profile says.
const MAX_PATH_LEN: usize = 10;
/// Most candidate issuers path building examines before giving up.
const BUILD_BUDGET: usize = 512;

/// How validity at `now` is handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TimeCheck {
    /// Build and verify the path without time checks and report expiry in
    /// [`VerifiedChain::status`] — what the real service does for device chains (its status
    /// `valid` / `expired`).
    Report,
    /// An expired or not-yet-valid certificate on the path is an error
    /// ([`ChainError::Expired`], [`ChainError::NotYetValid`]) and path building avoids it.
    Enforce,
}

/// The validation profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ChainOptions {
    /// Time handling; default [`TimeCheck::Report`].
    pub time: TimeCheck,
    /// Most intermediates (self-issued ones not counted, RFC 5280 §6.1.4 (l)); default 6.
    /// NVIDIA device chains have 3, RIM chains 2.
    pub max_intermediates: usize,
    /// Accept a leaf with basicConstraints cA TRUE (plain RFC 5280); default `false`: a leaf
    /// that signs evidence or documents must not be a CA (webpki profile).
    pub allow_ca_leaf: bool,
    /// What the leaf is used for: its keyUsage / extendedKeyUsage must allow it
    /// ([`Purpose`]); default `Some(`[`Purpose::DeviceLeaf`]`)`. `None` is path validation
    /// alone (RFC 5280 §6.1 leaves usage to the application): only for test suites of other
    /// profiles (x509-limbo's TLS leaves), never for evidence, RIMs or OCSP.
    pub purpose: Option<Purpose>,
}

impl Default for ChainOptions {
    fn default() -> Self {
        Self {
            time: TimeCheck::Report,
            max_intermediates: 6,
            allow_ca_leaf: false,
            purpose: Some(Purpose::DeviceLeaf),
        }
    }
}

impl ChainOptions {
    /// The default profile with another time handling.
    pub const fn with_time(mut self, time: TimeCheck) -> Self {
        self.time = time;
        self
    }

    /// The profile with [`Self::allow_ca_leaf`] set.
    pub const fn with_ca_leaf(mut self, allow: bool) -> Self {
        self.allow_ca_leaf = allow;
        self
    }

    /// The profile for a leaf used as `purpose`.
    pub const fn with_purpose(mut self, purpose: Purpose) -> Self {
        self.purpose = Some(purpose);
        self
    }

    /// The profile without the leaf usage check (see [`Self::purpose`]).
    pub const fn without_usage_check(mut self) -> Self {
        self.purpose = None;
        self
    }

    /// The default profile with another intermediate limit.
    pub const fn with_max_intermediates(mut self, max: usize) -> Self {
        self.max_intermediates = max;
        self
    }
}

/// A certificate on a candidate path: a supplied one or an anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Chain(usize),
    Anchor(usize),
}

/// A validated path whose signatures are still to be checked.
///
/// [`ChainPlan::new`] does every check but the signatures; [`ChainPlan::signature_checks`]
/// lists those (one per link, the anchor's own signature excluded); [`ChainPlan::finish`]
/// takes one verdict per check, from any backend, and builds the [`VerifiedChain`].
#[derive(Clone, Debug)]
pub struct ChainPlan {
    chain: VerifiedChain,
    checks: Vec<SignatureCheck>,
    signed: Vec<CertPosition>,
}

impl ChainPlan {
    /// Builds and validates a path from `chain[0]` (the leaf) through the other supplied
    /// certificates (in any order) to an anchor of `store`.
    ///
    /// # Errors
    /// The [`ChainError`] that ends the most promising path.
    pub fn new<C: AsRef<[u8]>>(
        chain: &[C],
        store: &TrustStore,
        now: UnixTime,
        options: &ChainOptions,
    ) -> Result<Self, ChainError> {
        Self::with_parser(chain, store, now, options, super::cache::cert)
    }

    /// [`Self::new`] (which decodes through the process-wide cache, `cache::cert`) with the
    /// certificates decoded by `parse`: [`Cert::parse`] or a cache
    /// of its results (a service keeps the CA certificates every request presents).
    pub(crate) fn with_parser<C: AsRef<[u8]>>(
        chain: &[C],
        store: &TrustStore,
        now: UnixTime,
        options: &ChainOptions,
        mut parse: impl FnMut(&[u8], CertPosition) -> Result<Arc<Cert>, ChainError>,
    ) -> Result<Self, ChainError> {
        if chain.is_empty() {
            return Err(ChainError::Empty);
        }
        if chain.len() > MAX_CHAIN_CERTIFICATES {
            return Err(ChainError::TooManyCertificates { count: chain.len() });
        }
        let certs = chain
            .iter()
            .enumerate()
            .map(|(i, der)| parse(der.as_ref(), CertPosition::Chain(i)))
            .collect::<Result<Vec<_>, _>>()?;
        // A supplied certificate equal to an anchor is that anchor.
        let as_anchor: Vec<Option<usize>> =
            certs.iter().map(|c| store.position_of(&c.der)).collect();

        let builder = Builder {
            certs: &certs,
            as_anchor: &as_anchor,
            store,
            now,
            options,
            budget: core::cell::Cell::new(BUILD_BUDGET),
        };
        let path = builder.build()?;
        builder.plan(&path)
    }

    /// The leaf's public key (SEC1), for checks of what the leaf signs.
    pub fn leaf_public_key_sec1(&self) -> &[u8] {
        self.chain.leaf_public_key_sec1()
    }

    /// The signature checks of the path, leaf link first.
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// Completes validation with one verdict per [`Self::signature_checks`] entry.
    ///
    /// # Errors
    /// [`ChainError::VerdictCount`], or [`ChainError::SignatureInvalid`] for the first
    /// failed check.
    pub fn finish(self, verdicts: &[bool]) -> Result<VerifiedChain, ChainError> {
        if verdicts.len() != self.checks.len() {
            return Err(ChainError::VerdictCount {
                expected: self.checks.len(),
                got: verdicts.len(),
            });
        }
        if let Some(i) = verdicts.iter().position(|ok| !ok) {
            let at = self
                .signed
                .get(i)
                .copied()
                .unwrap_or(CertPosition::Chain(0));
            return Err(ChainError::SignatureInvalid { at });
        }
        Ok(self.chain)
    }

    /// Runs the checks with the software backend and completes validation.
    ///
    /// # Errors
    /// As [`Self::finish`].
    pub fn verify(self) -> Result<VerifiedChain, ChainError> {
        crate::crypto::Deferred::finish_in_software(self)
    }
}

struct Builder<'a> {
    certs: &'a [Arc<Cert>],
    as_anchor: &'a [Option<usize>],
    store: &'a TrustStore,
    now: UnixTime,
    options: &'a ChainOptions,
    budget: core::cell::Cell<usize>,
}

impl Builder<'_> {
    fn cert(&self, node: Node) -> Option<&Cert> {
        match node {
            Node::Chain(i) => self.certs.get(i).map(|cert| &**cert),
            Node::Anchor(i) => self.store.anchors.get(i),
        }
    }

    fn position(node: Node) -> CertPosition {
        match node {
            Node::Chain(i) => CertPosition::Chain(i),
            Node::Anchor(i) => CertPosition::Anchor(i),
        }
    }

    fn build(&self) -> Result<Vec<Node>, ChainError> {
        // The leaf is never an anchor: anchors are CAs and the leaf must not be one.
        let leaf_node = Node::Chain(0);
        let leaf = self.cert(leaf_node).ok_or(ChainError::Empty)?;
        let at = Self::position(leaf_node);
        if let Some(defect) = &leaf.defect {
            return Err(defect.at(at));
        }
        // The leaf signs evidence or documents: it must not be a CA (webpki profile;
        // x509-limbo `webpki::ca-as-leaf`) unless the profile allows it; keyCertSign without
        // cA is inconsistent either way (RFC 5280 §4.2.1.3, `rfc5280::leaf-ku-keycertsign`).
        let cert_sign = leaf.key_usage.is_some_and(|ku| ku.key_cert_sign);
        if (leaf.claims_ca() && !self.options.allow_ca_leaf) || (cert_sign && !leaf.claims_ca()) {
            return Err(ChainError::LeafIsCa);
        }
        if let Some(purpose) = self.options.purpose {
            leaf.check_purpose(purpose, at)?;
        }
        self.check_time(leaf, at)?;
        let mut path = Vec::from([leaf_node]);
        self.extend(&mut path)?;
        Ok(path)
    }

    /// Depth-first search for an issuer of the last node, anchors first.
    fn extend(&self, path: &mut Vec<Node>) -> Result<(), ChainError> {
        let Some(&last) = path.last() else {
            return Err(ChainError::Empty);
        };
        let current = self.cert(last).ok_or(ChainError::Empty)?;
        let current_at = Self::position(last);
        let mut best: Option<ChainError> = None;

        let anchors = (0..self.store.anchors.len()).map(Node::Anchor);
        let pool = (1..self.certs.len())
            .filter(|&i| self.as_anchor.get(i).copied().flatten().is_none())
            .map(Node::Chain);
        for candidate in anchors.chain(pool) {
            if path.contains(&candidate) {
                continue;
            }
            let Some(issuer) = self.cert(candidate) else {
                continue;
            };
            if issuer.subject != current.issuer {
                continue;
            }
            // Key identifiers pick among same-named issuers (RFC 5280 §4.2.1.1).
            if let (Some(aki), Some(ski)) = (
                current
                    .authority_key_id
                    .as_ref()
                    .and_then(|a| a.key_id.as_ref()),
                issuer.subject_key_id.as_ref(),
            ) {
                if aki != ski {
                    continue;
                }
            }
            let remaining = self.budget.get();
            if remaining == 0 {
                return Err(ChainError::BuildBudgetExhausted);
            }
            self.budget.set(remaining.saturating_sub(1));

            let outcome = self
                .check_link(current, current_at, path, candidate, issuer)
                .and_then(|()| match candidate {
                    Node::Anchor(_) => {
                        path.push(candidate);
                        Ok(())
                    }
                    Node::Chain(_) => {
                        path.push(candidate);
                        let result = self.extend(path);
                        if result.is_err() {
                            path.pop();
                        }
                        result
                    }
                });
            match outcome {
                Ok(()) => return Ok(()),
                Err(ChainError::BuildBudgetExhausted) => {
                    return Err(ChainError::BuildBudgetExhausted)
                }
                Err(err) => {
                    if best.is_none() {
                        best = Some(err);
                    }
                }
            }
        }
        Err(best.unwrap_or(
            if current.is_self_issued() && matches!(last, Node::Chain(_)) {
                ChainError::UntrustedRoot { at: current_at }
            } else {
                ChainError::IssuerNotFound { at: current_at }
            },
        ))
    }

    /// Checks that `issuer` may issue `current` at this place of the path.
    fn check_link(
        &self,
        current: &Cert,
        current_at: CertPosition,
        path: &[Node],
        node: Node,
        issuer: &Cert,
    ) -> Result<(), ChainError> {
        let at = Self::position(node);
        if let Some(defect) = &issuer.defect {
            return Err(defect.at(at));
        }
        // RFC 5280 §4.2.1.1: every certificate but a self-signed one names its issuer's key.
        if current
            .authority_key_id
            .as_ref()
            .and_then(|a| a.key_id.as_ref())
            .is_none()
        {
            return Err(ChainError::KeyIdentifier { at: current_at });
        }
        let constraints = issuer.constraints.filter(|c| c.critical && c.ca);
        let Some(constraints) = constraints else {
            return Err(ChainError::IssuerNotCa { at });
        };
        if issuer.key_usage.is_some_and(|ku| !ku.key_cert_sign) {
            return Err(ChainError::IssuerWithoutKeyCertSign { at });
        }
        // RFC 5280 §4.2.1.2: CAs carry a subject key identifier; §4.1.2.6: a non-empty subject.
        if issuer.subject_key_id.is_none() {
            return Err(ChainError::KeyIdentifier { at });
        }
        if issuer.subject.len() <= 2 {
            return Err(ChainError::EmptyName { at });
        }
        // Intermediates below the issuer (the leaf excluded), self-issued ones not counted.
        let below = path
            .iter()
            .skip(1)
            .filter_map(|&n| self.cert(n))
            .filter(|c| !c.is_self_issued())
            .count();
        if constraints
            .path_len
            .is_some_and(|max| below > usize::from(max))
        {
            return Err(ChainError::PathLenExceeded { at });
        }
        match node {
            Node::Chain(_) => {
                let counted = below.saturating_add(usize::from(!issuer.is_self_issued()));
                if counted > self.options.max_intermediates
                    || path.len().saturating_add(2) > MAX_PATH_LEN
                {
                    return Err(ChainError::PathTooLong);
                }
            }
            Node::Anchor(_) => self.check_anchor(issuer, at)?,
        }
        self.check_time(issuer, at)
    }

    /// The anchor's own authority key identifier, when present, names its own key and
    /// nothing else (x509-limbo `webpki::aki::root-with-aki-*`). An anchor without one is
    /// accepted even when it is not self-issued: anchors are trusted as configured (x509-limbo
    /// `cve::cve-2024-0567` trusts such a root).
    fn check_anchor(&self, anchor: &Cert, at: CertPosition) -> Result<(), ChainError> {
        match &anchor.authority_key_id {
            None => Ok(()),
            Some(aki) => {
                let consistent = !aki.has_issuer_serial
                    && aki.key_id.is_some()
                    && (!anchor.is_self_issued() || aki.key_id == anchor.subject_key_id);
                if consistent {
                    Ok(())
                } else {
                    Err(ChainError::KeyIdentifier { at })
                }
            }
        }
    }

    fn check_time(&self, cert: &Cert, at: CertPosition) -> Result<(), ChainError> {
        if self.options.time != TimeCheck::Enforce {
            return Ok(());
        }
        if self.now < cert.not_before {
            return Err(ChainError::NotYetValid {
                at,
                not_before: cert.not_before,
            });
        }
        if self.now > cert.not_after {
            return Err(ChainError::Expired {
                at,
                not_after: cert.not_after,
            });
        }
        Ok(())
    }

    /// Turns a structurally valid path into signature checks and the report.
    fn plan(&self, path: &[Node]) -> Result<ChainPlan, ChainError> {
        let mut checks = Vec::new();
        let mut signed = Vec::new();
        for pair in path.windows(2) {
            let (Some(&child_node), Some(&issuer_node)) = (pair.first(), pair.get(1)) else {
                continue;
            };
            let (Some(child), Some(issuer)) = (self.cert(child_node), self.cert(issuer_node))
            else {
                return Err(ChainError::Empty);
            };
            let at = Self::position(child_node);
            let signature = child
                .signature
                .clone()
                .ok_or(ChainError::SignatureInvalid { at })?;
            let key = issuer
                .public_key
                .clone()
                .ok_or(ChainError::UnsupportedPublicKey {
                    at: Self::position(issuer_node),
                })?;
            checks.push(SignatureCheck {
                public_key_sec1: key,
                message: child.tbs_bytes().to_vec(),
                signature,
            });
            signed.push(at);
        }

        let certificates: Vec<ChainCertificate> = path
            .iter()
            .filter_map(|&n| {
                self.cert(n)
                    .map(|c| ChainCertificate::from_cert(c, Self::position(n)))
            })
            .collect();
        let leaf = self
            .cert(path.first().copied().unwrap_or(Node::Chain(0)))
            .ok_or(ChainError::Empty)?;
        let leaf_public_key = leaf
            .public_key
            .clone()
            .ok_or(ChainError::UnsupportedPublicKey {
                at: CertPosition::Chain(0),
            })?;
        let status = status_at(&certificates, self.now);
        let chain = VerifiedChain::new(
            certificates,
            leaf_public_key,
            status,
            leaf.dice_fwid.clone(),
            leaf.dice_tcb_info.clone(),
            self.certs.len(),
        );
        Ok(ChainPlan {
            chain,
            checks,
            signed,
        })
    }
}

/// The worst time status over the path: expired wins over not-yet-valid.
fn status_at(certificates: &[ChainCertificate], now: UnixTime) -> ChainStatus {
    if certificates.iter().any(|c| now > c.not_after) {
        ChainStatus::Expired
    } else if certificates.iter().any(|c| now < c.not_before) {
        ChainStatus::NotYetValid
    } else {
        ChainStatus::Valid
    }
}

impl Deferred for ChainPlan {
    type Output = VerifiedChain;
    type Error = ChainError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        ChainPlan::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedChain, ChainError> {
        ChainPlan::finish(self, verdicts)
    }
}
