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
//! (`tests/fixtures/generated-rim/`), and against the previous, directly-read quadratic
//! implementation on generated documents (redeclarations, `xmlns=""`, excluded subtrees,
//! apexes anywhere). The work is linear in the document: see [`Canonicaliser`].

use alloc::vec::Vec;

use roxmltree::{Document, Node, NodeId, NodeType};

use super::budget::Budget;
use super::error::RimError;
use super::limits::MAX_XML_DEPTH;
use super::scan;
use crate::sort;

const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// C14N 1.1 of the whole document with the subtree rooted at `exclude` left out.
pub(crate) fn document_without(
    doc: &Document<'_>,
    exclude: NodeId,
    budget: &mut Budget,
) -> Result<Vec<u8>, RimError> {
    let mut canon = Canonicaliser::new(doc.input_text(), doc.input_text().len(), budget);
    let root = doc.root_element();
    let mut before_root = true;
    for child in doc.root().children() {
        canon.budget.spend(1)?;
        match child.node_type() {
            NodeType::Element => {
                canon.element(child, false, Some(exclude), 0)?;
                before_root = false;
            }
            NodeType::PI => {
                // §2.1: a PI before the document element is followed by #xA, one after it is
                // preceded by #xA.
                if !before_root {
                    canon.out.push(b'\n');
                }
                canon.processing_instruction(child)?;
                if before_root {
                    canon.out.push(b'\n');
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
    Ok(canon.out)
}

/// C14N 1.1 of the subtree rooted at element `apex` (the apex renders every namespace in
/// scope and the inheritable xml:* attributes of its ancestors).
pub(crate) fn subtree(apex: Node<'_, '_>, budget: &mut Budget) -> Result<Vec<u8>, RimError> {
    let capacity = apex.range().len().saturating_add(512);
    let mut canon = Canonicaliser::new(apex.document().input_text(), capacity, budget);
    canon.element(apex, true, None, 0)?;
    Ok(canon.out)
}

/// One canonicalisation in progress.
///
/// Namespace rendering (§2.3) is decided per declaration, not per in-scope namespace: in
/// both node-sets canonicalised here the nearest rendered ancestor of an element is its
/// parent, so a namespace is rendered exactly when the element's binding of its prefix
/// differs from the parent's — which can only happen for a prefix the element itself
/// declares. `scope` holds the parent's bindings while an element is written: each of the
/// element's declarations is one lookup and one update of it (`O(log k)` comparisons for `k`
/// bindings in scope), undone when the element ends, so an element costs its own
/// declarations, not its in-scope list (which `roxmltree` gives in full on every element).
struct Canonicaliser<'a, 'b> {
    input: &'a str,
    out: Vec<u8>,
    /// In-scope namespace bindings of the parent of the element being written.
    scope: Scope<'a>,
    budget: &'b mut Budget,
}

/// Namespace bindings: prefix (`None` for the default namespace) → URI (empty for
/// `xmlns=""`), sorted by prefix. A sorted vector rather than a map: the document declares
/// at most [`super::MAX_XML_NAMESPACES`] namespaces, so an update moves at most that many
/// entries, and the module carries a binary search instead of a B-tree.
#[derive(Default)]
struct Scope<'a>(Vec<(Option<&'a str>, &'a str)>);

impl<'a> Scope<'a> {
    fn find(&self, prefix: Option<&'a str>) -> Result<usize, usize> {
        self.0.binary_search_by(|(p, _)| p.cmp(&prefix))
    }

    fn get(&self, prefix: Option<&'a str>) -> Option<&'a str> {
        let at = self.find(prefix).ok()?;
        self.0.get(at).map(|(_, uri)| *uri)
    }

    /// Binds `prefix` to `uri`; returns the binding it replaced.
    fn insert(&mut self, prefix: Option<&'a str>, uri: &'a str) -> Option<&'a str> {
        match self.find(prefix) {
            Ok(at) => self
                .0
                .get_mut(at)
                .map(|(_, bound)| core::mem::replace(bound, uri)),
            Err(at) => {
                self.0.insert(at, (prefix, uri));
                None
            }
        }
    }

    fn remove(&mut self, prefix: Option<&'a str>) {
        if let Ok(at) = self.find(prefix) {
            self.0.remove(at);
        }
    }
}

/// A binding replaced on entry to an element, restored when the element ends.
type Undo<'a> = Vec<(Option<&'a str>, Option<&'a str>)>;

impl<'a, 'b> Canonicaliser<'a, 'b> {
    fn new(input: &'a str, capacity: usize, budget: &'b mut Budget) -> Self {
        Self {
            input,
            out: Vec::with_capacity(capacity),
            scope: Scope::default(),
            budget,
        }
    }

    fn element(
        &mut self,
        node: Node<'a, '_>,
        is_apex: bool,
        exclude: Option<NodeId>,
        depth: usize,
    ) -> Result<(), RimError> {
        if depth > MAX_XML_DEPTH {
            return Err(RimError::TooDeep);
        }
        let qname = element_qname(node)?;
        // The node, and its name copied into the start and the end tag.
        self.budget
            .spend_usize(qname.len().saturating_mul(2).saturating_add(1))?;
        self.out.push(b'<');
        self.out.extend_from_slice(qname.as_bytes());
        let undo = self.namespace_declarations(node, is_apex)?;
        self.attributes(node, is_apex)?;
        self.out.push(b'>');
        for child in node.children() {
            if Some(child.id()) == exclude {
                continue;
            }
            match child.node_type() {
                NodeType::Element => {
                    self.element(child, false, exclude, depth.saturating_add(1))?
                }
                NodeType::Text => {
                    let text = child.text().unwrap_or("");
                    self.budget.spend_usize(text.len().saturating_add(1))?;
                    escape_text(text, &mut self.out);
                }
                NodeType::PI => self.processing_instruction(child)?,
                NodeType::Comment | NodeType::Root => self.budget.spend(1)?,
            }
        }
        self.out.extend_from_slice(b"</");
        self.out.extend_from_slice(qname.as_bytes());
        self.out.push(b'>');
        for (prefix, previous) in undo.into_iter().rev() {
            match previous {
                Some(uri) => {
                    self.scope.insert(prefix, uri);
                }
                None => self.scope.remove(prefix),
            }
        }
        Ok(())
    }

    /// Writes the namespace declarations §2.3 renders on `node` and enters its bindings into
    /// `scope`; returns what to restore when the element ends.
    fn namespace_declarations(
        &mut self,
        node: Node<'a, '_>,
        is_apex: bool,
    ) -> Result<Undo<'a>, RimError> {
        let mut undo: Undo<'a> = Vec::new();
        let mut rendered: Vec<(&'a str, &'a str)> = Vec::new();
        if is_apex {
            // The apex has no rendered ancestor: every namespace in scope is rendered,
            // except the empty default (`xmlns=""` only undoes an ancestor's default).
            self.budget.spend_usize(node.namespaces().len())?;
            for ns in node.namespaces() {
                let (prefix, uri) = (ns.name(), ns.uri());
                if prefix == Some("xml") {
                    continue;
                }
                if prefix.is_some() || !uri.is_empty() {
                    rendered.push((prefix.unwrap_or(""), uri));
                }
                undo.push((prefix, self.scope.insert(prefix, uri)));
            }
        } else {
            for (prefix, uri) in declarations(node, self.budget)? {
                self.budget.spend(1)?;
                let parent = self.scope.get(prefix);
                let needed = match prefix {
                    // §2.3: xmlns="" is written only to undo a non-empty default of the
                    // nearest rendered ancestor.
                    None if uri.is_empty() => parent.is_some_and(|u| !u.is_empty()),
                    _ => parent != Some(uri),
                };
                if needed {
                    rendered.push((prefix.unwrap_or(""), uri));
                }
                undo.push((prefix, self.scope.insert(prefix, uri)));
            }
        }
        // The default namespace ("") sorts first, then prefixes in code-point order.
        self.budget.spend_sort(rendered.len())?;
        sort::sort_by(&mut rendered, |a, b| a.0 < b.0);
        for (prefix, uri) in rendered {
            self.budget
                .spend_usize(prefix.len().saturating_add(uri.len()).saturating_add(1))?;
            if prefix.is_empty() {
                self.out.extend_from_slice(b" xmlns=\"");
            } else {
                self.out.extend_from_slice(b" xmlns:");
                self.out.extend_from_slice(prefix.as_bytes());
                self.out.extend_from_slice(b"=\"");
            }
            escape_attribute(uri, &mut self.out);
            self.out.push(b'"');
        }
        Ok(undo)
    }

    fn attributes(&mut self, node: Node<'a, '_>, is_apex: bool) -> Result<(), RimError> {
        let mut attrs: Vec<Attr<'a>> = Vec::new();
        self.budget.spend_usize(node.attributes().len())?;
        for attr in node.attributes() {
            let qname = self.input.get(attr.range_qname()).unwrap_or("");
            check_qname(qname, attr.name())?;
            attrs.push(Attr {
                uri: attr.namespace().unwrap_or(""),
                local: attr.name(),
                qname,
                value: attr.value(),
            });
        }
        if is_apex {
            inherited_xml_attributes(node, &mut attrs, self.budget)?;
        }
        // §2.3: namespace URI is the primary key (none = empty, sorts first), local name the
        // secondary key.
        self.budget.spend_sort(attrs.len())?;
        sort::sort_by(&mut attrs, |a, b| (a.uri, a.local) < (b.uri, b.local));
        for attr in attrs {
            self.budget.spend_usize(
                attr.qname
                    .len()
                    .saturating_add(attr.value.len())
                    .saturating_add(1),
            )?;
            self.out.push(b' ');
            self.out.extend_from_slice(attr.qname.as_bytes());
            self.out.extend_from_slice(b"=\"");
            escape_attribute(attr.value, &mut self.out);
            self.out.push(b'"');
        }
        Ok(())
    }

    fn processing_instruction(&mut self, node: Node<'_, '_>) -> Result<(), RimError> {
        if let Some(pi) = node.pi() {
            let value = pi.value.unwrap_or("");
            self.budget.spend_usize(
                pi.target
                    .len()
                    .saturating_add(value.len())
                    .saturating_add(1),
            )?;
            processing_instruction(pi.target, value, &mut self.out);
        }
        Ok(())
    }
}

/// The namespace declarations written on `node`'s start tag, in document order, as bindings
/// (`xmlns:xml`, which binds nothing new, left out).
///
/// `roxmltree` does not expose declarations, only each element's in-scope list, so the
/// prefixes are read from the start tag's source (the pre-scan's tag syntax; the tag was
/// accepted by the parser) and their URIs, normalised by the parser, from the in-scope list.
/// `roxmltree` 0.21 puts an element's own declarations first in that list, in document
/// order, so the URI is found in `O(1)`; a list ordered otherwise falls back to a lookup by
/// prefix, which gives the same binding.
fn declarations<'a>(
    node: Node<'a, '_>,
    budget: &mut Budget,
) -> Result<Vec<(Option<&'a str>, &'a str)>, RimError> {
    let input = node.document().input_text();
    let start = node.range().start;
    let mut prefixes: Vec<Option<&'a str>> = Vec::new();
    let end = scan::scan_start_tag(input, start, |name| {
        if scan::is_declaration(name) {
            let prefix = name.strip_prefix("xmlns:");
            if prefix != Some("xml") {
                prefixes.push(prefix);
            }
        }
    });
    budget.spend_usize(end.saturating_sub(start))?;
    let mut in_scope = node.namespaces();
    let mut in_order = true;
    let mut bindings = Vec::with_capacity(prefixes.len());
    for prefix in prefixes {
        let own = in_order.then(|| in_scope.next()).flatten();
        let uri = match own {
            Some(ns) if ns.name() == prefix => {
                budget.spend(1)?;
                ns.uri()
            }
            _ => {
                in_order = false;
                budget.spend_usize(node.namespaces().len())?;
                node.lookup_namespace_uri(prefix)
                    .ok_or(RimError::UnsupportedXml {
                        problem: "namespace declaration not in scope",
                    })?
            }
        };
        bindings.push((prefix, uri));
    }
    Ok(bindings)
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

struct Attr<'a> {
    uri: &'a str,
    local: &'a str,
    qname: &'a str,
    value: &'a str,
}

/// C14N 1.1 §2.4: an apex element whose ancestors are omitted gets the nearest ancestor's
/// `xml:lang` and `xml:space` unless it has its own. `xml:id` is not inherited; `xml:base`
/// would need URI resolution (RFC 3986 §5.2) and is refused. One pass over the ancestors'
/// attributes.
fn inherited_xml_attributes<'a>(
    node: Node<'a, '_>,
    attrs: &mut Vec<Attr<'a>>,
    budget: &mut Budget,
) -> Result<(), RimError> {
    let input = node.document().input_text();
    let has =
        |attrs: &[Attr<'_>], local: &str| attrs.iter().any(|a| a.uri == XML_NS && a.local == local);
    let mut have_lang = has(attrs, "lang");
    let mut have_space = has(attrs, "space");
    for ancestor in node.ancestors().skip(1).filter(|n| n.is_element()) {
        budget.spend_usize(ancestor.attributes().len().saturating_add(1))?;
        for attr in ancestor.attributes() {
            if attr.namespace() != Some(XML_NS) {
                continue;
            }
            let have = match attr.name() {
                "base" => {
                    return Err(RimError::UnsupportedXml {
                        problem: "inherited xml:base",
                    })
                }
                "lang" => &mut have_lang,
                "space" => &mut have_space,
                _ => continue,
            };
            if *have {
                continue;
            }
            *have = true;
            let qname = input.get(attr.range_qname()).unwrap_or("");
            check_qname(qname, attr.name())?;
            attrs.push(Attr {
                uri: XML_NS,
                local: attr.name(),
                qname,
                value: attr.value(),
            });
        }
    }
    Ok(())
}

fn processing_instruction(target: &str, value: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(b"<?");
    out.extend_from_slice(target.as_bytes());
    if !value.is_empty() {
        out.push(b' ');
        out.extend_from_slice(value.as_bytes());
    }
    out.extend_from_slice(b"?>");
}

/// §2.3 text nodes: `&`, `<`, `>` and carriage return are escaped.
fn escape_text(text: &str, out: &mut Vec<u8>) {
    escape(text, out, |byte| match byte {
        b'&' => Some(b"&amp;".as_slice()),
        b'<' => Some(b"&lt;".as_slice()),
        b'>' => Some(b"&gt;".as_slice()),
        b'\r' => Some(b"&#xD;".as_slice()),
        _ => None,
    });
}

/// §2.3 attribute values: `&`, `<`, `"`, tab, line feed and carriage return are escaped.
fn escape_attribute(value: &str, out: &mut Vec<u8>) {
    escape(value, out, |byte| match byte {
        b'&' => Some(b"&amp;".as_slice()),
        b'<' => Some(b"&lt;".as_slice()),
        b'"' => Some(b"&quot;".as_slice()),
        b'\t' => Some(b"&#x9;".as_slice()),
        b'\n' => Some(b"&#xA;".as_slice()),
        b'\r' => Some(b"&#xD;".as_slice()),
        _ => None,
    });
}

/// `text` with each byte `replacement` names replaced, the runs between them copied whole:
/// in the size-optimised wasm build, a push per byte (a call each) was about a tenth of a
/// RIM's prepare time. Every replaced byte is ASCII, so runs are whole characters.
fn escape(text: &str, out: &mut Vec<u8>, replacement: impl Fn(u8) -> Option<&'static [u8]>) {
    let bytes = text.as_bytes();
    let mut run = 0;
    for (at, byte) in bytes.iter().enumerate() {
        if let Some(with) = replacement(*byte) {
            out.extend_from_slice(bytes.get(run..at).unwrap_or_default());
            out.extend_from_slice(with);
            run = at + 1;
        }
    }
    out.extend_from_slice(bytes.get(run..).unwrap_or_default());
}

#[cfg(test)]
mod tests;
