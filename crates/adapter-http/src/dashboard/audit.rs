//! The audit trail, for admins (contract §16): who signed in, failed or was locked out,
//! changed keys, users or settings, and which profiles and files were viewed. A reviewer
//! is refused: the trail says what colleagues looked at.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use askama::Template;

use super::{Reviewer, failed, message, reviewer};
use crate::handlers::State;
use crate::pages::html;
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
pub(super) async fn list(state: State, req: HttpRequest) -> HttpResponse {
    let Reviewer { session, .. } = match reviewer(&state, &req).await {
        Ok(r) => r,
        Err(answer) => return answer,
    };
    if !session.role.is_admin() {
        return message(
            StatusCode::FORBIDDEN,
            "Refused",
            "Only an admin of this merchant may read the audit trail.",
        );
    }
    let entries = match state.audit.latest(&session.merchant_id, SHOWN).await {
        Ok(entries) => entries,
        Err(e) => return failed(e),
    };
    html(
        StatusCode::OK,
        &AuditPage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            shown: SHOWN,
            rows: entries
                .into_iter()
                .map(|e| Row {
                    at: rfc3339(e.at),
                    who: e.auditor.name().to_owned(),
                    action: e.action.as_str(),
                    subject: e.subject,
                    address: e.address,
                })
                .collect(),
        },
    )
}
