//! A linear pre-scan of a RIM's XML text, run before the XML parser, that counts what the
//! parser's own work depends on: attributes per element and namespace declarations.
//!
//! **Why hand-written.** `roxmltree` compares each attribute of an element with every earlier
//! one (its duplicate check, `O(a²)` per element) and each namespace declaration with the
//! element's earlier ones, inside `Document::parse` — so the caps on these counts can only be
//! checked before the work if they are counted on the raw text. `roxmltree`'s tokenizer is
//! private, and a second XML parser would be a dependency to audit with complexity of its
//! own; what is needed is only the tag syntax, which fits on a page.
//!
//! **Contract.** The scan reads every byte once (`O(n)`, no allocation). On a document that
//! `roxmltree` parses it finds exactly the parser's elements, and for each exactly its
//! attributes and namespace declarations (checked by the property tests below). On any
//! other input it may count more than the parser would see, never fewer, for everything
//! the parser reaches before it fails:
//!
//! * every `<` outside a comment, CDATA section or processing instruction is taken as the
//!   start of a tag — as the parser does. Those three end at the first `-->`, `]]>`, `?>`,
//!   exactly where the parser ends them, so the scan never skips a `<` the parser would read
//!   as markup;
//! * inside a start tag, a quoted value ends at its quote or at a `<` (where the parser
//!   fails), so a `>` inside a value does not end the tag and an unterminated value does not
//!   hide the rest of the document;
//! * any other run of characters in a start tag is counted as an attribute name (malformed
//!   tags over-count); end tags and `<!…>` declarations (refused by the parser) are skipped
//!   to their first `>` or `<`.

/// One start tag found by the scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StartTag {
    /// Offset of the tag's `<`.
    pub(crate) start: usize,
    /// Offset just after the tag (after its `>`, or where the scan stopped).
    pub(crate) end: usize,
    /// Attributes other than namespace declarations.
    pub(crate) attributes: usize,
    /// Namespace declarations (`xmlns`, `xmlns:*`).
    pub(crate) declarations: usize,
    /// `xmlns` or `xmlns:xml` appears twice: not well-formed (XML 1.0 §3.1, Unique Att
    /// Spec), yet accepted by `roxmltree` 0.21, which checks repeated prefixed declarations
    /// but keeps both of two default ones — where other parsers refuse the document.
    pub(crate) repeated_declaration: bool,
}

/// The start tags of `text`, in document order.
pub(crate) fn start_tags(text: &str) -> StartTags<'_> {
    StartTags { text, pos: 0 }
}

/// Iterator returned by [`start_tags`].
pub(crate) struct StartTags<'t> {
    text: &'t str,
    pos: usize,
}

impl Iterator for StartTags<'_> {
    type Item = StartTag;

    fn next(&mut self) -> Option<StartTag> {
        let bytes = self.text.as_bytes();
        loop {
            let lt = self.pos + find_byte(bytes.get(self.pos..)?, b'<')?;
            let rest = bytes.get(lt..).unwrap_or_default();
            self.pos = if rest.starts_with(b"<!--") {
                after(bytes, lt + 4, b"-->")
            } else if rest.starts_with(b"<![CDATA[") {
                after(bytes, lt + 9, b"]]>")
            } else if rest.starts_with(b"<?") {
                after(bytes, lt + 2, b"?>")
            } else if rest.starts_with(b"</") || rest.starts_with(b"<!") {
                skip_declaration(bytes, lt + 2)
            } else {
                let mut tag = StartTag {
                    start: lt,
                    end: lt,
                    attributes: 0,
                    declarations: 0,
                    repeated_declaration: false,
                };
                let (mut default, mut xml) = (false, false);
                tag.end = scan_start_tag(self.text, lt, |name| {
                    if is_declaration(name) {
                        tag.declarations += 1;
                        let seen = match name {
                            "xmlns" => &mut default,
                            "xmlns:xml" => &mut xml,
                            _ => return,
                        };
                        tag.repeated_declaration |= *seen;
                        *seen = true;
                    } else {
                        tag.attributes += 1;
                    }
                });
                self.pos = tag.end;
                return Some(tag);
            };
        }
    }
}

/// Scans the start tag whose `<` is at `lt`, calling `on_attribute` with each attribute
/// name (namespace declarations included) in document order; returns the offset after it.
pub(crate) fn scan_start_tag<'t>(
    text: &'t str,
    lt: usize,
    mut on_attribute: impl FnMut(&'t str),
) -> usize {
    let bytes = text.as_bytes();
    let mut pos = name_end(bytes, lt + 1);
    loop {
        while bytes.get(pos).is_some_and(|b| is_space(*b)) {
            pos += 1;
        }
        match bytes.get(pos) {
            None | Some(b'<') => return pos,
            Some(b'>') => return pos + 1,
            Some(b'/') if bytes.get(pos + 1) == Some(&b'>') => return pos + 2,
            Some(b'/' | b'=') => pos += 1,
            Some(&quote @ (b'"' | b'\'')) => {
                let value = bytes.get(pos + 1..).unwrap_or_default();
                match value.iter().position(|b| *b == quote || *b == b'<') {
                    Some(i) if value.get(i) == Some(&quote) => pos += i + 2,
                    // A `<` in a value: the parser stops here; the scan reads it as a tag.
                    Some(i) => return pos + 1 + i,
                    None => return bytes.len(),
                }
            }
            Some(_) => {
                let end = name_end(bytes, pos);
                // Delimiters are ASCII, so both ends are character boundaries.
                on_attribute(text.get(pos..end).unwrap_or_default());
                pos = end;
            }
        }
    }
}

/// Whether an attribute name declares a namespace: `xmlns` or `xmlns:prefix`.
pub(crate) fn is_declaration(name: &str) -> bool {
    name == "xmlns" || name.starts_with("xmlns:")
}

/// The end of a name (element or attribute) starting at `pos`.
fn name_end(bytes: &[u8], mut pos: usize) -> usize {
    while bytes
        .get(pos)
        .is_some_and(|b| !is_space(*b) && !matches!(b, b'/' | b'>' | b'<' | b'=' | b'"' | b'\''))
    {
        pos += 1;
    }
    pos
}

/// After the first `terminator` at or after `from`, or the end of the text.
fn after(bytes: &[u8], from: usize, terminator: &[u8]) -> usize {
    bytes
        .get(from..)
        .and_then(|rest| rest.windows(terminator.len()).position(|w| w == terminator))
        .map_or(bytes.len(), |i| from + i + terminator.len())
}

/// An end tag or `<!…>`: up to and including its first `>`, or up to a `<`.
fn skip_declaration(bytes: &[u8], from: usize) -> usize {
    match bytes
        .get(from..)
        .and_then(|rest| rest.iter().position(|b| matches!(b, b'>' | b'<')))
    {
        Some(i) if bytes.get(from + i) == Some(&b'>') => from + i + 1,
        Some(i) => from + i,
        None => bytes.len(),
    }
}

fn find_byte(bytes: &[u8], byte: u8) -> Option<usize> {
    bytes.iter().position(|b| *b == byte)
}

/// XML white space (`S`, XML 1.0 §2.3), as the parser reads it.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// What the pre-scan found in a whole document.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct XmlCounts {
    /// Start tags.
    pub(crate) elements: usize,
    /// Namespace declarations in the whole document.
    pub(crate) declarations: usize,
    /// Most attributes (namespace declarations not included) on one element.
    pub(crate) max_attributes: usize,
    /// An upper bound of the XML parser's work on this text, in budget units: the bytes it
    /// tokenises, plus per element with `a` attributes and `d` declarations, `D` declarations
    /// in the document so far (so at most `D` namespaces in scope):
    /// `1 + a(a+1)/2 + d(d+1)/2 + (1+a)·D + 2·d·D` — `roxmltree` 0.21 compares each
    /// attribute and each declaration with the earlier ones of the element, looks the
    /// element's and each attribute's prefix up in the in-scope list, and, on an element that
    /// declares, rebuilds that list and inserts each new namespace into a sorted table.
    pub(crate) parse_cost: u64,
}

/// Why the pre-scan refused a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// More than the attribute cap on one element.
    Attributes,
    /// More namespace declarations in the document than the cap.
    Declarations,
    /// `xmlns` or `xmlns:xml` twice on one element ([`StartTag::repeated_declaration`]).
    RepeatedDeclaration,
}

/// Counts `text`, stopping at the first element that takes a count over its cap or repeats
/// a declaration the parser would not refuse.
pub(crate) fn count(
    text: &str,
    max_attributes: usize,
    max_declarations: usize,
) -> Result<XmlCounts, Refused> {
    let mut counts = XmlCounts {
        parse_cost: u64::try_from(text.len()).unwrap_or(u64::MAX),
        ..XmlCounts::default()
    };
    for tag in start_tags(text) {
        counts.elements += 1;
        counts.declarations = counts.declarations.saturating_add(tag.declarations);
        if counts.declarations > max_declarations {
            return Err(Refused::Declarations);
        }
        if tag.attributes > max_attributes {
            return Err(Refused::Attributes);
        }
        if tag.repeated_declaration {
            return Err(Refused::RepeatedDeclaration);
        }
        counts.max_attributes = counts.max_attributes.max(tag.attributes);
        // Both counts are capped (≤ 2^16 in practice), so u64 cannot overflow below; the
        // saturating operations only make that independent of the caps chosen.
        let a = tag.attributes as u64;
        let d = tag.declarations as u64;
        let in_scope = counts.declarations as u64;
        let element = 1u64
            .saturating_add(a.saturating_mul(a + 1) / 2)
            .saturating_add(d.saturating_mul(d + 1) / 2)
            .saturating_add((1 + a).saturating_mul(in_scope))
            .saturating_add(d.saturating_mul(in_scope).saturating_mul(2));
        counts.parse_cost = counts.parse_cost.saturating_add(element);
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    fn tags(text: &str) -> Vec<(usize, usize)> {
        start_tags(text)
            .map(|t| (t.attributes, t.declarations))
            .collect()
    }

    #[test]
    fn counts_attributes_and_declarations_per_start_tag() {
        let xml = "<?xml version=\"1.0\"?><a xmlns=\"u\" xmlns:p='v' x=\"1\" p:y = '2'>\
                   <b/><c z=\"a>b\"></c></a>";
        assert_eq!(tags(xml), [(2, 2), (0, 0), (1, 0)]);
    }

    #[test]
    fn markup_inside_comments_cdata_pis_and_values_is_not_counted() {
        let xml = "<!-- <x a=\"1\"> --><?pi <y b=\"2\"> ?><a v=\"<-not-a-tag\" w='>'>\
                   <![CDATA[<z c=\"3\">]]><!-- -- --></a>";
        // The `<` inside `v` is where the parser fails; the scan resynchronises there and
        // over-counts rather than skips.
        let found = tags(xml);
        assert_eq!(found.first(), Some(&(1, 0)));
        assert!(found.iter().all(|(a, _)| *a <= 2));
        let xml = "<a w='>' x=\"/>\"><![CDATA[<z c=\"3\">]]></a>";
        assert_eq!(tags(xml), [(2, 0)]);
    }

    #[test]
    fn malformed_tags_over_count() {
        // Unquoted values, missing `=`, stray characters: every run is an attribute name.
        assert_eq!(tags("<a b=c d e/f>"), [(5, 0)]);
        // An unterminated value ends at the next `<`, which starts the next tag.
        assert_eq!(tags("<a b=\"c <d e=\"1\"/>"), [(1, 0), (1, 0)]);
        // A DOCTYPE's internal subset: the tags in it are counted.
        assert_eq!(
            tags("<!DOCTYPE a [<!ENTITY e \"<b c='1'>\">]><a/>").len(),
            2
        );
    }

    #[test]
    fn caps_are_checked_per_element_and_per_document() {
        let many = |n: usize| (0..n).map(|i| format!(" a{i}=\"\"")).collect::<String>();
        let xml = format!("<r{}/>", many(4));
        assert_eq!(count(&xml, 4, 0).map(|c| c.max_attributes), Ok(4));
        assert_eq!(count(&xml, 3, 0), Err(Refused::Attributes));
        let xml = "<r xmlns=\"u\"><a xmlns:a=\"u\"/><b xmlns:b=\"u\"/></r>";
        assert_eq!(count(xml, 0, 3).map(|c| c.declarations), Ok(3));
        assert_eq!(count(xml, 0, 2), Err(Refused::Declarations));
    }

    #[test]
    fn a_repeated_default_or_xml_declaration_is_refused() {
        // roxmltree accepts both, keeping two default namespaces in scope.
        for xml in [
            "<a><b xmlns=\"u\" x=\"1\" xmlns = 'v'/></a>",
            "<a xmlns:xml=\"http://www.w3.org/XML/1998/namespace\" \
             xmlns:xml=\"http://www.w3.org/XML/1998/namespace\"/>",
        ] {
            assert!(roxmltree::Document::parse(xml).is_ok());
            assert_eq!(count(xml, 8, 8), Err(Refused::RepeatedDeclaration));
        }
        // Once per element is fine, as are repeated prefixed ones (the parser refuses those).
        let xml = "<a xmlns=\"u\"><b xmlns=\"\" xmlns:p=\"u\" xmlns:q=\"u\"/></a>";
        assert!(count(xml, 8, 8).is_ok());
    }

    #[test]
    fn every_rim_fixture_is_counted_as_the_parser_reads_it() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nvidia/rims");
        let mut checked = 0;
        for sub in ["nvat", "nvtrust"] {
            for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
                let path = entry.unwrap().path();
                if !matches!(
                    path.extension().and_then(|e| e.to_str()),
                    Some("xml" | "swidtag")
                ) {
                    continue;
                }
                let xml = std::fs::read_to_string(&path).unwrap();
                let doc = roxmltree::Document::parse(&xml).unwrap();
                let elements: Vec<_> = doc.descendants().filter(|n| n.is_element()).collect();
                let found: Vec<StartTag> = start_tags(&xml).collect();
                assert_eq!(found.len(), elements.len(), "{path:?}");
                for (tag, node) in found.iter().zip(&elements) {
                    assert_eq!(tag.start, node.range().start);
                    assert_eq!(tag.attributes, node.attributes().len());
                }
                // 6 declarations, at most 12 attributes on one element: the caps' yardstick.
                let counts = count(&xml, usize::MAX, usize::MAX).unwrap();
                assert_eq!(counts.declarations, 6, "{path:?}");
                assert!(counts.max_attributes <= 12, "{path:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 35);
    }

    /// A generated element: its attributes and declarations, possibly in single quotes,
    /// with `>` and `/>` inside values, and junk (comments, CDATA, PIs holding fake tags)
    /// among its children.
    #[derive(Clone, Debug)]
    struct Gen {
        attributes: usize,
        declares: usize,
        single_quotes: bool,
        junk: u8,
        children: Vec<Gen>,
    }

    fn element() -> impl Strategy<Value = Gen> {
        let leaf = (0usize..6, 0usize..3, any::<bool>(), 0u8..4).prop_map(
            |(attributes, declares, single_quotes, junk)| Gen {
                attributes,
                declares,
                single_quotes,
                junk,
                children: Vec::new(),
            },
        );
        leaf.prop_recursive(4, 24, 4, |inner| {
            (
                0usize..6,
                0usize..3,
                any::<bool>(),
                0u8..4,
                proptest::collection::vec(inner, 0..4),
            )
                .prop_map(|(attributes, declares, single_quotes, junk, children)| {
                    Gen {
                        attributes,
                        declares,
                        single_quotes,
                        junk,
                        children,
                    }
                })
        })
    }

    /// Writes `gen` with prefixes unique in the document (so each declaration adds exactly
    /// one namespace to the parser's in-scope list).
    fn write(gen: &Gen, next_prefix: &mut usize, out: &mut String) {
        let q = if gen.single_quotes { '\'' } else { '"' };
        out.push_str("<e");
        let mut prefixes = Vec::new();
        for _ in 0..gen.declares {
            *next_prefix += 1;
            prefixes.push(*next_prefix);
            out.push_str(&format!(" xmlns:p{next_prefix}={q}urn:{next_prefix}>/>{q}"));
        }
        for i in 0..gen.attributes {
            let name = match prefixes.get(i) {
                Some(p) => format!("p{p}:a{i}"),
                None => format!("a{i}"),
            };
            out.push_str(&format!("\n{name} =\t{q}v>{i}/>{q}"));
        }
        match (gen.children.is_empty(), gen.junk) {
            (true, 0) => out.push_str(" />"),
            _ => {
                out.push('>');
                for child in &gen.children {
                    match gen.junk {
                        1 => out.push_str("<!-- <f a=\"1\" b=\"2\"/> -->"),
                        2 => out.push_str("<![CDATA[<f a=\"1\"> ]]>"),
                        3 => out.push_str("<?pi <f a=\"1\" b='2'/> ?>x &lt;f a=\"1\"&gt;"),
                        _ => {}
                    }
                    write(child, next_prefix, out);
                }
                out.push_str("</e>");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// On documents the parser accepts, the scan finds the parser's elements, in order, with
        /// the parser's attribute and declaration counts.
        #[test]
        fn scan_agrees_with_the_parser(root in element(), prolog in 0u8..3) {
            let mut xml = String::from(match prolog {
                0 => "",
                1 => "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- <x a=\"1\"> -->\n",
                _ => "<?pi <x a='1'>?>",
            });
            write(&root, &mut 0, &mut xml);
            let doc = roxmltree::Document::parse(&xml).unwrap();
            let elements: Vec<_> = doc.descendants().filter(|n| n.is_element()).collect();
            let found: Vec<StartTag> = start_tags(&xml).collect();
            prop_assert_eq!(found.len(), elements.len());
            for (tag, node) in found.iter().zip(&elements) {
                prop_assert_eq!(tag.start, node.range().start);
                prop_assert_eq!(tag.attributes, node.attributes().len());
                let inherited = node.parent_element().map_or(0, |p| p.namespaces().len());
                prop_assert_eq!(tag.declarations, node.namespaces().len() - inherited);
            }
            let counts = count(&xml, usize::MAX, usize::MAX).unwrap();
            prop_assert_eq!(counts.elements, elements.len());
            prop_assert_eq!(
                counts.max_attributes,
                elements.iter().map(|e| e.attributes().len()).max().unwrap_or(0)
            );
        }

        /// On any text, the scan never panics, reads each start tag once, and is linear.
        #[test]
        fn scan_of_arbitrary_text_terminates(text in "[<>/=!?\\[\\]a-c \"'-]{0,200}") {
            let mut last = 0;
            for tag in start_tags(&text) {
                prop_assert!(tag.start >= last && tag.end > tag.start && tag.end <= text.len());
                last = tag.end;
            }
        }

        /// Whatever the parser accepts, cutting it anywhere never makes the scan count fewer
        /// attributes for the elements the parser still reaches.
        #[test]
        fn truncated_documents_never_under_count(root in element(), cut in any::<usize>()) {
            let mut xml = String::new();
            write(&root, &mut 0, &mut xml);
            let full: Vec<StartTag> = start_tags(&xml).collect();
            let mut cut = cut % (xml.len() + 1);
            while !xml.is_char_boundary(cut) {
                cut -= 1;
            }
            let part: Vec<StartTag> = start_tags(&xml[..cut]).collect();
            // Every complete start tag before the cut is found with its full counts.
            for tag in full.iter().filter(|t| t.end <= cut) {
                prop_assert!(part.contains(tag));
            }
        }
    }
}
