//! The EU's financial sanctions file (`eu-xml`): see [`crate::Format::EuXml`].

use quick_xml::events::BytesStart;
use screening::{BirthDate, Entry};

use crate::dates;
use crate::entries::{Draft, List};
use crate::xml::{self, Handler};
use crate::{ImportError, ListFile, Location, Problem};

pub(crate) fn read(file: &ListFile<'_>) -> Result<Vec<Entry>, ImportError> {
    let mut eu = Eu::default();
    xml::walk(file, "export", &mut eu)?;
    if eu.list.is_empty() {
        return Err(ImportError::new(
            file.name,
            Location::File,
            Problem::NoEntries,
        ));
    }
    Ok(eu.list.finish())
}

#[derive(Debug, Default)]
struct Eu {
    list: List,
    /// The `sanctionEntity` being read.
    entry: Option<Draft>,
}

/// An element's attributes, by name.
struct Attributes(Vec<(String, String)>);

impl Attributes {
    /// The attribute's value, trimmed, if it is there and not blank (nor "0", the EU's
    /// unknown day, month or year).
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.trim())
            .filter(|value| !value.is_empty() && *value != "0")
    }

    /// A `birthdate`'s dates: its `birthdate`, else its `year` (with its month and day
    /// when both are there), else the years of `yearRangeFrom` to `yearRangeTo` (either
    /// alone is one year), else none (a place of birth without a date).
    fn dates(&self) -> Result<Vec<BirthDate>, Problem> {
        let year = |name| self.get(name).map(|y| dates::year(y).ok_or(Problem::Date));
        if let Some(date) = self.get("birthdate") {
            return dates::iso(date).map(|d| vec![d]).ok_or(Problem::Date);
        }
        if let Some(y) = year("year").transpose()? {
            let number = |name| self.get(name).and_then(|n| n.parse().ok());
            let date = match (number("monthOfYear"), number("dayOfMonth")) {
                (Some(month), Some(day)) => dates::full(y, month, day).ok_or(Problem::Date)?,
                _ => dates::year_only(y),
            };
            return Ok(vec![date]);
        }
        match (
            year("yearRangeFrom").transpose()?,
            year("yearRangeTo").transpose()?,
        ) {
            (Some(from), Some(to)) => dates::years(from, to).ok_or(Problem::Date),
            (Some(y), None) | (None, Some(y)) => Ok(vec![dates::year_only(y)]),
            (None, None) => Ok(Vec::new()),
        }
    }

    /// `countryIso2Code`, upper case; none when blank or "00" (the EU's unknown).
    fn country(&self) -> Result<Option<String>, Problem> {
        match self.get("countryIso2Code") {
            None | Some("00") => Ok(None),
            Some(code) if code.len() == 2 && code.bytes().all(|b| b.is_ascii_alphabetic()) => {
                Ok(Some(code.to_ascii_uppercase()))
            }
            Some(_) => Err(Problem::Country),
        }
    }
}

impl Handler for Eu {
    fn open(&mut self, path: &[String], element: &BytesStart<'_>) -> Result<(), Problem> {
        let (depth, name) = (path.len(), path.last().map_or("", String::as_str));
        if depth == 2 && name == "sanctionEntity" {
            let attributes = Attributes(xml::attributes(element)?);
            self.entry = Some(Draft::new(attributes.get("logicalId").unwrap_or("")));
            return Ok(());
        }
        let Some(entry) = &mut self.entry else {
            return Ok(());
        };
        if depth != 3 {
            return Ok(());
        }
        match name {
            "nameAlias" => {
                let attributes = Attributes(xml::attributes(element)?);
                let whole = attributes.get("wholeName").map_or_else(
                    || {
                        ["firstName", "middleName", "lastName"]
                            .into_iter()
                            .filter_map(|part| attributes.get(part))
                            .collect::<Vec<_>>()
                            .join(" ")
                    },
                    str::to_owned,
                );
                if attributes.get("strong") == Some("false") {
                    entry.weak_name(&whole)?;
                } else {
                    entry.name(&whole)?;
                }
            }
            "birthdate" => entry.dates(Attributes(xml::attributes(element)?).dates()?)?,
            "citizenship" | "address" => {
                if let Some(country) = Attributes(xml::attributes(element)?).country()? {
                    entry.country(&country)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn close(&mut self, path: &[String], _: &str) -> Result<(), Problem> {
        if path.len() == 2
            && let Some(entry) = self.entry.take()
        {
            self.list.add(entry)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Format, read};

    fn eu(xml: &str) -> Result<Vec<Entry>, ImportError> {
        let file = ListFile {
            name: "eu.xml",
            bytes: xml.as_bytes(),
        };
        read(Format::EuXml, &[file])
    }

    fn date(year: i32, month: u8, day: u8) -> BirthDate {
        BirthDate {
            year,
            month_day: Some((month, day)),
        }
    }

    const LIST: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<export xmlns="http://eu.europa.eu/fpi/fsd/export" generationDate="2024-01-01T10:00:00.000+01:00" globalFileId="1">
<sanctionEntity designationDetails="" unitedNationId="" euReferenceNumber="EU.27.28" logicalId="13">
<regulation regulationType="regulation" programme="IRQ" logicalId="348"><publicationUrl>x</publicationUrl></regulation>
<subjectType code="person" classificationCode="P"/>
<nameAlias firstName="Saddam" middleName="" lastName="Hussein Al-Tikriti" wholeName="Saddam Hussein Al-Tikriti" function="" gender="M" title="" nameLanguage="" strong="true" regulationLanguage="en" logicalId="17">
<regulationSummary regulationType="regulation" publicationDate="2003-07-08"/>
</nameAlias>
<nameAlias firstName="Abu" middleName="" lastName="Ali" wholeName="" strong="true" logicalId="19"/>
<nameAlias wholeName="Abou Ali" nameLanguage="FR" strong="false" logicalId="20"/>
<citizenship region="" countryIso2Code="IQ" countryDescription="IRAQ" logicalId="1"/>
<citizenship region="" countryIso2Code="00" countryDescription="UNKNOWN" logicalId="2"/>
<birthdate circa="false" calendarType="GREGORIAN" city="al-Awja, near Tikrit" zipCode="" birthdate="1937-04-28" dayOfMonth="28" monthOfYear="4" year="1937" countryIso2Code="IQ" logicalId="14"/>
<birthdate circa="false" year="1938" logicalId="15"/>
<birthdate circa="false" year="1939" monthOfYear="2" dayOfMonth="3" logicalId="16"/>
<birthdate circa="true" yearRangeFrom="1940" yearRangeTo="1941" logicalId="17"/>
<birthdate circa="false" city="Tikrit" countryIso2Code="00" logicalId="18"/>
</sanctionEntity>
<sanctionEntity designationDetails="" unitedNationId="" euReferenceNumber="EU.1.2" logicalId="999">
<subjectType code="enterprise" classificationCode="E"/>
<nameAlias wholeName="ACME Trading &amp; Co." strong="true" logicalId="1"/>
<address city="Baghdad" street="" countryIso2Code="iq" countryDescription="IRAQ" logicalId="3"/>
</sanctionEntity>
</export>
"#;

    #[test]
    fn persons_and_enterprises_in_the_default_namespace() {
        let entries = eu(LIST).expect("a well-formed file");
        assert_eq!(entries.len(), 2);
        let person = &entries[0];
        assert_eq!(person.id, "13");
        // The weak French alias goes: the entry has strong names.
        assert_eq!(person.names, ["Saddam Hussein Al-Tikriti", "Abu Ali"]);
        let expected = vec![
            date(1937, 4, 28),
            dates::year_only(1938),
            date(1939, 2, 3),
            dates::year_only(1940),
            dates::year_only(1941),
        ];
        assert_eq!(person.dates_of_birth, expected);
        assert_eq!(person.countries, ["IQ"]);
        let enterprise = &entries[1];
        assert_eq!(enterprise.id, "999");
        assert_eq!(enterprise.names, ["ACME Trading & Co."]);
        assert!(enterprise.dates_of_birth.is_empty());
        assert_eq!(enterprise.countries, ["IQ"]);
    }

    #[test]
    fn a_prefixed_namespace_reads_the_same() {
        let prefixed = LIST
            .replace("<export xmlns=", "<fsd:export xmlns:fsd=")
            .replace("</export>", "</fsd:export>")
            .replace("<sanctionEntity", "<fsd:sanctionEntity")
            .replace("</sanctionEntity>", "</fsd:sanctionEntity>")
            .replace("<nameAlias", "<fsd:nameAlias")
            .replace("</nameAlias>", "</fsd:nameAlias>");
        assert_eq!(eu(&prefixed), eu(LIST));
    }

    #[test]
    fn refusals() {
        let cases = [
            (&LIST[..LIST.len() - 28], "<sanctionEntity> at line 19"),
            (
                &LIST[..LIST.find("<birthdate").expect("a birthdate") + 12],
                "malformed XML",
            ),
            (
                &LIST[..LIST.find("<sanctionEntity").expect("an entity")],
                "<export> at line 2",
            ),
        ];
        for (xml, expected) in cases {
            let error = eu(xml).expect_err(expected).to_string();
            assert!(error.contains(expected), "{error} lacks {expected}");
        }
        let cases = [
            (
                LIST.replace("logicalId=\"999\"", "logicalId=\"13\""),
                "id 13 is used twice",
            ),
            (LIST.replace(" logicalId=\"999\"", ""), "without an id"),
            (LIST.replace("ACME Trading &amp; Co.", ""), "without a name"),
            (LIST.replace("1937-04-28", "28/04/1937"), "not YYYY-MM-DD"),
            (
                LIST.replace("yearRangeTo=\"1941\"", "yearRangeTo=\"1931\""),
                "not YYYY-MM-DD",
            ),
            (
                LIST.replace("countryIso2Code=\"iq\"", "countryIso2Code=\"IRQ\""),
                "alpha-2",
            ),
            (
                LIST.replace("<export", "<CONSOLIDATED_LIST")
                    .replace("</export", "</CONSOLIDATED_LIST"),
                "not <export>",
            ),
        ];
        for (xml, expected) in cases {
            let error = eu(&xml).expect_err(expected).to_string();
            assert!(error.contains(expected), "{error} lacks {expected}");
        }
        let error = eu(&LIST.replace("ACME Trading &amp; Co.", "")).expect_err("no name");
        assert_eq!(error.problem, Problem::NoName);
        assert!(
            error
                .to_string()
                .starts_with("eu.xml: <sanctionEntity> at line 19 (byte "),
            "{error}"
        );
    }
}
