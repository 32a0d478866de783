//! The profile list.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use domain::paging::Page;
use domain::profile::{Profile, ProfileFilter, ProfileStatus};
use serde::Deserialize;

use super::{DashboardError, Reviewer};
use crate::pages::html;
use crate::state::State;

/// Profiles per page.
const PER_PAGE: i64 = 25;

#[derive(Deserialize)]
pub(super) struct ListQuery {
    /// Part of a name, an e-mail or a mobile.
    q: Option<String>,
    /// `Pending`, `Reviewed`, `Approved` or `Declined`; anything else: all.
    status: Option<String>,
    page: Option<i64>,
}

struct Row {
    id: String,
    name: String,
    email: String,
    mobile: String,
    status: &'static str,
}

#[derive(Template)]
#[template(path = "dashboard/profiles.html")]
struct ProfilesPage<'a> {
    reviewer: &'a str,
    csrf_token: &'a str,
    q: &'a str,
    status: &'a str,
    statuses: &'static [ProfileStatus],
    rows: Vec<Row>,
    page: i64,
    pages: i64,
    total: i64,
    found: i64,
    /// The search, as query parameters for the paging links (already encoded).
    search: String,
}

pub(super) async fn list(
    state: State,
    Reviewer { session, .. }: Reviewer,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, DashboardError> {
    let page = query.page.unwrap_or(1).max(1);
    let window = Page::new((page - 1).saturating_mul(PER_PAGE), PER_PAGE)
        .map_err(|_| DashboardError::NotFound)?;
    let filter = ProfileFilter {
        text: query.q.clone(),
        status: query.status.as_deref().and_then(|s| s.parse().ok()),
    };
    let q = query.q.as_deref().unwrap_or_default().trim();
    let status = filter.status.map_or("", |s| s.as_str());
    let search = serde_urlencoded::to_string([("q", q), ("status", status)]).unwrap_or_default();
    let paged = state
        .profiles
        .search(&session.merchant_id, &filter, window)
        .await?;
    Ok(html(
        StatusCode::OK,
        &ProfilesPage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            q,
            status,
            statuses: ProfileStatus::ALL,
            rows: paged.items.iter().map(row).collect(),
            page,
            pages: ((paged.filtered + PER_PAGE - 1) / PER_PAGE).max(1),
            total: paged.total_count,
            found: paged.filtered,
            search,
        },
    ))
}

fn row(p: &Profile) -> Row {
    Row {
        id: p.id.as_str().to_owned(),
        name: p.full_name(),
        email: p.key.email.as_str().to_owned(),
        mobile: p.key.mobile.as_str().to_owned(),
        status: p.status.as_str(),
    }
}
