//! A streaming walk over an XML file, element by element: the memory it takes is that of
//! the open elements and of one entry, whatever the file's size.

use quick_xml::Reader;
use quick_xml::XmlVersion;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};

use crate::{ImportError, ListFile, Location, Problem};

/// What a format does with its file's elements. `path` holds the local names (namespace
/// prefixes dropped) of the open elements: the root first, the element at hand last.
pub(crate) trait Handler {
    /// An element opens, with its attributes.
    fn open(&mut self, path: &[String], element: &BytesStart<'_>) -> Result<(), Problem>;

    /// An element closes; `text` is its own text, unescaped (its children's not included).
    fn close(&mut self, path: &[String], text: &str) -> Result<(), Problem>;
}

/// Walks `file`, whose root element must be `root`, through `handler`. A problem the
/// handler finds is placed at the element at hand. Malformed XML, a second root, an
/// entity other than XML's five and character references (no DTD is ever read), and a
/// file that ends inside an element (truncated) are refused.
pub(crate) fn walk(
    file: &ListFile<'_>,
    root: &'static str,
    handler: &mut impl Handler,
) -> Result<(), ImportError> {
    let xml = crate::text(file)?;
    let mut reader = Reader::from_str(xml);
    // `<A/>` opens and closes A, like `<A></A>`.
    reader.config_mut().expand_empty_elements = true;
    let mut path: Vec<String> = Vec::new();
    let mut starts: Vec<u64> = Vec::new();
    let mut text = String::new();
    let mut rooted = false;
    let at_element = |path: &[String], starts: &[u64], problem| {
        let at = match (path.last(), starts.last()) {
            (Some(name), Some(&byte)) => Location::Element {
                name: name.clone(),
                line: crate::lines_before(&xml.as_bytes()[..to_usize(byte)]),
                byte,
            },
            _ => Location::File,
        };
        ImportError::new(file.name, at, problem)
    };
    let at_byte = |byte: u64, problem| {
        ImportError::new(
            file.name,
            crate::position(xml.as_bytes(), to_usize(byte)),
            problem,
        )
    };
    loop {
        let start = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| at_byte(reader.error_position(), Problem::Xml(e.to_string())))?;
        match event {
            Event::Start(element) => {
                let name = String::from_utf8_lossy(element.local_name().as_ref()).into_owned();
                if path.is_empty() {
                    if rooted {
                        let problem = Problem::Xml("a second root element".to_owned());
                        return Err(at_byte(start, problem));
                    }
                    if name != root {
                        let problem = Problem::Root {
                            expected: root,
                            found: name,
                        };
                        return Err(at_byte(start, problem));
                    }
                    rooted = true;
                }
                path.push(name);
                starts.push(start);
                text.clear();
                handler
                    .open(&path, &element)
                    .map_err(|problem| at_element(&path, &starts, problem))?;
            }
            Event::End(_) => {
                handler
                    .close(&path, &text)
                    .map_err(|problem| at_element(&path, &starts, problem))?;
                path.pop();
                starts.pop();
                text.clear();
            }
            Event::Text(content) => {
                let content = content
                    .xml10_content()
                    .map_err(|e| at_byte(start, Problem::Xml(e.to_string())))?;
                text.push_str(&content);
            }
            Event::CData(content) => {
                let content = content
                    .xml10_content()
                    .map_err(|e| at_byte(start, Problem::Xml(e.to_string())))?;
                text.push_str(&content);
            }
            Event::GeneralRef(reference) => {
                let bad = |what: String| at_byte(start, Problem::Xml(what));
                match reference.resolve_char_ref() {
                    Ok(Some(c)) => text.push(c),
                    Ok(None) => {
                        let name = reference.decode().map_err(|e| bad(e.to_string()))?;
                        let value = resolve_predefined_entity(&name)
                            .ok_or_else(|| bad(format!("unknown entity &{name};")))?;
                        text.push_str(value);
                    }
                    Err(e) => return Err(bad(e.to_string())),
                }
            }
            Event::Eof => break,
            // Declarations, comments, processing instructions and a DOCTYPE say nothing
            // of the entries (and a DTD's entities are never expanded).
            _ => {}
        }
    }
    if !path.is_empty() {
        return Err(at_element(&path, &starts, Problem::Unclosed));
    }
    if !rooted {
        return Err(ImportError::new(
            file.name,
            Location::File,
            Problem::NoEntries,
        ));
    }
    Ok(())
}

/// An element's attributes by local name, unescaped, in its order.
pub(crate) fn attributes(element: &BytesStart<'_>) -> Result<Vec<(String, String)>, Problem> {
    element
        .attributes()
        .map(|attribute| {
            let attribute = attribute.map_err(|e| Problem::Xml(e.to_string()))?;
            let name = String::from_utf8_lossy(attribute.key.local_name().as_ref()).into_owned();
            let value = attribute
                .normalized_value(XmlVersion::Implicit1_0)
                .map_err(|e| Problem::Xml(e.to_string()))?;
            Ok((name, value.into_owned()))
        })
        .collect()
}

/// A byte offset within a file that is in memory, so within `usize`.
fn to_usize(byte: u64) -> usize {
    usize::try_from(byte).unwrap_or(usize::MAX)
}
