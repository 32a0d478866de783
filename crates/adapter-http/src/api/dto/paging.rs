use domain::paging::{DEFAULT_LIMIT, Page, Paged};
use serde::Serialize;
use utoipa::ToSchema;

use crate::fields::Fields;

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

/// The paging fields of interface §4.
#[derive(Debug, Serialize, ToSchema)]
pub struct Paging {
    /// All records of the kind in scope (the merchant's, or the profile's).
    pub total_count: i64,
    pub offset: i64,
    pub limit: i64,
    /// How many match the request's filters (equal to `total_count` without filters).
    pub filtered: i64,
}

impl Paging {
    pub fn of<T>(page: Page, paged: &Paged<T>) -> Self {
        Self {
            total_count: paged.total_count,
            offset: page.offset(),
            limit: page.limit(),
            filtered: paged.filtered,
        }
    }
}
