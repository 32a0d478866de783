use domain::paging::{Page, Paged};
use serde::Serialize;
use utoipa::ToSchema;

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
