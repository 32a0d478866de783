//! Who reaches a dashboard handler, and how a dashboard post is checked (contract §16).
//! A handler names what it needs as an extractor, and gets it or never runs:
//!
//! - `Reviewer`: a live session behind the `idv_session` cookie; else on to sign in.
//! - `Admin`: a reviewer whose role is admin; else the 403 page.
//! - `Posted<T>`: a form post by a reviewer that carries their session's CSRF token
//!   (compared in constant time); else to sign in, or the 403 page. It yields the
//!   reviewer and the form `T`, whose fields are read beside `csrf_token`.
//! - `AdminPosted<T>`: the same, by an admin.
//!
//! Before any of these, `origin.rs` refuses a post whose `Origin` names another site. The
//! sign-in form (`login.rs`) has no session yet: it checks its own token. The e2e guard
//! walks the route table (`routes.rs`) and checks each address does as its table says.

use std::net::IpAddr;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use domain::services::Initiator;
use domain::session::{Session, SessionToken};
use futures_util::future::LocalBoxFuture;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::SESSION_COOKIE;
use super::error::DashboardError;
use crate::edge::client_addr::client_ip;
use crate::state::State;

/// A signed-in reviewer (of either role), as a page sees them.
pub(crate) struct Reviewer {
    pub token: SessionToken,
    pub session: Session,
    /// The client address the request came from.
    pub address: IpAddr,
}

impl Reviewer {
    /// Who acts through this session, and from where, for the audit trail.
    pub fn initiator(&self) -> Initiator {
        Initiator {
            auditor: self.session.auditor(),
            address: self.address.to_string(),
        }
    }

    /// The reviewer behind the request's cookie.
    async fn of(req: HttpRequest) -> Result<Self, DashboardError> {
        let state = req
            .app_data::<State>()
            .ok_or_else(|| DashboardError::Internal("no services to check a session".into()))?;
        let cookie = req.cookie(SESSION_COOKIE).ok_or(DashboardError::SignIn)?;
        let token = SessionToken::new(cookie.value());
        let session = state
            .sign_in
            .session(&token)
            .await?
            .ok_or(DashboardError::SignIn)?;
        Ok(Self {
            token,
            session,
            address: client_ip(&req),
        })
    }

    fn admin(self) -> Result<Self, DashboardError> {
        if self.session.role.is_admin() {
            Ok(self)
        } else {
            Err(DashboardError::AdminOnly)
        }
    }
}

impl FromRequest for Reviewer {
    type Error = DashboardError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        Box::pin(Self::of(req.clone()))
    }
}

/// A signed-in admin of the merchant.
pub(crate) struct Admin(pub Reviewer);

impl FromRequest for Admin {
    type Error = DashboardError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let reviewer = Reviewer::of(req.clone());
        Box::pin(async move { reviewer.await?.admin().map(Self) })
    }
}

/// Whether a token sent with a form is the one expected. Their digests are compared, so
/// the comparison's timing tells nothing about the token.
pub(super) fn same_token(expected: &str, sent: &str) -> bool {
    let digest = |text: &str| ring::digest::digest(&ring::digest::SHA256, text.as_bytes());
    digest(expected).as_ref() == digest(sent).as_ref()
}

/// A form's fields and the CSRF token beside them. The form's own fields are read as
/// text (a form field is text; a handler parses what it needs).
#[derive(Deserialize)]
struct WithToken<T> {
    #[serde(default)]
    csrf_token: String,
    #[serde(flatten)]
    form: T,
}

/// A form post by a signed-in reviewer, with their session's CSRF token.
pub(crate) struct Posted<T> {
    pub reviewer: Reviewer,
    pub form: T,
}

/// Its error is actix's, not only a `DashboardError`: a body that cannot be read as a
/// form (too large, another type) is answered as any such body is.
impl<T: DeserializeOwned + 'static> FromRequest for Posted<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    /// The session is looked up first: a stranger's body is not read.
    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let reviewer = Reviewer::of(req.clone());
        let form = web::Form::<WithToken<T>>::from_request(req, payload);
        Box::pin(async move {
            let reviewer = reviewer.await?;
            let web::Form(sent) = form.await?;
            if !same_token(&reviewer.session.csrf_token, &sent.csrf_token) {
                return Err(DashboardError::TokenRefused.into());
            }
            Ok(Self {
                reviewer,
                form: sent.form,
            })
        })
    }
}

/// A form post by a signed-in admin, with their session's CSRF token: a reviewer's is
/// refused and changes nothing.
pub(crate) struct AdminPosted<T>(pub Posted<T>);

impl<T: DeserializeOwned + 'static> FromRequest for AdminPosted<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let posted = Posted::<T>::from_request(req, payload);
        Box::pin(async move {
            let Posted { reviewer, form } = posted.await?;
            Ok(Self(Posted {
                reviewer: reviewer.admin()?,
                form,
            }))
        })
    }
}

/// A form whose only field is the CSRF token (a button that changes something).
#[derive(Deserialize)]
pub(crate) struct Button {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Note {
        #[serde(default)]
        note: String,
    }

    #[test]
    fn the_token_is_read_beside_the_forms_own_fields() {
        let sent: WithToken<Note> =
            serde_urlencoded::from_str("note=a%20b&csrf_token=t0k&other=x").expect("read");
        assert_eq!(sent.csrf_token, "t0k");
        assert_eq!(sent.form.note, "a b");
        let bare: WithToken<Note> = serde_urlencoded::from_str("").expect("read");
        assert_eq!(
            (bare.csrf_token.as_str(), bare.form.note.as_str()),
            ("", "")
        );
        let _: WithToken<Button> = serde_urlencoded::from_str("csrf_token=t").expect("a button");
    }

    #[test]
    fn tokens_are_compared_whole() {
        assert!(same_token("abc", "abc"));
        assert!(!same_token("abc", "abd"));
        assert!(!same_token("abc", ""));
        assert!(!same_token("abc", "abcd"));
    }
}
