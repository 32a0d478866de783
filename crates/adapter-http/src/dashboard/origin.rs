//! The `Origin` check of every dashboard post (contract §16): a browser names the site a
//! form was sent from; a post that names another site is refused before any handler runs,
//! so no route can forget it. A post without `Origin` (an older browser, a script) relies
//! on the CSRF token alone.

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HOST, ORIGIN};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web;

use super::DashboardSettings;
use super::error::message;

/// Whether `origin` is the public address's, or the one of the address the request was
/// sent to (`Host`, over the connection's scheme).
fn acceptable(origin: &str, req: &ServiceRequest) -> bool {
    let public = req
        .app_data::<web::Data<DashboardSettings>>()
        .map(|s| s.public_origin.as_str());
    if public.is_some_and(|public| public.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let scheme = req.connection_info().scheme().to_owned();
    req.headers()
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|host| origin.eq_ignore_ascii_case(&format!("{scheme}://{host}")))
}

pub(super) async fn same_origin_posts(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let foreign = req.method() == Method::POST
        && req
            .headers()
            .get(ORIGIN)
            .is_some_and(|origin| !origin.to_str().is_ok_and(|o| acceptable(o, &req)));
    if foreign {
        let refused = message(
            StatusCode::FORBIDDEN,
            "Refused",
            "This form was sent from another site. Open the dashboard at its own address and try again.",
        );
        return Ok(req.into_response(refused).map_into_right_body());
    }
    Ok(next.call(req).await?.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::{TestRequest, call_service, init_service};
    use actix_web::{App, HttpResponse};

    async fn status_of(origin: Option<&str>, method: Method) -> StatusCode {
        let app = init_service(
            App::new()
                .app_data(web::Data::new(DashboardSettings {
                    secure_cookies: true,
                    public_origin: "https://idv.example.com".into(),
                }))
                .wrap(from_fn(same_origin_posts))
                .default_service(web::to(HttpResponse::Ok)),
        )
        .await;
        let mut req = TestRequest::default()
            .method(method)
            .insert_header((HOST, "127.0.0.1:8080"));
        if let Some(origin) = origin {
            req = req.insert_header((ORIGIN, origin));
        }
        call_service(&app, req.to_request()).await.status()
    }

    use actix_web::middleware::from_fn;

    #[actix_web::test]
    async fn posts_from_another_site_are_refused_and_the_rest_pass() {
        let cases = [
            (Some("https://idv.example.com"), StatusCode::OK),
            (Some("HTTPS://IDV.EXAMPLE.COM"), StatusCode::OK),
            (Some("http://127.0.0.1:8080"), StatusCode::OK),
            (None, StatusCode::OK),
            (Some("https://evil.example"), StatusCode::FORBIDDEN),
            (Some("null"), StatusCode::FORBIDDEN),
            (Some("http://idv.example.com"), StatusCode::FORBIDDEN),
            (
                Some("https://idv.example.com.evil.example"),
                StatusCode::FORBIDDEN,
            ),
        ];
        for (origin, expected) in cases {
            assert_eq!(
                status_of(origin, Method::POST).await,
                expected,
                "{origin:?}"
            );
        }
        assert_eq!(
            status_of(Some("https://evil.example"), Method::GET).await,
            StatusCode::OK,
            "only posts change anything"
        );
    }
}
