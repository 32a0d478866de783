//! A merchant's own list (`csv`): see [`crate::Format::Csv`].

use screening::Entry;

use crate::dates;
use crate::entries::{Draft, List};
use crate::rows::Rows;
use crate::{ImportError, ListFile, Location, Problem};

/// The header, exactly.
const HEADER: [&str; 5] = ["id", "name", "aliases", "date_of_birth", "country"];

pub(crate) fn read(file: &ListFile<'_>) -> Result<Vec<Entry>, ImportError> {
    let text = crate::text(file)?;
    let mut rows = Rows::new(file, text);
    let header = rows
        .next()
        .ok_or_else(|| ImportError::new(file.name, Location::File, Problem::NoEntries))??;
    if !header.iter().eq(HEADER) {
        return Err(rows.error(&header, Problem::Header));
    }
    let mut list = List::default();
    while let Some(record) = rows.next() {
        let record = record?;
        let draft = entry(&record).map_err(|problem| rows.error(&record, problem))?;
        list.add(draft)
            .map_err(|problem| rows.error(&record, problem))?;
    }
    if list.is_empty() {
        return Err(ImportError::new(
            file.name,
            Location::File,
            Problem::NoEntries,
        ));
    }
    Ok(list.finish())
}

/// A row's entry (it has the header's five fields: the reader refuses any other count).
fn entry(record: &csv::StringRecord) -> Result<Draft, Problem> {
    let values = |i| {
        record[i]
            .split(';')
            .map(str::trim)
            .filter(|v| !v.is_empty())
    };
    let mut draft = Draft::new(&record[0]);
    draft.name(&record[1])?;
    for alias in values(2) {
        draft.name(alias)?;
    }
    for date in values(3) {
        draft.dates([dates::iso_or_year(date).ok_or(Problem::Date)?])?;
    }
    for country in values(4) {
        if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(Problem::Country);
        }
        draft.country(&country.to_ascii_uppercase())?;
    }
    Ok(draft)
}

#[cfg(test)]
mod tests {
    use screening::BirthDate;

    use super::*;
    use crate::{Format, read};

    fn csv(text: &str) -> Result<Vec<Entry>, ImportError> {
        let file = ListFile {
            name: "list.csv",
            bytes: text.as_bytes(),
        };
        read(Format::Csv, &[file])
    }

    const LIST: &str = "\u{feff}id,name,aliases,date_of_birth,country\r\n\
        P-1,Jean Dupont,Jean Dupond; J. Dupont ;,1960-01-12,fr\r\n\
        P-2,\"Smith, \"\"Bob\"\"\",,1962;1963,GB;US\r\n\
        P-3,Acme Ltd,,,\r\n";

    #[test]
    fn entries_with_their_aliases_dates_and_countries() {
        let entries = csv(LIST).expect("a well-formed list");
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[0].id, "P-1");
        assert_eq!(
            entries[0].names,
            ["Jean Dupont", "Jean Dupond", "J. Dupont"]
        );
        assert_eq!(
            entries[0].dates_of_birth,
            [BirthDate {
                year: 1960,
                month_day: Some((1, 12))
            }]
        );
        assert_eq!(entries[0].countries, ["FR"]);
        assert_eq!(entries[1].names, ["Smith, \"Bob\""]);
        assert_eq!(
            entries[1].dates_of_birth,
            [dates::year_only(1962), dates::year_only(1963)]
        );
        assert_eq!(entries[1].countries, ["GB", "US"]);
        assert_eq!(entries[2].names, ["Acme Ltd"]);
    }

    #[test]
    fn refusals_name_the_line() {
        let cases = [
            (
                LIST.replace("id,name", "id,full_name"),
                "list.csv: line 1: the header is not",
            ),
            (
                LIST.replace(",country", ",country,notes"),
                "list.csv: line 1: the header is not",
            ),
            (
                LIST.replace(",Acme Ltd,,,", ",Acme Ltd,,"),
                "list.csv: line 4: 4 fields where the file's first row has 5",
            ),
            (
                LIST.replace("P-3", "P-1"),
                "list.csv: line 4: id P-1 is used twice",
            ),
            (
                LIST.replace("Acme Ltd", " "),
                "list.csv: line 4: an entry without a name",
            ),
            (
                LIST.replace("P-3", ""),
                "list.csv: line 4: an entry without an id",
            ),
            (
                LIST.replace("1960-01-12", "12/01/1960"),
                "list.csv: line 2: a date of birth",
            ),
            (LIST.replace("GB;US", "GBR"), "list.csv: line 3: a country"),
            (
                "id,name,aliases,date_of_birth,country\n".to_owned(),
                "list.csv: no entry",
            ),
            (String::new(), "list.csv: no entry"),
            (
                "id,name,aliases,date_of_birth,country\nP-1,Jean,,,\"FR".to_owned(),
                "list.csv: line 2: a quoted field not closed",
            ),
        ];
        for (text, expected) in cases {
            let error = csv(&text).expect_err(expected).to_string();
            assert!(error.starts_with(expected), "{error} is not {expected}");
        }
    }
}
