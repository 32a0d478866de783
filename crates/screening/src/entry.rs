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
