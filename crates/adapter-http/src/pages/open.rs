use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, Responder, web};
use domain::quiz::{QuizLink, QuizState};

use super::locale::Locale;
use super::respond::{api_error, expired_page, not_found_page, quiz_page, thanks_page, wants_json};
use super::view::{SessionJson, Uploaded};
use crate::envelope::Reply;
use crate::error::ApiError;
use crate::state::State;

/// `GET /q/{code}`: the short address sends the browser on to the long one.
pub async fn short(
    state: State,
    req: HttpRequest,
    code: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    match state
        .client
        .find_links(&QuizLink::Code(code.into_inner().into()))
        .await
    {
        // A language the short link chose goes on with the client.
        Ok(links) => Ok(redirect_found(links.long_url + &Locale::kept_by_link(&req))),
        Err(e) if wants_json(&req) => Err(api_error(e)),
        Err(_) => Ok(not_found_page(&req)),
    }
}

fn redirect_found(location: String) -> HttpResponse {
    HttpResponse::Found()
        .insert_header((actix_web::http::header::LOCATION, location))
        .finish()
}

/// `GET /quiz/{token}`: the quiz page, or what became of the quiz. After an upload the
/// page says, at the form it came from, whether its photo is usable.
pub async fn page(
    state: State,
    req: HttpRequest,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let link = QuizLink::Token(token.into_inner().into());
    let session = match state.client.open(&link).await {
        Ok(session) => session,
        Err(e) if wants_json(&req) => return Err(api_error(e)),
        Err(_) => return Ok(not_found_page(&req)),
    };
    if wants_json(&req) {
        if session.state == QuizState::Expired {
            return Err(api_error(domain::DomainError::QuizExpired));
        }
        return Ok(Reply::ok(SessionJson::of(&session)).respond_to(&req));
    }
    Ok(match session.state {
        QuizState::Active => {
            let uploaded = Uploaded::from_query(req.query_string());
            quiz_page(StatusCode::OK, &req, &session, None, uploaded.as_ref())
        }
        QuizState::Submitted => thanks_page(&req, &session),
        QuizState::Expired => expired_page(&req, session.merchant_language),
        QuizState::Deleted => not_found_page(&req),
    })
}
