//! Entries as a file gives them, gathered until the whole file is read.

use std::collections::HashSet;
use std::collections::hash_map::{Entry as Slot, HashMap};
use std::hash::Hash;

use screening::{BirthDate, Entry};

use crate::{MAX_ENTRIES, MAX_PER_ENTRY, Problem};

/// One entry being read. Every value is counted as it comes, duplicates included, so that
/// an absurd entry is refused before it costs anything.
#[derive(Debug, Default)]
pub(crate) struct Draft {
    id: String,
    /// Each name with whether the list calls it weak (the UN's low-quality aliases, the
    /// EU's aliases that are not `strong`).
    names: Vec<(String, bool)>,
    dates: Vec<BirthDate>,
    countries: Vec<String>,
}

impl Draft {
    /// An entry with this id (trimmed).
    pub(crate) fn new(id: &str) -> Self {
        let mut draft = Self::default();
        draft.set_id(id);
        draft
    }

    /// Sets its id (trimmed), for a format that gives it after the names.
    pub(crate) fn set_id(&mut self, id: &str) {
        id.trim().clone_into(&mut self.id);
    }

    /// Adds a name (the first is the primary one). Blank names are no names: lists leave
    /// empty alias elements. Runs of white space become one space (XML text wraps lines).
    pub(crate) fn name(&mut self, name: &str) -> Result<(), Problem> {
        self.push_name(name, false)
    }

    /// Adds a name the list calls weak: kept only when the entry has no other name.
    pub(crate) fn weak_name(&mut self, name: &str) -> Result<(), Problem> {
        self.push_name(name, true)
    }

    /// Puts a name first, for a format that gives the primary name after the aliases.
    pub(crate) fn primary_name(&mut self, name: &str) -> Result<(), Problem> {
        if let Some(name) = self.tidy_name(name)? {
            self.names.insert(0, (name, false));
        }
        Ok(())
    }

    fn push_name(&mut self, name: &str, weak: bool) -> Result<(), Problem> {
        if let Some(name) = self.tidy_name(name)? {
            self.names.push((name, weak));
        }
        Ok(())
    }

    /// The name with its white space tidied, `None` if blank, or the cap reached.
    fn tidy_name(&self, name: &str) -> Result<Option<String>, Problem> {
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        if name.is_empty() {
            return Ok(None);
        }
        bounded(&self.names, "names")?;
        Ok(Some(name))
    }

    /// Adds dates of birth.
    pub(crate) fn dates(
        &mut self,
        dates: impl IntoIterator<Item = BirthDate>,
    ) -> Result<(), Problem> {
        for date in dates {
            bounded(&self.dates, "dates of birth")?;
            self.dates.push(date);
        }
        Ok(())
    }

    /// Adds a country (trimmed; blank is none).
    pub(crate) fn country(&mut self, country: &str) -> Result<(), Problem> {
        let country = country.trim();
        if country.is_empty() {
            return Ok(());
        }
        bounded(&self.countries, "countries")?;
        self.countries.push(country.to_owned());
        Ok(())
    }

    /// The entry: the weak names dropped when there is a strong one, each value once, in
    /// the file's order.
    fn finish(self) -> Entry {
        let any_strong = self.names.iter().any(|(_, weak)| !weak);
        let names = self
            .names
            .into_iter()
            .filter(|(_, weak)| !(any_strong && *weak))
            .map(|(name, _)| name);
        Entry {
            id: self.id,
            names: once_each(names),
            dates_of_birth: once_each(self.dates),
            countries: once_each(self.countries),
        }
    }
}

fn bounded<T>(values: &[T], what: &'static str) -> Result<(), Problem> {
    if values.len() >= MAX_PER_ENTRY {
        Err(Problem::TooMany(what))
    } else {
        Ok(())
    }
}

fn once_each<T: Eq + Hash + Clone>(values: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut seen = HashSet::new();
    values
        .into_iter()
        .filter(|value| seen.insert(value.clone()))
        .collect()
}

/// A list being read: its entries in the file's order, by id.
#[derive(Debug)]
pub(crate) struct List {
    drafts: Vec<Draft>,
    by_id: HashMap<String, usize>,
    /// [`MAX_ENTRIES`] (smaller in the tests, which need not build a million entries).
    max_entries: usize,
}

impl Default for List {
    fn default() -> Self {
        Self {
            drafts: Vec::new(),
            by_id: HashMap::new(),
            max_entries: MAX_ENTRIES,
        }
    }
}

impl List {
    /// Adds an entry, refusing one without an id or a name, an id already taken, or one
    /// entry more than [`MAX_ENTRIES`].
    pub(crate) fn add(&mut self, draft: Draft) -> Result<(), Problem> {
        if draft.id.is_empty() {
            return Err(Problem::NoId);
        }
        if draft.names.is_empty() {
            return Err(Problem::NoName);
        }
        if self.drafts.len() >= self.max_entries {
            return Err(Problem::TooManyEntries);
        }
        match self.by_id.entry(draft.id.clone()) {
            Slot::Occupied(_) => Err(Problem::DuplicateId(draft.id)),
            Slot::Vacant(slot) => {
                slot.insert(self.drafts.len());
                self.drafts.push(draft);
                Ok(())
            }
        }
    }

    /// The entry of this id, to add what another file says of it (OFAC's aliases and
    /// addresses).
    pub(crate) fn get_mut(&mut self, id: &str) -> Option<&mut Draft> {
        self.by_id.get(id.trim()).map(|&i| &mut self.drafts[i])
    }

    /// Whether no entry was read.
    pub(crate) fn is_empty(&self) -> bool {
        self.drafts.is_empty()
    }

    /// The entries.
    pub(crate) fn finish(self) -> Vec<Entry> {
        self.drafts.into_iter().map(Draft::finish).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn year(year: i32) -> BirthDate {
        BirthDate {
            year,
            month_day: None,
        }
    }

    #[test]
    fn values_are_kept_once_in_order_and_weak_names_only_without_a_strong_one() {
        let mut draft = Draft::new(" 7 ");
        draft.name("  ALI,\n  Hassan ").expect("a name");
        draft.weak_name("Abu Ali").expect("a weak name");
        draft.name("ALI, Hassan").expect("the same name");
        draft.name("   ").expect("a blank name");
        draft
            .dates([year(1960), year(1961), year(1960)])
            .expect("dates");
        draft.country("Iran").expect("a country");
        draft.country("Iran ").expect("the same country");
        let entry = draft.finish();
        assert_eq!(entry.id, "7");
        assert_eq!(entry.names, ["ALI, Hassan"]);
        assert_eq!(entry.dates_of_birth, [year(1960), year(1961)]);
        assert_eq!(entry.countries, ["Iran"]);

        let mut weak_only = Draft::new("8");
        weak_only.weak_name("Abu Ali").expect("a weak name");
        assert_eq!(weak_only.finish().names, ["Abu Ali"]);
    }

    #[test]
    fn an_entry_with_too_many_values_is_refused() {
        let mut draft = Draft::new("1");
        for i in 0..MAX_PER_ENTRY {
            draft.name(&format!("NAME {i}")).expect("within the cap");
        }
        assert_eq!(draft.name("ONE MORE"), Err(Problem::TooMany("names")));
        let too_many_years = (0..=MAX_PER_ENTRY).map(|_| year(1960));
        assert_eq!(
            draft.dates(too_many_years),
            Err(Problem::TooMany("dates of birth"))
        );
    }

    #[test]
    fn a_list_refuses_one_entry_more_than_the_cap() {
        let mut list = List {
            max_entries: 3,
            ..List::default()
        };
        assert_eq!(List::default().max_entries, MAX_ENTRIES);
        let mut named = |i: usize| {
            let mut draft = Draft::new(&i.to_string());
            draft.name("N").expect("a name");
            list.add(draft)
        };
        for i in 0..3 {
            named(i).expect("within the cap");
        }
        assert_eq!(named(3), Err(Problem::TooManyEntries));
    }

    #[test]
    fn a_list_refuses_no_id_no_name_and_an_id_twice() {
        let mut list = List::default();
        assert_eq!(list.add(Draft::new(" ")), Err(Problem::NoId));
        assert_eq!(list.add(Draft::new("1")), Err(Problem::NoName));
        let named = |id| {
            let mut draft = Draft::new(id);
            draft.name("A NAME").expect("a name");
            draft
        };
        list.add(named("1")).expect("a first entry");
        assert_eq!(
            list.add(named("1")),
            Err(Problem::DuplicateId("1".to_owned()))
        );
        assert!(list.get_mut(" 1").is_some());
        assert_eq!(list.finish().len(), 1);
    }
}
