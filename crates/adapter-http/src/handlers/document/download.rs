use actix_web::HttpResponse;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};

use actix_web::web::Bytes;
use domain::DomainError;
use domain::ids::FileId;
use domain::ports::FileDownload;

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
    let (file, mut download) = state
        .documents
        .download(&req.merchant, &key, &id, &file_id)
        .await?;
    // The first piece is read before answering, so a file that cannot be read is a clean
    // error answer rather than a 200 cut short.
    let first = download
        .next()
        .await
        .map_err(|e| ApiError::from(DomainError::from(e)))?;
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, file.file_type.mime()))
        .insert_header((
            CONTENT_DISPOSITION,
            format!("attachment; filename=\"{}\"", header_name(&file.file_name)),
        ))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header((CACHE_CONTROL, "no-store"))
        .streaming(pieces(first, download)))
}

/// The file's pieces as a response body, `first` already read. A piece that fails to
/// read or open ends the body with an error: the client sees a broken download, never
/// bytes that were not checked.
fn pieces(
    first: Option<Vec<u8>>,
    download: Box<dyn FileDownload>,
) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> {
    let state = Some((first.map(Bytes::from), download));
    futures_util::stream::unfold(state, |state| async move {
        let (ready, mut download) = state?;
        if let Some(piece) = ready {
            return Some((Ok(piece), Some((None, download))));
        }
        match download.next().await {
            Ok(Some(piece)) => Some((Ok(Bytes::from(piece)), Some((None, download)))),
            Ok(None) => None,
            Err(e) => {
                tracing::error!(error = %e, "a stored file could not be read to the end");
                Some((Err(std::io::Error::other("stored file unreadable")), None))
            }
        }
    })
}
