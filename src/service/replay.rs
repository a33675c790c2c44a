//! Replayable verdicts: an attestation that asks for it (request header
//! `x-edgeattest-replay: bundle`) is answered with a [`Bundle`] that holds every input of
//! the verdict by value and by digest — the request as received, the time, the entropy,
//! the configuration, the trust anchors' digests, the RIM documents the service held, each
//! fetched answer exactly as the host gave it — and the result. [`replay`] recomputes the
//! verdict offline with the software backend and an ephemeral key, and explains every
//! difference from the recorded one.
//!
//! Decisions:
//! - The bundle replaces the body only when asked for (media type [`BUNDLE_MEDIA_TYPE`],
//!   the status of the result); its `result` member holds the response the client would
//!   have got, verbatim. Without the header nothing changes; another header value is 400
//!   `ERR_REQUEST_REPLAY_HEADER`. Refusals made before the verification starts (bad JSON,
//!   no issuer) carry no bundle: they have no inputs besides the request.
//! - The entropy is recorded: it decides the OCSP nonces (the responder must echo them) and
//!   the token ids, both public in the tokens and the OCSP requests; nothing secret derives
//!   from it (the signatures are deterministic, RFC 6979, from the key alone).
//! - The trust anchors are recorded by digest only: the replayer supplies the anchors it
//!   trusts, and a different set is a difference, so a bundle cannot bring its own roots.
//! - Claims are compared bit for bit (each claim's JSON text and the claims' order), all but
//!   `jti`, `iat`, `nbf` and `exp`, and in the overall token the device tokens' digests in
//!   `submods` (they cover signatures): the device tokens' claims are compared instead.
//! - The digests are SHA-256 over each value's compact JSON in the bundle's own shape: they
//!   tell which input was altered after recording; nothing signs the bundle, the recorded
//!   tokens are signed by the service.

mod bundle;
mod compare;
mod error;
mod options;
mod record;
mod run;
// The kind-tagged records as read (serde).
mod tagged;

pub use bundle::{
    AnchorDigests, AnswerRecord, Bundle, ConfigRecord, Digested, FailureRecord, FetchRecord,
    RequestRecord, ResourceRecord, ResultRecord, RimRecord, BUNDLE_FORMAT, BUNDLE_MEDIA_TYPE,
    MAX_BUNDLE_BYTES, MAX_BUNDLE_FETCHES, MAX_BUNDLE_RIMS, REPLAY_HEADER,
};
pub use compare::{Difference, TokenClaims, Verdict};
pub use error::ReplayError;
pub use options::ReplayOptions;
pub(crate) use record::{requested, Recorder};
pub use run::{replay, ReplayAnchors, Replayed};
