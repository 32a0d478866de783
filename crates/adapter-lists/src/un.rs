//! The UN Security Council's consolidated list (`un-xml`): see [`crate::Format::UnXml`].

use quick_xml::events::BytesStart;
use screening::{BirthDate, Entry};

use crate::dates;
use crate::entries::{Draft, List};
use crate::xml::{self, Handler};
use crate::{ImportError, ListFile, Location, Problem};

pub(crate) fn read(file: &ListFile<'_>) -> Result<Vec<Entry>, ImportError> {
    let mut un = Un::default();
    xml::walk(file, "CONSOLIDATED_LIST", &mut un)?;
    if un.list.is_empty() {
        return Err(ImportError::new(
            file.name,
            Location::File,
            Problem::NoEntries,
        ));
    }
    Ok(un.list.finish())
}

#[derive(Debug, Default)]
struct Un {
    list: List,
    /// The individual or entity being read.
    entry: Option<Individual>,
}

/// An individual or entity as its elements come.
#[derive(Debug, Default)]
struct Individual {
    /// The aliases, dates of birth and countries; the id and the primary name come last.
    draft: Draft,
    reference_number: String,
    data_id: String,
    /// `FIRST_NAME` to `FOURTH_NAME`.
    name_parts: [String; 4],
    alias: Alias,
    birth: Birth,
}

/// The alias being read.
#[derive(Debug, Default)]
struct Alias {
    quality: String,
    name: String,
}

/// The date of birth being read.
#[derive(Debug, Default)]
struct Birth {
    date: String,
    year: String,
    from_year: String,
    to_year: String,
}

impl Birth {
    /// `DATE`, else `YEAR`, else the years from `FROM_YEAR` to `TO_YEAR` (either alone is
    /// one year). `TYPE_OF_DATE` (EXACT, APPROXIMATELY, BETWEEN) says nothing more.
    fn dates(&self) -> Result<Vec<BirthDate>, Problem> {
        fn given(s: &str) -> Option<&str> {
            Some(s.trim()).filter(|s| !s.is_empty())
        }
        let year = |s: &str| dates::year(s).ok_or(Problem::Date);
        if let Some(date) = given(&self.date) {
            return dates::iso(date).map(|d| vec![d]).ok_or(Problem::Date);
        }
        if let Some(y) = given(&self.year) {
            return Ok(vec![dates::year_only(year(y)?)]);
        }
        match (given(&self.from_year), given(&self.to_year)) {
            (Some(from), Some(to)) => dates::years(year(from)?, year(to)?).ok_or(Problem::Date),
            (Some(y), None) | (None, Some(y)) => Ok(vec![dates::year_only(year(y)?)]),
            (None, None) => Ok(Vec::new()),
        }
    }
}

/// The element `i` of `path` (root 0), or "".
fn at(path: &[String], i: usize) -> &str {
    path.get(i).map_or("", String::as_str)
}

impl Handler for Un {
    fn open(&mut self, path: &[String], _: &BytesStart<'_>) -> Result<(), Problem> {
        match (path.len(), at(path, 1), at(path, 2), at(path, 3)) {
            (3, "INDIVIDUALS", "INDIVIDUAL", _) | (3, "ENTITIES", "ENTITY", _) => {
                self.entry = Some(Individual::default());
            }
            (4, _, _, "INDIVIDUAL_ALIAS" | "ENTITY_ALIAS") => {
                if let Some(entry) = &mut self.entry {
                    entry.alias = Alias::default();
                }
            }
            (4, _, _, "INDIVIDUAL_DATE_OF_BIRTH") => {
                if let Some(entry) = &mut self.entry {
                    entry.birth = Birth::default();
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn close(&mut self, path: &[String], text: &str) -> Result<(), Problem> {
        if path.len() == 3 {
            return match self.entry.take() {
                Some(entry) => self.list.add(entry.finish()?),
                None => Ok(()),
            };
        }
        let Some(entry) = &mut self.entry else {
            return Ok(());
        };
        let text = text.trim();
        match (path.len(), at(path, 3), at(path, 4)) {
            (4, "DATAID", _) => entry.data_id = text.to_owned(),
            (4, "REFERENCE_NUMBER", _) => entry.reference_number = text.to_owned(),
            (4, "FIRST_NAME", _) => entry.name_parts[0] = text.to_owned(),
            (4, "SECOND_NAME", _) => entry.name_parts[1] = text.to_owned(),
            (4, "THIRD_NAME", _) => entry.name_parts[2] = text.to_owned(),
            (4, "FOURTH_NAME", _) => entry.name_parts[3] = text.to_owned(),
            (4, "NAME_ORIGINAL_SCRIPT", _) => entry.draft.name(text)?,
            (5, "INDIVIDUAL_ALIAS" | "ENTITY_ALIAS", "QUALITY") => {
                entry.alias.quality = text.to_owned();
            }
            (5, "INDIVIDUAL_ALIAS" | "ENTITY_ALIAS", "ALIAS_NAME") => {
                entry.alias.name = text.to_owned();
            }
            (4, "INDIVIDUAL_ALIAS" | "ENTITY_ALIAS", _) => {
                let Alias { quality, name } = std::mem::take(&mut entry.alias);
                if quality.eq_ignore_ascii_case("low") {
                    entry.draft.weak_name(&name)?;
                } else {
                    entry.draft.name(&name)?;
                }
            }
            (5, "NATIONALITY", "VALUE")
            | (5, "INDIVIDUAL_ADDRESS" | "ENTITY_ADDRESS", "COUNTRY") => {
                entry.draft.country(text)?;
            }
            (5, "INDIVIDUAL_DATE_OF_BIRTH", "DATE") => entry.birth.date = text.to_owned(),
            (5, "INDIVIDUAL_DATE_OF_BIRTH", "YEAR") => entry.birth.year = text.to_owned(),
            (5, "INDIVIDUAL_DATE_OF_BIRTH", "FROM_YEAR") => {
                entry.birth.from_year = text.to_owned();
            }
            (5, "INDIVIDUAL_DATE_OF_BIRTH", "TO_YEAR") => entry.birth.to_year = text.to_owned(),
            (4, "INDIVIDUAL_DATE_OF_BIRTH", _) => {
                let dates = std::mem::take(&mut entry.birth).dates()?;
                entry.draft.dates(dates)?;
            }
            _ => {}
        }
        Ok(())
    }
}

impl Individual {
    /// The entry: its id, its name in parts, joined, first.
    fn finish(mut self) -> Result<Draft, Problem> {
        let id = if self.reference_number.is_empty() {
            &self.data_id
        } else {
            &self.reference_number
        };
        self.draft.set_id(id);
        self.draft.primary_name(&self.name_parts.join(" "))?;
        Ok(self.draft)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Format, read};

    fn date(year: i32, month: u8, day: u8) -> BirthDate {
        BirthDate {
            year,
            month_day: Some((month, day)),
        }
    }

    fn un(xml: &str) -> Result<Vec<Entry>, ImportError> {
        let file = ListFile {
            name: "un.xml",
            bytes: xml.as_bytes(),
        };
        read(Format::UnXml, &[file])
    }

    const LIST: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<CONSOLIDATED_LIST xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" dateGenerated="2024-01-01T00:00:00.000Z">
<INDIVIDUALS>
<INDIVIDUAL>
<DATAID>6908555</DATAID>
<VERSIONNUM>1</VERSIONNUM>
<FIRST_NAME>ABDUL</FIRST_NAME>
<SECOND_NAME>HAQ</SECOND_NAME>
<THIRD_NAME/>
<UN_LIST_TYPE>Al-Qaida</UN_LIST_TYPE>
<REFERENCE_NUMBER>QDi.001</REFERENCE_NUMBER>
<NAME_ORIGINAL_SCRIPT>عبد الحق</NAME_ORIGINAL_SCRIPT>
<NATIONALITY><VALUE>Afghanistan</VALUE><VALUE>Pakistan</VALUE></NATIONALITY>
<INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>Abdul Haq &amp; Sons</ALIAS_NAME></INDIVIDUAL_ALIAS>
<INDIVIDUAL_ALIAS><QUALITY>Low</QUALITY><ALIAS_NAME>Abu Ahmed</ALIAS_NAME></INDIVIDUAL_ALIAS>
<INDIVIDUAL_ALIAS><QUALITY>a.k.a.</QUALITY><ALIAS_NAME>Maulvi&#x20;Haq</ALIAS_NAME></INDIVIDUAL_ALIAS>
<INDIVIDUAL_ALIAS><QUALITY/><ALIAS_NAME/></INDIVIDUAL_ALIAS>
<INDIVIDUAL_ADDRESS><CITY>Kabul</CITY><COUNTRY>Afghanistan</COUNTRY></INDIVIDUAL_ADDRESS>
<INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><DATE>1960-01-12</DATE></INDIVIDUAL_DATE_OF_BIRTH>
<INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>APPROXIMATELY</TYPE_OF_DATE><YEAR>1962</YEAR></INDIVIDUAL_DATE_OF_BIRTH>
<INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE><FROM_YEAR>1964</FROM_YEAR><TO_YEAR>1966</TO_YEAR></INDIVIDUAL_DATE_OF_BIRTH>
<INDIVIDUAL_DATE_OF_BIRTH/>
<INDIVIDUAL_PLACE_OF_BIRTH><COUNTRY>Somewhere</COUNTRY></INDIVIDUAL_PLACE_OF_BIRTH>
</INDIVIDUAL>
<INDIVIDUAL>
<DATAID>6908556</DATAID>
<FIRST_NAME>NO</FIRST_NAME><SECOND_NAME>REFERENCE</SECOND_NAME>
</INDIVIDUAL>
</INDIVIDUALS>
<ENTITIES>
<ENTITY>
<DATAID>110</DATAID>
<FIRST_NAME>AL-RASHID TRUST</FIRST_NAME>
<REFERENCE_NUMBER>QDe.005</REFERENCE_NUMBER>
<ENTITY_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>Al Rasheed Trust</ALIAS_NAME></ENTITY_ALIAS>
<ENTITY_ADDRESS><COUNTRY>Pakistan</COUNTRY></ENTITY_ADDRESS>
</ENTITY>
</ENTITIES>
</CONSOLIDATED_LIST>
"#;

    #[test]
    fn individuals_and_entities_with_their_quirks() {
        let entries = un(LIST).expect("a well-formed list");
        assert_eq!(entries.len(), 3);
        let haq = &entries[0];
        assert_eq!(haq.id, "QDi.001");
        // The low-quality alias is dropped, the empty one is no alias, the entities
        // unescaped.
        assert_eq!(
            haq.names,
            ["ABDUL HAQ", "عبد الحق", "Abdul Haq & Sons", "Maulvi Haq"]
        );
        let years = |from, to| (from..=to).map(dates::year_only);
        let expected: Vec<_> = [date(1960, 1, 12)]
            .into_iter()
            .chain(years(1962, 1962))
            .chain(years(1964, 1966))
            .collect();
        assert_eq!(haq.dates_of_birth, expected);
        // Nationalities, then the address's; not the place of birth.
        assert_eq!(haq.countries, ["Afghanistan", "Pakistan"]);
        assert_eq!(
            entries[1].id, "6908556",
            "the DATAID when no reference number"
        );
        assert_eq!(entries[1].names, ["NO REFERENCE"]);
        let trust = &entries[2];
        assert_eq!(trust.id, "QDe.005");
        assert_eq!(trust.names, ["AL-RASHID TRUST", "Al Rasheed Trust"]);
        assert_eq!(trust.countries, ["Pakistan"]);
        assert!(trust.dates_of_birth.is_empty());
    }

    #[test]
    fn a_byte_order_mark_and_a_doctype_change_nothing_but_no_entity_is_expanded() {
        assert_eq!(un(&format!("\u{feff}{LIST}")), un(LIST));
        let doctype = "<!DOCTYPE CONSOLIDATED_LIST [<!ENTITY name \"ABDUL\">]>\n";
        let with_doctype = LIST.replacen("\n", &format!("\n{doctype}"), 1);
        assert_eq!(un(&with_doctype), un(LIST));
        let expanded = with_doctype.replace(">ABDUL<", ">&name;<");
        let error = un(&expanded).expect_err("an entity of the DTD");
        assert!(
            error.to_string().contains("unknown entity &name;"),
            "{error}"
        );
    }

    #[test]
    fn a_truncated_list_is_refused_naming_the_open_element() {
        let cut = &LIST[..LIST.find("<ENTITY_ALIAS>").expect("an alias")];
        let error = un(cut).expect_err("truncated");
        assert_eq!(error.problem, Problem::Unclosed);
        assert_eq!(
            error.to_string(),
            format!(
                "un.xml: <ENTITY> at line 31 (byte {}): not closed at the end of the file (truncated)",
                LIST.find("<ENTITY>").expect("an entity")
            )
        );
    }

    #[test]
    fn refusals() {
        let cases = [
            (
                LIST.replace("</SECOND_NAME>\n<THIRD_NAME/>", "</THIRD_NAME>"),
                "malformed XML",
            ),
            (
                LIST.replace("QDe.005", "QDi.001"),
                "id QDi.001 is used twice",
            ),
            (
                LIST.replace("1960-01-12", "12/01/1960"),
                "not YYYY-MM-DD or YYYY",
            ),
            (
                LIST.replace("<YEAR>1962", "<YEAR>62"),
                "not YYYY-MM-DD or YYYY",
            ),
            (LIST.replace("&amp;", "&nbsp;"), "unknown entity &nbsp;"),
            (
                LIST.replace("</CONSOLIDATED_LIST>", "</CONSOLIDATED_LIST><X/>"),
                "a second root",
            ),
            (
                LIST.replace("CONSOLIDATED_LIST", "export"),
                "not <CONSOLIDATED_LIST>",
            ),
        ];
        for (xml, expected) in cases {
            let error = un(&xml).expect_err(expected).to_string();
            assert!(error.contains(expected), "{error} lacks {expected}");
        }
        // The entry with an alias but no name of its own is no refusal: its alias names it.
        let unnamed = LIST.replace("AL-RASHID TRUST", " ");
        assert_eq!(
            un(&unnamed).expect("named by its alias")[2].names,
            ["Al Rasheed Trust"]
        );
        let nameless = LIST.replace(
            "<FIRST_NAME>NO</FIRST_NAME><SECOND_NAME>REFERENCE</SECOND_NAME>",
            "",
        );
        let error = un(&nameless).expect_err("no name");
        assert_eq!(error.problem, Problem::NoName);
        assert!(
            error
                .to_string()
                .starts_with("un.xml: <INDIVIDUAL> at line 25 "),
            "{error}"
        );
        let empty = "<?xml version=\"1.0\"?><CONSOLIDATED_LIST><INDIVIDUALS/><ENTITIES/></CONSOLIDATED_LIST>";
        assert_eq!(
            un(empty).expect_err("empty").to_string(),
            "un.xml: no entry"
        );
    }
}
