//! The work a RIM document can cause before its signature is checked (issue 15, point 1):
//! the caps on attributes per element and on namespace declarations, counted on the raw
//! text before the XML parser runs; the work budget over the whole preparation; and, with
//! the work counter [`PendingRim::work`], that the work grows linearly with the document.
//! No test here measures time: work is counted in operations.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions unwrap on fixtures.

use std::path::Path;

use base64::Engine;
use edgeattest::rim::{
    canonical_forms, prepare_rim, PendingRim, RimError, RimTrust, MAX_RIM_BYTES, MAX_RIM_WORK,
    MAX_XML_ATTRIBUTES, MAX_XML_NAMESPACES,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use proptest::prelude::*;
use sha2::Digest;

const NOW: UnixTime = UnixTime::from_secs(1_700_000_000).unwrap();

fn fixture(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/nvidia/rims")
            .join(rel),
    )
    .unwrap()
}

/// The NVAT driver RIM: 21 KB, 6 namespace declarations, at most 12 attributes per element.
fn real() -> String {
    fixture("nvat/NV_GPU_DRIVER_GH100_550.144.03.xml")
}

fn prepare(xml: &str) -> Result<PendingRim, RimError> {
    prepare_rim(xml.as_bytes(), &RimTrust::nvidia(), NOW)
}

/// The document with its `DigestValue` replaced by the digest of its canonical form, so that
/// preparation runs to the end (both canonicalisations) and reports its work. (The
/// signature over `SignedInfo` no longer verifies, which preparation does not check.)
fn redigest(xml: &str) -> String {
    let (document, _) = canonical_forms(xml).unwrap();
    let digest = base64::engine::general_purpose::STANDARD.encode(sha2::Sha384::digest(document));
    let start = xml.find("<ds:DigestValue>").unwrap() + "<ds:DigestValue>".len();
    let end = start + xml[start..].find("</ds:DigestValue>").unwrap();
    format!("{}{digest}{}", &xml[..start], &xml[end..])
}

/// The work of preparing `xml` once its digest is made to match.
fn work(xml: &str) -> u64 {
    prepare(&redigest(xml)).unwrap().work()
}

/// `declarations` more namespace declarations on the document element.
fn with_declarations(xml: &str, declarations: usize) -> String {
    let decls: String = (0..declarations)
        .map(|i| format!(" xmlns:a{i}=\"u\""))
        .collect();
    xml.replacen(
        "<SoftwareIdentity ",
        &format!("<SoftwareIdentity{decls} "),
        1,
    )
}

/// `content` appended to the `Payload` element (which ignores what is not a `Resource`).
fn in_payload(xml: &str, content: &str) -> String {
    xml.replacen("</ns0:Payload>", &format!("{content}</ns0:Payload>"), 1)
}

/// `records` more measurement records, copies of record 0 at fresh indices.
fn with_records(xml: &str, records: usize) -> String {
    let start = xml.find("<ns0:Resource ").unwrap();
    let end = start + xml[start..].find("/>").unwrap() + 2;
    let record = &xml[start..end];
    let extra: String = (0..records)
        .map(|i| {
            let index = 1000 + i;
            record
                .replacen("index=\"0\"", &format!("index=\"{index}\""), 1)
                .replacen("Measurement_0", &format!("Measurement_{index}"), 1)
                + "\n        "
        })
        .collect();
    xml.replacen("<ns0:Resource ", &format!("{extra}<ns0:Resource "), 1)
}

fn attributes(n: usize) -> String {
    (0..n).map(|i| format!(" a{i}=\"\"")).collect()
}

fn assert_cap(error: &RimError, code: &str) {
    assert_eq!(error.code(), code, "{error:?}");
    assert_eq!(error.service_code(), 4008, "{error:?}");
    assert!(error.field().is_none());
}

// ---- the review's two documents ---------------------------------------------------------------

#[test]
fn thousands_of_namespace_declarations_are_refused_before_parsing() {
    // The review's first document: a real RIM with 3 000 namespace declarations on its
    // document element and 500 more elements, 70 KB — canonicalised in 12.5 s, then refused
    // for its digest, before this cap.
    let xml = in_payload(&with_declarations(&real(), 3000), &"<x/>".repeat(500));
    assert!(xml.len() < 72_000);
    let error = prepare(&xml).unwrap_err();
    assert_cap(&error, "ERR_RIM_TOO_MANY_NAMESPACES");
    assert_eq!(
        error,
        RimError::TooManyNamespaces {
            limit: MAX_XML_NAMESPACES
        }
    );
    // Counted before parsing: the document cut short (not well-formed) gets the same answer.
    let cut = &xml[..xml.len() - 100];
    assert_cap(&prepare(cut).unwrap_err(), "ERR_RIM_TOO_MANY_NAMESPACES");
    assert_cap(
        &canonical_forms(&xml).unwrap_err(),
        "ERR_RIM_TOO_MANY_NAMESPACES",
    );
}

#[test]
fn tens_of_thousands_of_attributes_on_one_element_are_refused_before_parsing() {
    // The review's second document: one element with 95 000 attributes, 0.94 MB — the XML
    // parser's duplicate check took 30 s, then the document was refused as not a RIM.
    let xml = format!("<a{}/>", attributes(95_000));
    assert!(xml.len() <= MAX_RIM_BYTES);
    let error = prepare(&xml).unwrap_err();
    assert_cap(&error, "ERR_RIM_TOO_MANY_ATTRIBUTES");
    assert_eq!(
        error,
        RimError::TooManyAttributes {
            limit: MAX_XML_ATTRIBUTES
        }
    );
    // Counted before parsing: unterminated, it gets the same answer.
    let cut = &xml[..xml.len() - 2];
    assert_cap(&prepare(cut).unwrap_err(), "ERR_RIM_TOO_MANY_ATTRIBUTES");
    // The same inside a real RIM.
    let xml = in_payload(&real(), &format!("<x{}/>", attributes(20_000)));
    assert_cap(&prepare(&xml).unwrap_err(), "ERR_RIM_TOO_MANY_ATTRIBUTES");
}

// ---- the caps sit right at their values -------------------------------------------------------

#[test]
fn namespace_cap_admits_its_value() {
    // The real RIM declares 6 namespaces.
    let at_cap = with_declarations(&real(), MAX_XML_NAMESPACES - 6);
    assert!(prepare(&redigest(&at_cap)).is_ok());
    // The declarations may be anywhere in the document.
    let over = in_payload(&at_cap, "<x xmlns:over=\"u\"/>");
    assert_cap(&prepare(&over).unwrap_err(), "ERR_RIM_TOO_MANY_NAMESPACES");
}

#[test]
fn attribute_cap_admits_its_value_and_counts_no_declarations() {
    let decls: String = (0..8).map(|i| format!(" xmlns:b{i}=\"u\"")).collect();
    let at_cap = in_payload(
        &real(),
        &format!("<x{decls}{}/>", attributes(MAX_XML_ATTRIBUTES)),
    );
    assert!(prepare(&redigest(&at_cap)).is_ok());
    let over = in_payload(
        &real(),
        &format!("<x{}/>", attributes(MAX_XML_ATTRIBUTES + 1)),
    );
    assert_cap(&prepare(&over).unwrap_err(), "ERR_RIM_TOO_MANY_ATTRIBUTES");
}

#[test]
fn markup_in_comments_cdata_pis_and_values_is_not_counted() {
    // Fake tags with far more attributes and declarations than the caps, where the parser
    // reads no markup: the document is read (and fails later, as not signed as it was).
    let fake = format!(
        "<y{} xmlns:f0=\"u\" {}>",
        attributes(MAX_XML_ATTRIBUTES * 2),
        (1..=MAX_XML_NAMESPACES)
            .map(|i| format!("xmlns:f{i}='u'"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let junk = format!(
        "<!-- {fake} --><![CDATA[{fake}]]><?pi {fake}?><z v='{}' w=\"&lt;y a='1'&gt;\"/>",
        fake.replace('<', " ").replace('\'', "\"")
    );
    let xml = in_payload(&real(), &junk);
    assert_eq!(prepare(&xml).unwrap_err(), RimError::DigestMismatch);
    assert!(prepare(&redigest(&xml)).is_ok());
}

#[test]
fn a_repeated_default_namespace_declaration_is_malformed() {
    // Not well-formed (one attribute name twice), which libxml2 refuses; roxmltree would keep
    // both defaults in scope, and the canonical form would depend on which one a reader takes.
    let xml = real().replacen(
        "<SoftwareIdentity ",
        "<SoftwareIdentity xmlns=\"http://standards.iso.org/iso/19770/-2/2015/schema.xsd\" ",
        1,
    );
    let error = prepare(&xml).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_MALFORMED_XML", "{error:?}");
    assert_eq!(error.service_code(), 4008);
    assert_eq!(
        canonical_forms(&xml).unwrap_err().code(),
        "ERR_RIM_MALFORMED_XML"
    );
}

// ---- the work budget --------------------------------------------------------------------------

#[test]
fn real_rims_spend_a_hundredth_of_the_budget() {
    for rel in [
        "nvat/NV_GPU_DRIVER_GH100_550.144.03.xml",
        "nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml",
        "nvtrust/1010_0200_882_96005E0001_PROD.swidtag",
    ] {
        let pending = prepare(&fixture(rel)).unwrap();
        assert!(
            pending.work() < MAX_RIM_WORK / 100,
            "{rel}: {}",
            pending.work()
        );
        // The same document, the same count: the budget does not depend on time.
        assert_eq!(prepare(&fixture(rel)).unwrap().work(), pending.work());
    }
}

#[test]
fn a_mebibyte_shaped_like_a_rim_is_within_the_budget() {
    let record = with_records(&real(), 1).len() - real().len();
    let xml = redigest(&with_records(
        &real(),
        (MAX_RIM_BYTES - real().len()) / record,
    ));
    assert!(
        xml.len() > MAX_RIM_BYTES - record && xml.len() <= MAX_RIM_BYTES,
        "{}",
        xml.len()
    );
    let spent = prepare(&xml).unwrap().work();
    assert!(spent < MAX_RIM_WORK / 2, "{spent}");
}

#[test]
fn the_budget_refuses_within_the_caps_before_parsing() {
    // Every element at the attribute cap, in the scope of the namespace cap: allowed by the
    // caps, but the parser would compare 16 000 times per element.
    let decls = with_declarations(&real(), MAX_XML_NAMESPACES - 6);
    let element = format!("<x{}/>", attributes(MAX_XML_ATTRIBUTES));
    let count = (MAX_RIM_BYTES - decls.len()) / element.len();
    let xml = in_payload(&decls, &element.repeat(count));
    assert!(xml.len() <= MAX_RIM_BYTES);
    let error = prepare(&xml).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_WORK_BUDGET", "{error:?}");
    assert_eq!(
        error,
        RimError::WorkBudgetExceeded {
            limit: MAX_RIM_WORK
        }
    );
    assert_eq!(error.service_code(), 4008);
    // Charged before parsing: cut short, it gets the same answer, not ERR_RIM_MALFORMED_XML.
    let cut = &xml[..xml.len() - 100];
    assert_eq!(prepare(cut).unwrap_err().code(), "ERR_RIM_WORK_BUDGET");
    // A tenth of it is read to the end.
    let xml = in_payload(&decls, &element.repeat(count / 10));
    assert!(prepare(&redigest(&xml)).is_ok());
}

// ---- linear work ------------------------------------------------------------------------------

/// For `w` linear in `n`, `w(4n) − w(2n) = 2 · (w(2n) − w(n))`; quadratic work makes it 4 ×.
fn growth(w: impl Fn(usize) -> u64, n: usize) -> f64 {
    let (a, b, c) = (w(n), w(2 * n), w(4 * n));
    assert!(a < b && b < c);
    (c - b) as f64 / (b - a) as f64
}

#[test]
fn namespace_work_is_linear_in_the_declarations() {
    // The review's first document in miniature, within the cap: 14, 28, 56 declarations on
    // the document element over 500 more elements. Canonicalisation compared every namespace
    // in scope with every one of the parent's: 585 · k² comparisons.
    // (Above 2: the parser's own duplicate check among the document element's declarations,
    // quadratic in them and bounded by MAX_XML_NAMESPACES; before, the ratio was 4.)
    let base = in_payload(&real(), &"<x/>".repeat(500));
    let ratio = growth(|k| work(&with_declarations(&base, k)), 14);
    assert!((1.8..=2.5).contains(&ratio), "{ratio}");
}

#[test]
fn an_element_under_many_namespaces_costs_its_size_not_the_scope_squared() {
    // 64 namespaces in scope (the cap); 500, 1 000, 2 000 small elements. Canonicalisation
    // compared each element's 64 in-scope namespaces with its parent's 64: 4 096 comparisons
    // per element. Now an element costs its bytes, the parser's lookups of its prefixes in
    // the scope (2 · 64) and the canonicalisation of its own declarations (none here).
    let base = with_declarations(&real(), MAX_XML_NAMESPACES - 6);
    let w = |n: usize| work(&in_payload(&base, &"<a0:x a1:y=\"1\"/>".repeat(n)));
    let ratio = growth(w, 500);
    assert!((1.8..=2.2).contains(&ratio), "{ratio}");
    let per_element = (w(1000) - w(500)) / 500;
    assert!(per_element < 1_000, "{per_element}");
}

#[test]
fn work_is_linear_in_the_measurement_records() {
    // Each record was checked against every earlier one for a repeated index.
    let ratio = growth(|n| work(&with_records(&real(), n)), 500);
    assert!((1.8..=2.2).contains(&ratio), "{ratio}");
    // A repeated index is still found, wherever it is.
    let xml = with_records(&real(), 500).replacen("index=\"1499\"", "index=\"3\"", 1);
    assert_eq!(
        prepare(&xml).unwrap_err(),
        RimError::DuplicateIndex { index: 3 }
    );
}

#[test]
fn hash_alternatives_are_read_in_one_pass() {
    // 20 records with 64 one-byte hash attributes each, `alternatives` 64 or 1: the parser and
    // canonicalisation see the same attributes, only reading the alternatives differs. Each
    // alternative `HashN` was looked up among all the record's 70 attributes (64 · 70
    // comparisons per record); now all are read in one pass over the attributes.
    let records = |alternatives: usize| {
        let hashes: String = (0..64)
            .map(|i| format!(" ns2:Hash{i}=\"{i:02x}\""))
            .collect();
        let record = |index: usize| {
            format!(
                "<ns0:Resource type=\"Measurement\" index=\"{index}\" active=\"False\" \
                 alternatives=\"{alternatives}\"{hashes} name=\"m\" size=\"1\"/>"
            )
        };
        in_payload(&real(), &(900..920).map(record).collect::<String>())
    };
    let all = prepare(&redigest(&records(64))).unwrap();
    let read = &all.unverified_document().measurements;
    assert_eq!(read[64].alternatives.len(), 64);
    assert_eq!(read[64].alternatives[63], [0x3f]);
    let extra = all.work() - work(&records(1));
    // 20 records × 63 more alternatives × (2 hex digits + 1 step): a few units each.
    assert!(extra < 20 * 63 * 8, "{extra}");
}

// ---- neighbours rewritten as single passes: the same answers ---------------------------------

const NS3: &str = "https://docs.nvidia.com/attestation/specs/latest/opaque-data.html";

#[test]
fn a_measurement_and_an_opaque_floor_may_not_share_an_index() {
    let floor = format!("<ns0:Resource xmlns:ns3=\"{NS3}\" index=\"101\" ns3:minSvn=\"5\"/>");
    let measurement = "<ns0:Resource type=\"Measurement\" index=\"101\" active=\"False\" \
                       alternatives=\"1\" ns2:Hash0=\"00\" size=\"1\"/>";
    let pending = prepare(&redigest(&in_payload(&real(), &floor))).unwrap();
    assert_eq!(pending.unverified_document().opaque_floors[0].index, 101);
    for both in [
        format!("{floor}{measurement}"),
        format!("{measurement}{floor}"),
    ] {
        assert_eq!(
            prepare(&in_payload(&real(), &both)).unwrap_err(),
            RimError::DuplicateIndex { index: 101 }
        );
    }
}

#[test]
fn an_xml_dsig_element_outside_the_signature_is_refused() {
    let dsig = "xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"";
    for outside in [
        format!("<ds:KeyInfo {dsig}/>"),
        format!("<x><y><ds:DigestValue {dsig}>AA==</ds:DigestValue></y></x>"),
    ] {
        assert_eq!(
            prepare(&in_payload(&real(), &outside)).unwrap_err(),
            RimError::SignatureStructure {
                problem: "XML-DSig element outside ds:Signature"
            },
            "{outside}"
        );
    }
}

// ---- property: refusal exactly when over a cap ------------------------------------------------

/// An element of a generated document: its attribute and declaration counts, quoting, and
/// junk before it that holds markup the parser does not read.
#[derive(Clone, Debug)]
struct Element {
    attributes: usize,
    declarations: usize,
    single_quotes: bool,
    junk: u8,
}

fn element() -> impl Strategy<Value = Element> {
    (
        prop_oneof![
            0..8usize,
            (MAX_XML_ATTRIBUTES - 2)..=(MAX_XML_ATTRIBUTES + 2)
        ],
        any::<bool>(),
        0u8..4,
    )
        .prop_map(|(attributes, single_quotes, junk)| Element {
            attributes,
            declarations: 0,
            single_quotes,
            junk,
        })
}

/// One to five elements whose declarations add up (with the root's one) to a total near the
/// cap, or to a few, spread over the elements.
fn elements() -> impl Strategy<Value = Vec<Element>> {
    (
        proptest::collection::vec(element(), 1..6),
        prop_oneof![
            1..8usize,
            (MAX_XML_NAMESPACES - 3)..=(MAX_XML_NAMESPACES + 3)
        ],
        any::<proptest::sample::Index>(),
    )
        .prop_map(|(mut elements, total, at)| {
            let n = elements.len();
            let left = total - 1;
            for e in &mut elements {
                e.declarations = left / n;
            }
            elements[at.index(n)].declarations += left % n;
            elements
        })
}

/// Writes the elements as children of one `<r>` with unique prefixes, values holding `>`,
/// `/>` and quoted look-alikes of attributes and declarations.
fn document(elements: &[Element]) -> String {
    let mut xml = String::from("<?xml version=\"1.0\"?>\n<r xmlns=\"urn:r\">");
    let mut prefix = 0;
    for e in elements {
        let q = if e.single_quotes { '\'' } else { '"' };
        let other = if e.single_quotes { '"' } else { '\'' };
        match e.junk {
            1 => xml.push_str("<!-- <f a=\"1\" xmlns:f=\"u\" b='2'> -->"),
            2 => xml.push_str("<![CDATA[<f a=\"1\" xmlns:f=\"u\">]]>"),
            3 => xml.push_str("<?f a=\"1\" xmlns:f=\"u\"?>"),
            _ => {}
        }
        xml.push_str("<e");
        for _ in 0..e.declarations {
            prefix += 1;
            xml.push_str(&format!(" xmlns:p{prefix}={q}urn:{prefix}>{q}"));
        }
        for i in 0..e.attributes {
            xml.push_str(&format!(
                "\n a{i} = {q}> x{i}={other}1{other} xmlns:z{i}={other}u{other} />{q}"
            ));
        }
        xml.push_str("/>");
    }
    xml.push_str("</r>");
    xml
}

/// The cap the pre-scan reports first, in document order (within one element, the
/// document's declarations before the element's attributes), if any.
fn expected(elements: &[Element]) -> Option<&'static str> {
    let mut declarations = 1; // the root's default namespace
    for e in elements {
        declarations += e.declarations;
        if declarations > MAX_XML_NAMESPACES {
            return Some("ERR_RIM_TOO_MANY_NAMESPACES");
        }
        if e.attributes > MAX_XML_ATTRIBUTES {
            return Some("ERR_RIM_TOO_MANY_ATTRIBUTES");
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn refused_exactly_when_over_a_cap(elements in elements()) {
        let xml = document(&elements);
        let error = prepare(&xml).unwrap_err();
        match expected(&elements) {
            Some(code) => prop_assert_eq!(error.code(), code),
            None => {
                // Within the caps the document is parsed and read: it is not a SWID tag.
                prop_assert_eq!(error.code(), "ERR_RIM_SCHEMA", "{:?}", error);
                let doc = roxmltree::Document::parse(&xml).unwrap();
                prop_assert_eq!(doc.descendants().filter(|n| n.is_element()).count(), elements.len() + 1);
            }
        }
    }
}
