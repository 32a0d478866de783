//! One page of a listing, newest first, with the count the interface reports.

use domain::paging::{Page, Paged};
use domain::ports::StoreResult;

/// Counts the rows `$query` selects and loads the page of them with the highest ids
/// first (ids are ULIDs: newest first). A macro because diesel's query types differ per
/// table; it expands to the same statements everywhere. A page nearer the oldest end is
/// read from that end (see [`from_the_oldest`]).
macro_rules! newest_first {
    ($conn:expr, $query:expr, $id:expr, $page:expr, $row:ty) => {{
        let query = $query;
        let total: i64 = query.clone().count().get_result($conn)?;
        let rows = $crate::repositories::paging::page_of!($conn, query, $id, $page, total, $row);
        (rows, total)
    }};
}

/// Loads the page of the `$total` rows `$query` selects, newest first; `$query` is
/// evaluated once, in the branch taken (a boxed query cannot be cloned).
macro_rules! page_of {
    ($conn:expr, $query:expr, $id:expr, $page:expr, $total:expr, $row:ty) => {
        match $crate::repositories::paging::from_the_oldest($page, $total) {
            Some((offset, limit)) => {
                let mut rows: Vec<$row> = $query
                    .order($id.asc())
                    .offset(offset)
                    .limit(limit)
                    .select(<$row>::as_select())
                    .load($conn)?;
                rows.reverse();
                rows
            }
            None => $query
                .order($id.desc())
                .offset($page.offset())
                .limit($page.limit())
                .select(<$row>::as_select())
                .load::<$row>($conn)?,
        }
    };
}

pub(crate) use {newest_first, page_of};

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

/// The same page of `total` rows, newest first, as an offset and a limit counted from the
/// oldest, when that walk is the shorter: an offset steps over every row it skips (both
/// backends), so the last page of a million read from the newest end stepped over 999 950
/// of them. `None` when the page is nearer the newest end.
pub(crate) fn from_the_oldest(page: Page, total: i64) -> Option<(i64, i64)> {
    let (offset, limit) = (page.offset(), page.limit());
    if offset >= total {
        // Past the end: nothing, without stepping over anything.
        return Some((0, 0));
    }
    let end = (offset + limit).min(total);
    (total - end < offset).then_some((total - end, end - offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows `from_the_oldest` reads, turned newest first, against those a plain
    /// newest-first offset reads, for every page of small tables.
    #[test]
    fn a_page_read_from_the_oldest_end_holds_the_same_rows() {
        for total in 0..12 {
            let newest_first: Vec<i64> = (0..total).rev().collect();
            for offset in 0..14 {
                for limit in 1..5 {
                    let page = Page::new(offset, limit).expect("page");
                    let expected: Vec<i64> = newest_first
                        .iter()
                        .copied()
                        .skip(offset as usize)
                        .take(limit as usize)
                        .collect();
                    let read: Vec<i64> = match from_the_oldest(page, total) {
                        Some((from, count)) => {
                            let mut rows: Vec<i64> = (0..total)
                                .skip(from as usize)
                                .take(count as usize)
                                .collect();
                            rows.reverse();
                            rows
                        }
                        None => expected.clone(),
                    };
                    assert_eq!(
                        read, expected,
                        "total {total}, offset {offset}, limit {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_last_page_of_a_million_skips_nothing() {
        let page = Page::new(999_950, 50).expect("page");
        assert_eq!(from_the_oldest(page, 1_000_000), Some((0, 50)));
        let first = Page::new(0, 50).expect("page");
        assert_eq!(from_the_oldest(first, 1_000_000), None);
    }
}
