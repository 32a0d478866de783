//! The profile list.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use domain::paging::Page;
use domain::profile::Profile;
use serde::Deserialize;

use super::{Reviewer, message, reviewer};
use crate::handlers::State;
use crate::pages::html;

/// Profiles per page.
const PER_PAGE: i64 = 25;

#[derive(Deserialize)]
pub(super) struct ListQuery {
    page: Option<i64>,
}

struct Row {
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
    rows: Vec<Row>,
    page: i64,
    pages: i64,
    total: i64,
}

pub(super) async fn list(
    state: State,
    req: HttpRequest,
    query: web::Query<ListQuery>,
) -> HttpResponse {
    let Reviewer { session, .. } = match reviewer(&state, &req).await {
        Ok(r) => r,
        Err(answer) => return answer,
    };
    let page = query.page.unwrap_or(1).max(1);
    let Ok(window) = Page::new((page - 1).saturating_mul(PER_PAGE), PER_PAGE) else {
        return message(StatusCode::BAD_REQUEST, "Not found", "No such page.");
    };
    match state.profiles.list(&session.merchant_id, window).await {
        Ok(paged) => html(
            StatusCode::OK,
            &ProfilesPage {
                reviewer: session.email.as_str(),
                csrf_token: &session.csrf_token,
                rows: paged.items.iter().map(row).collect(),
                page,
                pages: (paged.total_count + PER_PAGE - 1) / PER_PAGE,
                total: paged.total_count,
            },
        ),
        Err(e) => {
            tracing::error!(error = %e, "profile list failed");
            message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Unavailable",
                "The service cannot be reached right now. Try again in a moment.",
            )
        }
    }
}

fn row(p: &Profile) -> Row {
    Row {
        name: p.full_name(),
        email: p.key.email.as_str().to_owned(),
        mobile: p.key.mobile.as_str().to_owned(),
        status: p.status.as_str(),
    }
}
