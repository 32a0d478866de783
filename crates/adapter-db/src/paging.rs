//! One page of a listing, newest first, with the count the interface reports.

use domain::paging::Paged;
use domain::ports::StoreResult;

/// Counts the rows `$query` selects and loads the page of them with the highest ids
/// first (ids are ULIDs: newest first). A macro because diesel's query types differ per
/// table; it expands to the same two statements everywhere.
macro_rules! newest_first {
    ($conn:expr, $query:expr, $id:expr, $page:expr, $row:ty) => {{
        let query = $query;
        let total: i64 = query.clone().count().get_result($conn)?;
        let rows: Vec<$row> = query
            .order($id.desc())
            .offset($page.offset())
            .limit($page.limit())
            .select(<$row>::as_select())
            .load($conn)?;
        (rows, total)
    }};
}

pub(crate) use newest_first;

/// Rows and their total into the domain's page.
pub(crate) fn paged<Row, T>(
    (rows, total): (Vec<Row>, i64),
    convert: impl Fn(Row) -> StoreResult<T>,
) -> StoreResult<Paged<T>> {
    Ok(Paged {
        items: rows.into_iter().map(convert).collect::<StoreResult<_>>()?,
        total_count: total,
        filtered: total,
    })
}
