//! Canonical XML 1.1 (W3C REC `xml-c14n11`, without comments) over a `roxmltree` document,
//! for the two node-sets an enveloped XML signature needs:
//!
//! * the whole document minus one element subtree — `Reference URI=""` followed by the
//!   enveloped-signature transform (XML-DSig 1.1 §6.6.4), and
//! * one element subtree — `SignedInfo` (XML-DSig 1.1 §4.4.3).
//!
//! What is implemented is the part of C14N 1.1 these node-sets reach (§2.3, §2.4):
//! UTF-8 output, line breaks already normalised by the parser, attribute values normalised
//! by the parser, character and entity references replaced, CDATA sections replaced by
//! escaped text, the XML declaration and DTD removed, empty elements written as start/end
//! pairs, whitespace outside the document element removed, comments removed, namespace
//! declarations written where the nearest rendered ancestor does not already have them
//! (default namespace first, then by prefix), attributes sorted by (namespace URI, local
//! name), the original qualified names kept, and the xml:* attribute inheritance of §2.4
//! for an apex element (`xml:lang`, `xml:space`; `xml:id` is not inherited; an inherited
//! `xml:base` is refused rather than half-implemented).
//!
//! The result is checked in tests against lxml/libxml2 output for every RIM fixture
//! (`tests/fixtures/generated-rim/`).

use alloc::vec::Vec;

use roxmltree::{Document, Node, NodeId, NodeType};

use super::error::RimError;
use super::MAX_XML_DEPTH;

const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// C14N 1.1 of the whole document with the subtree rooted at `exclude` left out.
pub(crate) fn document_without(doc: &Document<'_>, exclude: NodeId) -> Result<Vec<u8>, RimError> {
    let mut out = Vec::with_capacity(doc.input_text().len());
    let root = doc.root_element();
    let mut before_root = true;
    for child in doc.root().children() {
        match child.node_type() {
            NodeType::Element => {
                element(child, false, Some(exclude), 0, &mut out)?;
                before_root = false;
            }
            NodeType::PI => {
                // §2.1: a PI before the document element is followed by #xA, one after it is
                // preceded by #xA.
                if !before_root {
                    out.push(b'\n');
                }
                processing_instruction(child, &mut out);
                if before_root {
                    out.push(b'\n');
                }
            }
            // Comments are removed; text outside the document element is not part of the
            // data model.
            _ => {}
        }
        if child == root {
            before_root = false;
        }
    }
    Ok(out)
}

/// C14N 1.1 of the subtree rooted at element `apex` (the apex renders every namespace in
/// scope and the inheritable xml:* attributes of its ancestors).
pub(crate) fn subtree(apex: Node<'_, '_>) -> Result<Vec<u8>, RimError> {
    let mut out = Vec::with_capacity(apex.range().len().saturating_add(512));
    element(apex, true, None, 0, &mut out)?;
    Ok(out)
}

fn element(
    node: Node<'_, '_>,
    is_apex: bool,
    exclude: Option<NodeId>,
    depth: usize,
    out: &mut Vec<u8>,
) -> Result<(), RimError> {
    if depth > MAX_XML_DEPTH {
        return Err(RimError::TooDeep);
    }
    let qname = element_qname(node)?;
    out.push(b'<');
    out.extend_from_slice(qname.as_bytes());
    namespace_declarations(node, is_apex, out);
    attributes(node, is_apex, out)?;
    out.push(b'>');
    for child in node.children() {
        if Some(child.id()) == exclude {
            continue;
        }
        match child.node_type() {
            NodeType::Element => element(child, false, exclude, depth.saturating_add(1), out)?,
            NodeType::Text => escape_text(child.text().unwrap_or(""), out),
            NodeType::PI => processing_instruction(child, out),
            NodeType::Comment | NodeType::Root => {}
        }
    }
    out.extend_from_slice(b"</");
    out.extend_from_slice(qname.as_bytes());
    out.push(b'>');
    Ok(())
}

/// The qualified name as written in the document: `roxmltree` resolves prefixes to URIs,
/// and two prefixes may name one URI (`xmlns` and `xmlns:ns0` in every NVIDIA RIM).
fn element_qname<'a>(node: Node<'_, 'a>) -> Result<&'a str, RimError> {
    let input = node.document().input_text();
    let start = node.range().start;
    let tag = input
        .get(start..)
        .and_then(|rest| rest.strip_prefix('<'))
        .ok_or(RimError::UnsupportedXml {
            problem: "element position does not point at a start tag",
        })?;
    let end = tag
        .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
        .unwrap_or(tag.len());
    let qname = tag.get(..end).unwrap_or("");
    check_qname(qname, node.tag_name().name())?;
    Ok(qname)
}

fn check_qname(qname: &str, local: &str) -> Result<(), RimError> {
    let ok = match qname.rsplit_once(':') {
        Some((prefix, name)) => !prefix.is_empty() && name == local,
        None => qname == local,
    };
    if ok {
        Ok(())
    } else {
        Err(RimError::UnsupportedXml {
            problem: "qualified name in the source does not match the parsed name",
        })
    }
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
                // §2.3: xmlns="" is written only to undo a non-empty default of the nearest
                // rendered ancestor.
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
    // The default namespace ("") sorts first, then prefixes in code-point order.
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

struct Attr<'a> {
    uri: &'a str,
    local: &'a str,
    qname: &'a str,
    value: &'a str,
}

fn attributes<'a>(node: Node<'a, 'a>, is_apex: bool, out: &mut Vec<u8>) -> Result<(), RimError> {
    let input = node.document().input_text();
    let mut attrs: Vec<Attr<'a>> = Vec::new();
    for attr in node.attributes() {
        let qname = input.get(attr.range_qname()).unwrap_or("");
        check_qname(qname, attr.name())?;
        attrs.push(Attr {
            uri: attr.namespace().unwrap_or(""),
            local: attr.name(),
            qname,
            value: attr.value(),
        });
    }
    if is_apex {
        inherited_xml_attributes(node, &mut attrs)?;
    }
    // §2.3: namespace URI is the primary key (none = empty, sorts first), local name the
    // secondary key.
    attrs.sort_unstable_by(|a, b| a.uri.cmp(b.uri).then_with(|| a.local.cmp(b.local)));
    for attr in attrs {
        out.push(b' ');
        out.extend_from_slice(attr.qname.as_bytes());
        out.extend_from_slice(b"=\"");
        escape_attribute(attr.value, out);
        out.push(b'"');
    }
    Ok(())
}

/// C14N 1.1 §2.4: an apex element whose ancestors are omitted gets the nearest ancestor's
/// `xml:lang` and `xml:space` unless it has its own. `xml:id` is not inherited; `xml:base`
/// would need URI resolution (RFC 3986 §5.2) and is refused.
fn inherited_xml_attributes<'a>(
    node: Node<'a, 'a>,
    attrs: &mut Vec<Attr<'a>>,
) -> Result<(), RimError> {
    let input = node.document().input_text();
    for ancestor in node.ancestors().skip(1).filter(|n| n.is_element()) {
        for attr in ancestor.attributes() {
            if attr.namespace() != Some(XML_NS) {
                continue;
            }
            match attr.name() {
                "base" => {
                    return Err(RimError::UnsupportedXml {
                        problem: "inherited xml:base",
                    })
                }
                "lang" | "space"
                    if !attrs
                        .iter()
                        .any(|a| a.uri == XML_NS && a.local == attr.name()) =>
                {
                    let qname = input.get(attr.range_qname()).unwrap_or("");
                    check_qname(qname, attr.name())?;
                    attrs.push(Attr {
                        uri: XML_NS,
                        local: attr.name(),
                        qname,
                        value: attr.value(),
                    });
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn processing_instruction(node: Node<'_, '_>, out: &mut Vec<u8>) {
    if let Some(pi) = node.pi() {
        out.extend_from_slice(b"<?");
        out.extend_from_slice(pi.target.as_bytes());
        if let Some(value) = pi.value.filter(|v| !v.is_empty()) {
            out.push(b' ');
            out.extend_from_slice(value.as_bytes());
        }
        out.extend_from_slice(b"?>");
    }
}

/// §2.3 text nodes: `&`, `<`, `>` and carriage return are escaped.
fn escape_text(text: &str, out: &mut Vec<u8>) {
    for byte in text.bytes() {
        match byte {
            b'&' => out.extend_from_slice(b"&amp;"),
            b'<' => out.extend_from_slice(b"&lt;"),
            b'>' => out.extend_from_slice(b"&gt;"),
            b'\r' => out.extend_from_slice(b"&#xD;"),
            other => out.push(other),
        }
    }
}

/// §2.3 attribute values: `&`, `<`, `"`, tab, line feed and carriage return are escaped.
fn escape_attribute(value: &str, out: &mut Vec<u8>) {
    for byte in value.bytes() {
        match byte {
            b'&' => out.extend_from_slice(b"&amp;"),
            b'<' => out.extend_from_slice(b"&lt;"),
            b'"' => out.extend_from_slice(b"&quot;"),
            b'\t' => out.extend_from_slice(b"&#x9;"),
            b'\n' => out.extend_from_slice(b"&#xA;"),
            b'\r' => out.extend_from_slice(b"&#xD;"),
            other => out.push(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn canon_doc(xml: &str) -> String {
        let doc = Document::parse(xml).unwrap();
        // Exclude nothing: use the document node id, which is never a child.
        String::from_utf8(document_without(&doc, doc.root().id()).unwrap()).unwrap()
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
    fn apex_renders_inherited_namespaces_and_xml_attributes() {
        let xml = "<a xmlns=\"urn:d\" xmlns:p=\"urn:p\" xml:lang=\"en\" xml:id=\"i\">\
                   <p:b q=\"1\"><c/></p:b></a>";
        let doc = Document::parse(xml).unwrap();
        let b = doc.root_element().first_element_child().unwrap();
        assert_eq!(
            String::from_utf8(subtree(b).unwrap()).unwrap(),
            "<p:b xmlns=\"urn:d\" xmlns:p=\"urn:p\" q=\"1\" xml:lang=\"en\"><c></c></p:b>"
        );
    }

    #[test]
    fn inherited_xml_base_is_refused() {
        let doc = Document::parse("<a xml:base=\"http://x/\"><b/></a>").unwrap();
        let b = doc.root_element().first_element_child().unwrap();
        assert!(matches!(subtree(b), Err(RimError::UnsupportedXml { .. })));
    }

    #[test]
    fn excluded_subtree_leaves_surrounding_text() {
        let xml = "<a>\n  <s><t/></s>\n</a>";
        let doc = Document::parse(xml).unwrap();
        let s = doc.root_element().first_element_child().unwrap();
        assert_eq!(
            String::from_utf8(document_without(&doc, s.id()).unwrap()).unwrap(),
            "<a>\n  \n</a>"
        );
    }
}
