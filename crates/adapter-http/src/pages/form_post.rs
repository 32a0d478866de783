//! A form step's post to a quiz (fields, agreement, fingerprint), taken by its handler as
//! one extractor and answered the same way for every step.

use std::marker::PhantomData;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use domain::quiz::QuizLink;
use futures_util::future::LocalBoxFuture;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{MAX_FORM_BYTES, fields, respond};
use crate::error::ApiError;
use crate::state::State;

/// A post of the step form `F` to the quiz at `{token}`. Nothing is read when it is
/// extracted: [`FormPost::submit`] checks the link first, so a post to a dead link is
/// answered at once, whatever its body.
pub(crate) struct FormPost<F> {
    state: State,
    req: HttpRequest,
    link: QuizLink,
    payload: Payload,
    form: PhantomData<F>,
}

impl<F> FromRequest for FormPost<F> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let (req, payload) = (req.clone(), payload.take());
        Box::pin(async move {
            let state = req
                .app_data::<State>()
                .cloned()
                .ok_or_else(|| ApiError::internal("ApiState is not registered"))?;
            // The token as `web::Path` decodes it, percent-escapes and all.
            let token = web::Path::<String>::extract(&req)
                .await
                .map_err(|_| ApiError::internal("a form post's route names no {token}"))?;
            Ok(Self {
                state,
                req,
                link: QuizLink::Token(token.into_inner().into()),
                payload,
                form: PhantomData,
            })
        })
    }
}

impl<F: DeserializeOwned> FormPost<F> {
    /// Checks the link and the quiz's state, reads the body (form-encoded or JSON) as `F`,
    /// makes it a `T` with every violation in one answer, and hands it to `submit`; what
    /// comes of it is answered as a page or as JSON ([`respond::after_post`]).
    pub async fn submit<T, R>(
        self,
        submit: impl AsyncFnOnce(&State, &QuizLink, T) -> Result<R, ApiError>,
    ) -> Result<HttpResponse, ApiError>
    where
        T: TryFrom<F, Error = ApiError>,
        R: Serialize,
    {
        let Self {
            state,
            req,
            link,
            payload,
            ..
        } = self;
        let read = async {
            state
                .client
                .ensure_active(&link)
                .await
                .map_err(respond::api_error)?;
            let body = crate::edge::body::read(payload, MAX_FORM_BYTES).await?;
            crate::fields::parse::<F, T>(&fields::form_or_json(&req, &body)?)
        };
        let result = match read.await {
            Ok(input) => submit(&state, &link, input).await,
            Err(e) => Err(e),
        };
        respond::after_post(&state, &req, &link, result).await
    }
}
