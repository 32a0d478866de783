use actix_web::HttpResponse;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};

use domain::ids::FileId;

use crate::dto::document::read_document_id;
use crate::dto::profile::read_key;
use crate::dto::requests::DownloadRequest;
use crate::error::ApiError;
use crate::fields::Fields;
use crate::handlers::State;
use crate::signed::Signed;

/// A file name safe inside a quoted header value.
fn header_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The bytes of one file of a document, as an attachment with its sniffed type.
#[utoipa::path(post, path = "/api/v1/document/download", tag = "documents",
    request_body = DownloadRequest,
    responses((status = 200, description = "The file's bytes, exactly as uploaded",
        content(("image/jpeg"), ("image/png"), ("application/pdf")))))]
pub async fn handle(state: State, req: Signed) -> Result<HttpResponse, ApiError> {
    let mut f = Fields::new(&req.body);
    let key = read_key(&mut f);
    let id = read_document_id(&mut f);
    let file_id = f.required_id("file_id", FileId::parse);
    let (key, id, file_id) = f.finish(|| Some((key?, id?, file_id?)))?;
    let (file, bytes) = state
        .documents
        .download(&req.merchant, &key, &id, &file_id)
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, file.file_type.mime()))
        .insert_header((
            CONTENT_DISPOSITION,
            format!("attachment; filename=\"{}\"", header_name(&file.file_name)),
        ))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header((CACHE_CONTROL, "no-store"))
        .body(bytes))
}
