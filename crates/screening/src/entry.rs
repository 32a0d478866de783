//! One entry of a list, as its file gives it.

/// A date of birth as lists give them: often only the year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BirthDate {
    /// The year.
    pub year: i32,
    /// The month (1-12) and day (1-31), when the list gives them.
    pub month_day: Option<(u8, u8)>,
}

/// One person or organisation on a list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Entry {
    /// The list's own id of the entry (OFAC's `ent_num`, the UN's reference number, the
    /// EU's `logicalId`, a generic file's `id`): unique within its list.
    pub id: String,
    /// Its names as written in the list: the primary name first, then every alias.
    pub names: Vec<String>,
    /// Its dates of birth (lists give several when unsure).
    pub dates_of_birth: Vec<BirthDate>,
    /// Its countries (nationality, citizenship, address), ISO 3166-1 alpha-2 when the
    /// list gives a code, else the country's name as written.
    pub countries: Vec<String>,
}

impl Entry {
    /// A hex SHA-256 of the entry's canonical form: its id, its primary name, its aliases
    /// sorted, its dates of birth and countries sorted, each deduplicated and
    /// length-prefixed. The same entry read again from a new file gives the same digest
    /// whatever the order of its aliases, dates and countries; any change to what it says
    /// gives another, so that a caller can tell when an entry itself changed.
    pub fn digest(&self) -> String {
        fn field(context: &mut ring::digest::Context, bytes: &[u8]) {
            context.update(&(bytes.len() as u64).to_be_bytes());
            context.update(bytes);
        }
        fn sorted<T: Ord + Clone>(items: &[T]) -> Vec<T> {
            let mut items = items.to_vec();
            items.sort();
            items.dedup();
            items
        }
        let mut context = ring::digest::Context::new(&ring::digest::SHA256);
        // A version, so that a change of this form is never taken for unchanged entries.
        field(&mut context, b"screening.entry.v1");
        field(&mut context, self.id.as_bytes());
        context.update(&(self.names.len() as u64).to_be_bytes());
        let (primary, aliases) = self
            .names
            .split_first()
            .map_or((None, &[][..]), |(p, a)| (Some(p), a));
        field(&mut context, primary.map_or(&[][..], |p| p.as_bytes()));
        let aliases = sorted(aliases);
        context.update(&(aliases.len() as u64).to_be_bytes());
        for alias in &aliases {
            field(&mut context, alias.as_bytes());
        }
        let dates = sorted(&self.dates_of_birth);
        context.update(&(dates.len() as u64).to_be_bytes());
        for date in &dates {
            let (month, day) = date.month_day.unwrap_or((0, 0));
            let known = u8::from(date.month_day.is_some());
            field(
                &mut context,
                &[&date.year.to_be_bytes()[..], &[known, month, day]].concat(),
            );
        }
        let countries = sorted(&self.countries);
        context.update(&(countries.len() as u64).to_be_bytes());
        for country in &countries {
            field(&mut context, country.as_bytes());
        }
        context
            .finish()
            .as_ref()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            id: "123".into(),
            names: vec![
                "KIM, Jong Un".into(),
                "Kim Jong-un".into(),
                "Kim Chong-un".into(),
            ],
            dates_of_birth: vec![
                BirthDate {
                    year: 1984,
                    month_day: Some((1, 8)),
                },
                BirthDate {
                    year: 1983,
                    month_day: None,
                },
            ],
            countries: vec!["KP".into(), "CH".into()],
        }
    }

    #[test]
    fn digest_is_hex_sha256_and_stable() {
        let digest = entry().digest();
        assert_eq!(digest.len(), 64);
        assert!(
            digest
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        assert_eq!(digest, entry().digest());
        let mut reordered = entry();
        reordered.names.swap(1, 2);
        reordered.dates_of_birth.reverse();
        reordered.countries.reverse();
        assert_eq!(
            reordered.digest(),
            digest,
            "the order of aliases, dates, countries"
        );
    }

    #[test]
    fn digest_changes_with_the_entry() {
        let digest = entry().digest();
        let changes: [fn(&mut Entry); 7] = [
            |e| e.id.push('4'),
            |e| e.names.swap(0, 1),
            |e| e.names.push("Kim Jong Eun".into()),
            |e| e.names[2].push('g'),
            |e| e.dates_of_birth[0].month_day = None,
            |e| e.dates_of_birth[1].year += 1,
            |e| e.countries.pop().map_or((), drop),
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut changed = entry();
            change(&mut changed);
            assert_ne!(changed.digest(), digest, "change {i}");
        }
        // Fields never run into each other: a name split differently is another entry.
        let a = Entry {
            names: vec!["ab".into(), "c".into()],
            ..Entry::default()
        };
        let b = Entry {
            names: vec!["a".into(), "bc".into()],
            ..Entry::default()
        };
        assert_ne!(a.digest(), b.digest());
    }
}
