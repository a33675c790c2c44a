//! The bounds a RIM document meets before any work that grows with it: its size, its
//! nesting, its attributes and namespace declarations (counted on the raw text), and the work
//! budget every pass before the signature check spends from. The checks and the errors that
//! report a bound both name it, so the numbers sit below them.

/// Largest RIM document accepted (real ones are 18–26 KB).
pub const MAX_RIM_BYTES: usize = 1 << 20;

/// Deepest element nesting accepted (real RIMs nest 4 deep).
pub const MAX_XML_DEPTH: usize = 32;

/// Most attributes on one element, namespace declarations not included. Real RIMs have at
/// most 12 (on `Meta`); a `Resource` with [`MAX_ALTERNATIVES`](super::MAX_ALTERNATIVES)
/// hash alternatives would have 70, and 128 leaves room above both. The XML parser compares
/// each attribute of an element with the earlier ones, so this is counted on the raw text
/// before parsing ([`RimError::TooManyAttributes`](super::RimError::TooManyAttributes)).
pub const MAX_XML_ATTRIBUTES: usize = 128;

/// Most namespace declarations (`xmlns`, `xmlns:*`) in the whole document. Real RIMs have 6
/// (7 with the opaque-data `ns3`); 64 is ten times that. Bounding the document's total also
/// bounds how many namespaces are in scope at any element, which the parser and
/// canonicalisation look prefixes up in; counted on the raw text before parsing
/// ([`RimError::TooManyNamespaces`](super::RimError::TooManyNamespaces)).
pub const MAX_XML_NAMESPACES: usize = 64;

/// Units of work one RIM preparation may spend before the signature is checked: the
/// pre-scan, the XML parser (charged from the pre-scan's counts before it runs), the depth
/// check, reading the content, the signature's structure and both canonicalisations (the
/// units — bytes, nodes, comparisons — are described in `src/rim/budget.rs`;
/// [`PendingRim::work`](super::PendingRim::work) reports what a document spent). A real RIM
/// spends 0.12–0.15 M units and the work grows linearly with the document: a 1 MiB document
/// shaped like a real RIM (4 447 more `Resource` records) spends 6.45 M. The budget admits
/// every such document up to [`MAX_RIM_BYTES`] with more than twice that as headroom, and
/// stops any other — those that the per-element caps admit but that make the parser compare
/// far more than a RIM does (every element at [`MAX_XML_ATTRIBUTES`],
/// [`MAX_XML_NAMESPACES`] in scope), or any future super-linear path — after a fixed number
/// of operations, whatever the host's speed
/// ([`RimError::WorkBudgetExceeded`](super::RimError::WorkBudgetExceeded); about 40 ms on
/// the development machine, where a real RIM takes 0.4 ms).
pub const MAX_RIM_WORK: u64 = 16_000_000;
