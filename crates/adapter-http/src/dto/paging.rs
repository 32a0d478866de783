use domain::paging::{DEFAULT_LIMIT, Page, Paged};
use serde_json::{Map, Value};

use crate::fields::Fields;
use crate::object;

/// Reads `offset` and `limit`. Where the interface marks them required, missing is an
/// error; elsewhere they default to 0 and 10.
pub fn read_page(fields: &mut Fields<'_>, required: bool) -> Option<Page> {
    let offset = fields.integer("offset", required);
    let offset = fields.check("offset", offset, Page::parse_offset);
    let limit = fields.integer("limit", required);
    let limit = fields.check("limit", limit, Page::parse_limit);
    let defaulted = |v: Option<i64>, default| if required { v } else { v.or(Some(default)) };
    Page::new(defaulted(offset, 0)?, defaulted(limit, DEFAULT_LIMIT)?).ok()
}

/// The paging fields of interface §4, as integers.
pub fn paging_fields<T>(page: Page, paged: &Paged<T>) -> Map<String, Value> {
    object! {
        "total_count": paged.total_count,
        "offset": page.offset(),
        "limit": page.limit(),
        "filtered": paged.filtered,
    }
}
