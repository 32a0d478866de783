use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use domain::document::{FileType, MAX_FILE_BYTES};
use domain::quiz::QuizLink;
use domain::services::IncomingFile;
use domain::template::Feature;
use futures_util::StreamExt;
use ring::digest;

use super::MAX_UPLOAD_BYTES;
use super::respond::{after_post, api_error, document_answer};
use crate::error::ApiError;
use crate::handlers::State;

/// Longest file name kept, in characters.
const MAX_FILE_NAME: usize = 100;

/// A file as read from the form. Bytes past the size limit are read and dropped, so the
/// client gets an answer instead of a reset connection; only the size is kept.
struct Part {
    file_name: String,
    bytes: Vec<u8>,
    size: usize,
}

/// No folders, no reserved or control characters, no leading dots (hidden files or what
/// remains of `../`), at most 100 characters.
fn clean_name(raw: &str) -> String {
    let name: String = sanitize_filename::sanitize(raw)
        .trim_start_matches('.')
        .chars()
        .take(MAX_FILE_NAME)
        .collect();
    if name.trim_matches('.').is_empty() {
        "file".to_owned()
    } else {
        name
    }
}

fn invalid(field: &str, reason: &str) -> ApiError {
    ApiError::bad_request(
        &format!("{}_INVALID", field.to_ascii_uppercase()),
        format!("{field} {reason}."),
    )
}

fn unreadable(e: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(
        "REQUEST_BODY_INVALID",
        format!("The form could not be read: {e}."),
    )
}

/// Reads the `step` and the `file` parts. Over `limit` bytes in all, it stops reading:
/// 413, as for any body too large.
async fn read_form(
    mut form: Multipart,
    limit: usize,
) -> Result<(Option<String>, Vec<Part>), ApiError> {
    let mut step = None;
    let mut files = Vec::new();
    let mut total = 0;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(unreadable)?;
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field
            .content_disposition()
            .and_then(|cd| cd.get_filename())
            .map(clean_name);
        let mut part = Part {
            file_name: file_name.unwrap_or_else(|| "file".to_owned()),
            bytes: Vec::new(),
            size: 0,
        };
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(unreadable)?;
            total += chunk.len();
            if total > limit {
                return Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "REQUEST_TOO_LARGE",
                    format!(
                        "An upload takes at most {} MiB in all.",
                        limit / (1024 * 1024)
                    ),
                ));
            }
            part.size += chunk.len();
            if part.size <= MAX_FILE_BYTES {
                part.bytes.extend_from_slice(&chunk);
            }
        }
        match name.as_str() {
            "step" => step = Some(String::from_utf8_lossy(&part.bytes).trim().to_owned()),
            "file" if part.size > 0 => files.push(part),
            _ => {}
        }
    }
    Ok((step, files))
}

fn incoming(part: Part) -> IncomingFile {
    let file_type = infer::get(&part.bytes).and_then(|kind| FileType::from_mime(kind.mime_type()));
    let sha256 = hex::encode(digest::digest(&digest::SHA256, &part.bytes));
    IncomingFile {
        file_name: part.file_name,
        file_type,
        sha256,
        size_bytes: part.size as u64,
        bytes: part.bytes,
    }
}

/// `POST /quiz/{token}/documents`: multipart `step` and 1 to 4 `file`s.
pub async fn handle(
    state: State,
    req: HttpRequest,
    token: web::Path<String>,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let link = QuizLink::Token(token.into_inner());
    let result = async {
        let (step, parts) = read_form(form, MAX_UPLOAD_BYTES).await?;
        let step = step
            .filter(|s| !s.is_empty())
            .ok_or_else(|| ApiError::bad_request("STEP_REQUIRED", "step is required."))?;
        let feature = Feature::from_name(&step)
            .ok_or_else(|| invalid("step", "is not a step of this quiz"))?;
        let files = parts.into_iter().map(incoming).collect();
        let document = state
            .client
            .upload(&link, feature, files)
            .await
            .map_err(api_error)?;
        Ok(document_answer(&document))
    }
    .await;
    after_post(&state, &req, &link, result).await
}
