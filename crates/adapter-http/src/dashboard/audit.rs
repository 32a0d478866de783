//! The audit trail, for admins (contract §16): who signed in, failed or was locked out,
//! changed keys, users or settings, and which profiles and files were viewed. A reviewer
//! is refused: the trail says what colleagues looked at.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

use super::{Admin, DashboardError, Reviewer};
use crate::pages::html;
use crate::state::State;
use crate::timefmt::rfc3339;

/// The newest entries shown; `idv audit` prints them all.
const SHOWN: usize = 200;

struct Row {
    at: String,
    who: String,
    action: &'static str,
    subject: String,
    address: String,
}

#[derive(Template)]
#[template(path = "dashboard/audit.html")]
struct AuditPage<'a> {
    reviewer: &'a str,
    csrf_token: &'a str,
    rows: Vec<Row>,
    shown: usize,
}

/// `GET /dashboard/audit`: the newest entries of the merchant's trail, newest first.
pub(super) async fn list(
    state: State,
    Admin(Reviewer { session, .. }): Admin,
) -> Result<HttpResponse, DashboardError> {
    let entries = state.audit.latest(&session.merchant_id, SHOWN).await?;
    Ok(html(
        StatusCode::OK,
        &AuditPage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            shown: SHOWN,
            rows: entries
                .into_iter()
                .map(|e| Row {
                    at: rfc3339(e.at),
                    who: e.auditor.name().into_owned(),
                    action: e.action.as_str(),
                    subject: e.subject,
                    address: e.address,
                })
                .collect(),
        },
    ))
}
