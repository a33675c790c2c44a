//! Tests of the canonicaliser: the recommendation's examples, namespace scoping, the budget,
//! and equality with the previous quadratic implementation kept as an oracle.

use super::*;
use alloc::format;
use alloc::string::String;
use proptest::prelude::*;

fn unlimited() -> Budget {
    Budget::new(u64::MAX)
}

fn without(doc: &Document<'_>, exclude: NodeId) -> String {
    String::from_utf8(document_without(doc, exclude, &mut unlimited()).unwrap()).unwrap()
}

fn canon_doc(xml: &str) -> String {
    let doc = Document::parse(xml).unwrap();
    // Exclude nothing: use the document node id, which is never a child.
    without(&doc, doc.root().id())
}

#[test]
fn escapes_and_sorts_like_the_recommendation() {
    // C14N 1.0/1.1 §3.4-style inputs.
    let xml = "<?xml version=\"1.0\"?>\n<!-- c -->\n<doc xmlns:b=\"urn:b\" xmlns:a=\"urn:a\" \
               z=\"1\" b:y=\"2\" a:x=\"3\" e=\"&amp;&lt;&quot;&#9;&#10;&#13;'\">\
               <e1   /><![CDATA[x<y&z>]]>&#13;<?pi  data ?><!-- gone --></doc>\n<?after?>";
    assert_eq!(
        canon_doc(xml),
        "<doc xmlns:a=\"urn:a\" xmlns:b=\"urn:b\" e=\"&amp;&lt;&quot;&#x9;&#xA;&#xD;'\" \
         z=\"1\" a:x=\"3\" b:y=\"2\"><e1></e1>x&lt;y&amp;z&gt;&#xD;<?pi data ?></doc>\n<?after?>"
    );
}

#[test]
fn superfluous_and_default_namespace_declarations() {
    let xml = "<a xmlns=\"urn:d\" xmlns:p=\"urn:p\"><b xmlns:p=\"urn:p\"><c xmlns=\"\">\
               <d xmlns=\"\"/></c></b></a>";
    assert_eq!(
        canon_doc(xml),
        "<a xmlns=\"urn:d\" xmlns:p=\"urn:p\"><b><c xmlns=\"\"><d></d></c></b></a>"
    );
}

#[test]
fn redeclarations_render_and_scope_ends_with_the_element() {
    // p is rebound on b and back on c; after b ends, its sibling e sees a's binding again.
    let xml = "<a xmlns:p=\"urn:1\" xmlns:xml=\"http://www.w3.org/XML/1998/namespace\">\
               <b xmlns:p=\"urn:2\" xmlns=\"urn:d\"><c xmlns:p=\"urn:1\"/></b>\
               <e xmlns:p=\"urn:1\" xmlns=\"\"/></a>";
    assert_eq!(
        canon_doc(xml),
        "<a xmlns:p=\"urn:1\"><b xmlns=\"urn:d\" xmlns:p=\"urn:2\">\
         <c xmlns:p=\"urn:1\"></c></b><e></e></a>"
    );
}

#[test]
fn apex_renders_inherited_namespaces_and_xml_attributes() {
    let xml = "<a xmlns=\"urn:d\" xmlns:p=\"urn:p\" xml:lang=\"en\" xml:id=\"i\">\
               <p:b q=\"1\"><c/></p:b></a>";
    let doc = Document::parse(xml).unwrap();
    let b = doc.root_element().first_element_child().unwrap();
    assert_eq!(
        String::from_utf8(subtree(b, &mut unlimited()).unwrap()).unwrap(),
        "<p:b xmlns=\"urn:d\" xmlns:p=\"urn:p\" q=\"1\" xml:lang=\"en\"><c></c></p:b>"
    );
}

#[test]
fn apex_under_an_undeclared_default_renders_no_empty_default() {
    let xml = "<a xmlns=\"urn:d\"><b xmlns=\"\"><c xml:space=\"preserve\"/></b></a>";
    let doc = Document::parse(xml).unwrap();
    let b = doc.root_element().first_element_child().unwrap();
    assert_eq!(
        String::from_utf8(subtree(b, &mut unlimited()).unwrap()).unwrap(),
        "<b><c xml:space=\"preserve\"></c></b>"
    );
}

#[test]
fn inherited_xml_base_is_refused() {
    let doc = Document::parse("<a xml:base=\"http://x/\"><b/></a>").unwrap();
    let b = doc.root_element().first_element_child().unwrap();
    assert!(matches!(
        subtree(b, &mut unlimited()),
        Err(RimError::UnsupportedXml { .. })
    ));
}

#[test]
fn excluded_subtree_leaves_surrounding_text() {
    let xml = "<a>\n  <s><t/></s>\n</a>";
    let doc = Document::parse(xml).unwrap();
    let s = doc.root_element().first_element_child().unwrap();
    assert_eq!(without(&doc, s.id()), "<a>\n  \n</a>");
}

#[test]
fn the_budget_stops_canonicalisation() {
    let xml = format!("<a>{}</a>", "<b>text</b>".repeat(100));
    let doc = Document::parse(&xml).unwrap();
    let mut budget = unlimited();
    document_without(&doc, doc.root().id(), &mut budget).unwrap();
    let needed = budget.spent();
    assert!(needed > 1_000, "{needed}");
    let mut budget = Budget::new(needed - 1);
    assert_eq!(
        document_without(&doc, doc.root().id(), &mut budget),
        Err(RimError::WorkBudgetExceeded { limit: needed - 1 })
    );
    let mut budget = Budget::new(needed);
    assert!(document_without(&doc, doc.root().id(), &mut budget).is_ok());
}

#[test]
fn namespace_work_is_per_declaration_not_per_namespace_in_scope() {
    // k namespaces declared on the root, n children that declare nothing: the children
    // cost the same whatever k is (the previous algorithm compared k × k per child).
    let work = |k: usize, n: usize| {
        let decls: String = (0..k).map(|i| format!(" xmlns:p{i}=\"urn:{i}\"")).collect();
        let xml = format!("<a{decls}>{}</a>", "<b/>".repeat(n));
        let doc = Document::parse(&xml).unwrap();
        let mut budget = unlimited();
        document_without(&doc, doc.root().id(), &mut budget).unwrap();
        budget.spent()
    };
    let per_child = |k: usize| work(k, 200) - work(k, 100);
    assert_eq!(per_child(4), per_child(64));
}

/// The previous canonicaliser, kept as the oracle: it reads §2.3 directly (every
/// namespace in scope compared with every one of the parent's, `O(k²)` per element).
mod oracle {
    use super::super::*;

    pub(super) fn document_without(doc: &Document<'_>, exclude: NodeId) -> Vec<u8> {
        let mut out = Vec::new();
        let root = doc.root_element();
        let mut before_root = true;
        for child in doc.root().children() {
            match child.node_type() {
                NodeType::Element => {
                    element(child, false, Some(exclude), &mut out);
                    before_root = false;
                }
                NodeType::PI => {
                    if !before_root {
                        out.push(b'\n');
                    }
                    pi(child, &mut out);
                    if before_root {
                        out.push(b'\n');
                    }
                }
                _ => {}
            }
            if child == root {
                before_root = false;
            }
        }
        out
    }

    pub(super) fn subtree(apex: Node<'_, '_>) -> Vec<u8> {
        let mut out = Vec::new();
        element(apex, true, None, &mut out);
        out
    }

    fn pi(node: Node<'_, '_>, out: &mut Vec<u8>) {
        if let Some(pi) = node.pi() {
            processing_instruction(pi.target, pi.value.unwrap_or(""), out);
        }
    }

    fn element(node: Node<'_, '_>, is_apex: bool, exclude: Option<NodeId>, out: &mut Vec<u8>) {
        let qname = element_qname(node).unwrap();
        out.push(b'<');
        out.extend_from_slice(qname.as_bytes());
        namespace_declarations(node, is_apex, out);
        attributes(node, is_apex, out);
        out.push(b'>');
        for child in node.children() {
            if Some(child.id()) == exclude {
                continue;
            }
            match child.node_type() {
                NodeType::Element => element(child, false, exclude, out),
                NodeType::Text => escape_text(child.text().unwrap_or(""), out),
                NodeType::PI => pi(child, out),
                NodeType::Comment | NodeType::Root => {}
            }
        }
        out.extend_from_slice(b"</");
        out.extend_from_slice(qname.as_bytes());
        out.push(b'>');
    }

    fn namespace_declarations(node: Node<'_, '_>, is_apex: bool, out: &mut Vec<u8>) {
        let parent = if is_apex { None } else { node.parent_element() };
        let in_parent = |prefix: Option<&str>, uri: &str| {
            parent.is_some_and(|p| {
                p.namespaces()
                    .any(|ns| ns.name() == prefix && ns.uri() == uri)
            })
        };
        let parent_default = parent.and_then(|p| p.default_namespace()).unwrap_or("");
        let mut declarations: Vec<(&str, &str)> = Vec::new();
        for ns in node.namespaces() {
            let uri = ns.uri();
            match ns.name() {
                Some("xml") => {}
                Some(prefix) => {
                    if !in_parent(Some(prefix), uri) {
                        declarations.push((prefix, uri));
                    }
                }
                None => {
                    let needed = if uri.is_empty() {
                        !parent_default.is_empty()
                    } else {
                        !in_parent(None, uri)
                    };
                    if needed {
                        declarations.push(("", uri));
                    }
                }
            }
        }
        declarations.sort_unstable_by(|a, b| a.0.cmp(b.0));
        for (prefix, uri) in declarations {
            if prefix.is_empty() {
                out.extend_from_slice(b" xmlns=\"");
            } else {
                out.extend_from_slice(b" xmlns:");
                out.extend_from_slice(prefix.as_bytes());
                out.extend_from_slice(b"=\"");
            }
            escape_attribute(uri, out);
            out.push(b'"');
        }
    }

    fn attributes(node: Node<'_, '_>, is_apex: bool, out: &mut Vec<u8>) {
        let input = node.document().input_text();
        let mut attrs: Vec<(&str, &str, &str, &str)> = node
            .attributes()
            .map(|a| {
                let qname = input.get(a.range_qname()).unwrap();
                (a.namespace().unwrap_or(""), a.name(), qname, a.value())
            })
            .collect();
        if is_apex {
            for ancestor in node.ancestors().skip(1).filter(|n| n.is_element()) {
                for a in ancestor.attributes() {
                    if a.namespace() == Some(XML_NS)
                        && matches!(a.name(), "lang" | "space")
                        && !attrs.iter().any(|x| x.0 == XML_NS && x.1 == a.name())
                    {
                        let qname = input.get(a.range_qname()).unwrap();
                        attrs.push((XML_NS, a.name(), qname, a.value()));
                    }
                }
            }
        }
        attrs.sort_unstable_by(|a, b| a.0.cmp(b.0).then_with(|| a.1.cmp(b.1)));
        for (_, _, qname, value) in attrs {
            out.push(b' ');
            out.extend_from_slice(qname.as_bytes());
            out.extend_from_slice(b"=\"");
            escape_attribute(value, out);
            out.push(b'"');
        }
    }
}

/// A generated element: namespace declarations drawn from few prefixes and URIs (so
/// redeclarations, rebindings, `xmlns=""` and undeclared defaults are frequent), a prefixed
/// or plain name, attributes including `xml:lang` / `xml:space`, and children.
#[derive(Clone, Debug)]
struct Gen {
    declarations: Vec<(u8, u8)>,
    prefixed: bool,
    attributes: Vec<u8>,
    children: Vec<Gen>,
}

fn element() -> impl Strategy<Value = Gen> {
    let fields = || {
        (
            proptest::collection::vec((0u8..4, 0u8..3), 0..4),
            any::<bool>(),
            proptest::collection::vec(0u8..5, 0..4),
        )
    };
    let leaf = fields().prop_map(|(declarations, prefixed, attributes)| Gen {
        declarations,
        prefixed,
        attributes,
        children: Vec::new(),
    });
    leaf.prop_recursive(5, 32, 4, move |inner| {
        (fields(), proptest::collection::vec(inner, 0..4)).prop_map(
            |((declarations, prefixed, attributes), children)| Gen {
                declarations,
                prefixed,
                attributes,
                children,
            },
        )
    })
}

const URIS: [&str; 3] = ["", "urn:1", "urn:2"];

fn write(gen: &Gen, is_root: bool, out: &mut String) {
    // p and q are always bound to a non-empty URI (the root binds them, rebinding keeps
    // them non-empty) so that p:e and p:a are always well-formed; r and the default
    // namespace take any URI, the empty one included.
    let name = if gen.prefixed { "p:e" } else { "e" };
    out.push('<');
    out.push_str(name);
    let mut seen = Vec::new();
    if is_root {
        out.push_str(" xmlns:p=\"urn:1\" xmlns:q=\"urn:2\"");
        seen.extend([1, 2]);
    }
    for (prefix, uri) in &gen.declarations {
        if seen.contains(prefix) {
            continue;
        }
        seen.push(*prefix);
        let uri = URIS[usize::from(*uri)];
        match prefix {
            0 => out.push_str(&format!(" xmlns=\"{uri}\"")),
            1 | 2 => {
                let uri = if uri.is_empty() { "urn:1" } else { uri };
                out.push_str(&format!(
                    " xmlns:{}=\"{uri}\"",
                    ["", "p", "q"][usize::from(*prefix)]
                ));
            }
            _ => out.push_str(&format!(" xmlns:r=\"{uri}\"")),
        }
    }
    let mut names = Vec::new();
    for a in &gen.attributes {
        let attr = ["a", "p:a", "q:b", "xml:lang", "xml:space"][usize::from(*a)];
        if !names.contains(&attr) {
            names.push(attr);
            out.push_str(&format!(" {attr}=\"v{a}\""));
        }
    }
    out.push('>');
    for (i, child) in gen.children.iter().enumerate() {
        out.push_str(&format!("t{i}"));
        write(child, false, out);
    }
    out.push_str(&format!("</{name}>"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Both node-sets, for every excluded element and every apex, equal the oracle's.
    #[test]
    fn equals_the_quadratic_oracle(root in element(), pick in any::<usize>()) {
        let mut xml = String::new();
        write(&root, true, &mut xml);
        let doc = Document::parse(&xml).unwrap();
        let elements: Vec<Node<'_, '_>> = doc.descendants().filter(|n| n.is_element()).collect();
        let chosen = elements[pick % elements.len()];
        for exclude in [doc.root().id(), chosen.id()] {
            let ours = document_without(&doc, exclude, &mut unlimited()).unwrap();
            let theirs = oracle::document_without(&doc, exclude);
            prop_assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(theirs).unwrap());
        }
        let ours = subtree(chosen, &mut unlimited()).unwrap();
        let theirs = oracle::subtree(chosen);
        prop_assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(theirs).unwrap());
    }
}

/// §2.3's escaping byte by byte: the reference the run-copying `escape` must equal.
fn escape_bytewise(text: &str, attribute: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for byte in text.bytes() {
        match (byte, attribute) {
            (b'&', _) => out.extend_from_slice(b"&amp;"),
            (b'<', _) => out.extend_from_slice(b"&lt;"),
            (b'>', false) => out.extend_from_slice(b"&gt;"),
            (b'"', true) => out.extend_from_slice(b"&quot;"),
            (b'\t', true) => out.extend_from_slice(b"&#x9;"),
            (b'\n', true) => out.extend_from_slice(b"&#xA;"),
            (b'\r', _) => out.extend_from_slice(b"&#xD;"),
            (other, _) => out.push(other),
        }
    }
    out
}

#[test]
fn escaping_at_the_edges_and_in_runs() {
    for text in [
        "",
        "&",
        "<>",
        "a&",
        "&a",
        "&&<<\r\r",
        "é<ü>\"\t\n\r'",
        "plain",
    ] {
        let mut out = b"x".to_vec();
        escape_text(text, &mut out);
        assert_eq!(out[1..], escape_bytewise(text, false), "{text:?}");
        let mut out = Vec::new();
        escape_attribute(text, &mut out);
        assert_eq!(out, escape_bytewise(text, true), "{text:?}");
    }
}

proptest! {
    #[test]
    fn escaping_equals_the_bytewise_rule(text in "[a&<>\"\t\n\r'é]{0,40}") {
        let mut out = Vec::new();
        escape_text(&text, &mut out);
        prop_assert_eq!(out, escape_bytewise(&text, false));
        let mut out = Vec::new();
        escape_attribute(&text, &mut out);
        prop_assert_eq!(out, escape_bytewise(&text, true));
    }
}
