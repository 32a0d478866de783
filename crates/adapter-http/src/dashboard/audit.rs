//! The audit trail, for admins (contract §16): who signed in, failed or was locked out,
//! changed keys, users or settings, and which profiles and files were viewed. A reviewer
//! is refused: the trail says what colleagues looked at.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

use domain::audit::{AuditEntry, AuditKind};

use super::{Admin, DashboardError, Reviewer};
use crate::pages::html;
use crate::state::State;
use crate::timefmt::rfc3339;

/// The newest actions shown; `idv audit` prints them all.
const SHOWN: usize = 200;
/// The newest refused sign-ins shown, apart: strangers can make them by the thousand,
/// and they must never push the people's actions out of sight.
const REFUSALS_SHOWN: usize = 50;

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
    refusals: Vec<Row>,
    refusals_shown: usize,
}

impl Row {
    fn of(e: AuditEntry) -> Self {
        Self {
            at: rfc3339(e.at),
            who: e.auditor.name().into_owned(),
            action: e.action.as_str(),
            subject: e.subject,
            address: e.address,
        }
    }
}

/// `GET /dashboard/audit`: the newest entries of the merchant's trail, newest first.
pub(super) async fn list(
    state: State,
    Admin(Reviewer { session, .. }): Admin,
) -> Result<HttpResponse, DashboardError> {
    let merchant = &session.merchant_id;
    let actions = state.audit.latest(merchant, AuditKind::Actions, SHOWN);
    let refusals = state
        .audit
        .latest(merchant, AuditKind::Refusals, REFUSALS_SHOWN);
    Ok(html(
        StatusCode::OK,
        &AuditPage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            shown: SHOWN,
            rows: actions.await?.into_iter().map(Row::of).collect(),
            refusals_shown: REFUSALS_SHOWN,
            refusals: refusals.await?.into_iter().map(Row::of).collect(),
        },
    ))
}
