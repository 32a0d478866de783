//! The merchant's stored templates, each with how it asks for the 22 steps. Templates are
//! made and changed through the API (`template/create`, `template/update`).

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template as Page;
use domain::paging::Page as Paging;
use domain::template::{Feature, Requirement, Template};

use super::{DashboardError, Reviewer};
use crate::pages::html;
use crate::state::State;
use crate::timefmt::rfc3339;

/// The newest templates shown.
const SHOWN: i64 = 100;

struct StepRow {
    label: &'static str,
    name: &'static str,
    requirement: &'static str,
}

struct TemplateCard {
    id: String,
    name: String,
    updated_at: String,
    steps: Vec<StepRow>,
}

#[derive(Page)]
#[template(path = "dashboard/templates.html")]
struct TemplatesPage<'a> {
    reviewer: &'a str,
    csrf_token: &'a str,
    templates: Vec<TemplateCard>,
    total: i64,
}

/// `GET /dashboard/templates`.
pub(super) async fn list(
    state: State,
    Reviewer { session, .. }: Reviewer,
) -> Result<HttpResponse, DashboardError> {
    let page = Paging::new(0, SHOWN).unwrap_or_default();
    let templates = state.templates.list(&session.merchant_id, page).await?;
    Ok(html(
        StatusCode::OK,
        &TemplatesPage {
            reviewer: session.email.as_str(),
            csrf_token: &session.csrf_token,
            total: templates.total_count,
            templates: templates.items.iter().map(card).collect(),
        },
    ))
}

fn card(t: &Template) -> TemplateCard {
    TemplateCard {
        id: t.id.to_string(),
        name: t.name.clone(),
        updated_at: rfc3339(t.updated_at),
        steps: Feature::ALL
            .iter()
            .map(|&step| StepRow {
                label: step.label(),
                name: step.name(),
                requirement: match t.list.get(step) {
                    Requirement::Required => "Required",
                    Requirement::Optional => "Optional",
                    Requirement::NotRequired => "Not required",
                },
            })
            .collect(),
    }
}
