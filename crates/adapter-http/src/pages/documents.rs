//! `POST /quiz/{token}/documents`: the link and the quiz's room for more are checked
//! before the body is read; then each file is streamed to the store as it arrives
//! (sealed there), hashed and sniffed on the way, never held whole in memory. Every byte
//! of the body counts against its limit, whatever part it belongs to, and a form has at
//! most `MAX_PARTS` parts.

use domain::error::Report;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use actix_multipart::{Field, Multipart};
use actix_web::error::PayloadError;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use domain::document::{FileType, MAX_FILE_BYTES, Side};
use domain::ids::FileId;
use domain::ports::FileUpload;
use domain::quiz::QuizLink;
use domain::services::IncomingFile;
use domain::template::Feature;
use futures_util::{Stream, StreamExt};
use ring::digest;

use super::MAX_UPLOAD_BYTES;
use super::respond::{DocumentMade, after_post, api_error, back_to_page, redirect_to, wants_json};
use super::sniff::{HEAD_BYTES, Tail, sniff};
use super::view::Uploaded;
use crate::edge::body;
use crate::error::ApiError;
use crate::state::State;

/// Longest file name kept, in characters (before the extension).
const MAX_FILE_NAME: usize = 100;

/// The longest an upload's answer waits for its images' judgement (0.2 s on a quiet
/// machine). The analysis waits for a spare core rather than give up on a good photo, so
/// on a machine kept busy by other programs the client is answered without the judgement
/// after this, and the verification judges the images when a core is free.
const QUALITY_TIME: std::time::Duration = std::time::Duration::from_secs(10);
/// Bytes gathered before they are hashed and handed to the store, off the async workers.
const BATCH_BYTES: usize = 256 * 1024;
/// Longest `step` value read.
const MAX_STEP_BYTES: usize = 1024;
/// Parts a form may have: a `step` and four files leave room for a few a browser adds.
const MAX_PARTS: usize = 10;

/// No folders, no reserved, control or bidirectional characters (which can make
/// `gpj.exe` read as `exe.jpg`), no leading dots, at most 100 characters, and the
/// extension of the type the bytes really are.
fn clean_name(raw: &str, file_type: Option<FileType>) -> String {
    let sanitised = sanitize_filename::sanitize(raw);
    let visible: String = sanitised
        .chars()
        .filter(|c| !c.is_control() && !is_bidi_control(*c))
        .collect();
    let visible = visible.trim_start_matches('.');
    let stem = match visible.rsplit_once('.') {
        Some((stem, _)) if file_type.is_some() => stem.to_owned(),
        _ => visible.to_owned(),
    };
    let stem: String = stem.trim().chars().take(MAX_FILE_NAME).collect();
    let stem = if stem.trim_matches('.').is_empty() {
        "file".to_owned()
    } else {
        stem
    };
    match file_type {
        Some(t) => format!("{stem}.{}", extension(t)),
        None => stem,
    }
}

fn extension(file_type: FileType) -> &'static str {
    match file_type {
        FileType::Jpeg => "jpg",
        FileType::Png => "png",
        FileType::Pdf => "pdf",
    }
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
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

fn limit_reached() -> ApiError {
    api_error(domain::DomainError::UploadLimitReached)
}

fn too_many_parts() -> ApiError {
    ApiError::new(
        actix_web::http::StatusCode::PAYLOAD_TOO_LARGE,
        "REQUEST_TOO_LARGE",
        format!("The form has more than {MAX_PARTS} parts."),
    )
}

/// The body as it arrives, ended in an error once it passes `MAX_UPLOAD_BYTES`: part
/// headers, boundaries and parts this route ignores count like file bytes, so a form of
/// many small parts is bounded like one large file.
fn capped(
    body: impl Stream<Item = Result<Bytes, PayloadError>>,
) -> (impl Stream<Item = Result<Bytes, PayloadError>>, Oversize) {
    let oversize = Oversize(Arc::new(AtomicBool::new(false)));
    let flag = oversize.clone();
    let mut total = 0usize;
    let stream = body.map(move |chunk| {
        let chunk = chunk?;
        total += chunk.len();
        if total > MAX_UPLOAD_BYTES {
            flag.0.store(true, Ordering::SeqCst);
            return Err(PayloadError::Overflow);
        }
        Ok(chunk)
    });
    (stream, oversize)
}

/// Whether a capped body passed its limit.
#[derive(Debug, Clone)]
struct Oversize(Arc<AtomicBool>);

impl Oversize {
    /// 413 if the body passed its limit, else the error as it is (the multipart parser
    /// wraps the errors of its input).
    fn explain(&self, error: ApiError) -> ApiError {
        if self.0.load(Ordering::SeqCst) {
            body::too_large(MAX_UPLOAD_BYTES)
        } else {
            error
        }
    }
}

/// One file part on its way to the store.
struct Intake {
    file_id: FileId,
    /// `None` once the file passed 10 MiB: its bytes are no longer stored.
    upload: Option<Box<dyn FileUpload>>,
    hash: digest::Context,
    head: Vec<u8>,
    tail: Tail,
    batch: Vec<u8>,
    size: u64,
}

impl Intake {
    async fn take(&mut self, chunk: &[u8]) -> Result<(), ApiError> {
        self.size += chunk.len() as u64;
        if self.size > MAX_FILE_BYTES as u64 {
            if let Some(upload) = self.upload.take() {
                upload.abort().await;
            }
            return Ok(());
        }
        if self.head.len() < HEAD_BYTES {
            let room = HEAD_BYTES - self.head.len();
            self.head.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        self.tail.push(chunk);
        self.batch.extend_from_slice(chunk);
        if self.batch.len() >= BATCH_BYTES {
            self.flush().await?;
        }
        Ok(())
    }

    /// Hashes the batch off the async workers, then hands it to the store.
    async fn flush(&mut self) -> Result<(), ApiError> {
        let Some(upload) = self.upload.as_mut() else {
            return Ok(());
        };
        let batch = std::mem::take(&mut self.batch);
        let mut hash = std::mem::replace(&mut self.hash, digest::Context::new(&digest::SHA256));
        let (hash, batch) = web::block(move || {
            hash.update(&batch);
            (hash, batch)
        })
        .await
        .map_err(|e| ApiError::internal(format!("hashing failed: {e}")))?;
        self.hash = hash;
        upload.write(batch).await.map_err(|e| api_error(e.into()))
    }

    /// The file as received; stored whole unless it was too large.
    async fn finish(mut self, raw_name: &str) -> Result<IncomingFile, (FileId, ApiError)> {
        if let Err(e) = self.flush().await {
            return Err((self.file_id, e));
        }
        let sniffed = sniff(&self.head, self.tail.bytes());
        let file_type = sniffed.map(|s| s.file_type);
        if let Some(upload) = self.upload.take()
            && let Err(e) = upload.finish().await
        {
            return Err((self.file_id, api_error(e.into())));
        }
        Ok(IncomingFile {
            file_id: self.file_id,
            file_name: clean_name(raw_name, file_type),
            file_type,
            pixels: sniffed.and_then(|s| s.pixels),
            sha256: hex::encode(self.hash.finish()),
            size_bytes: self.size,
        })
    }

    async fn abort(self) -> FileId {
        if let Some(upload) = self.upload {
            upload.abort().await;
        }
        self.file_id
    }
}

/// What the form holds: the step and the files, already in the store.
#[derive(Default)]
struct Received {
    step: Option<String>,
    side: Option<String>,
    files: Vec<IncomingFile>,
    /// Bytes of the files so far, against the quiz's room.
    file_bytes: u64,
}

impl Received {
    fn file_ids(&self) -> Vec<FileId> {
        self.files.iter().map(|f| f.file_id.clone()).collect()
    }
}

/// A short text part (`step`, `side`), trimmed; longer than any valid value is `invalid`.
async fn read_text(field: &mut Field, invalid: impl Fn() -> ApiError) -> Result<String, ApiError> {
    let mut text = Vec::new();
    while let Some(chunk) = field.next().await {
        let chunk = chunk.map_err(unreadable)?;
        if text.len() + chunk.len() > MAX_STEP_BYTES {
            return Err(invalid());
        }
        text.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&text).trim().to_owned())
}

fn side_invalid() -> ApiError {
    invalid("side", "must be front or back")
}

/// The side named, if any: `front` or `back` (an empty field names none).
fn parse_side(text: Option<&str>) -> Result<Option<Side>, ApiError> {
    match text.filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(text) => Side::parse(text).map(Some).ok_or_else(side_invalid),
    }
}

/// The first bytes of a part, or `None` when it has none.
async fn first_bytes(field: &mut Field) -> Result<Option<Bytes>, ApiError> {
    while let Some(chunk) = field.next().await {
        let chunk = chunk.map_err(unreadable)?;
        if !chunk.is_empty() {
            return Ok(Some(chunk));
        }
    }
    Ok(None)
}

async fn read_file(
    state: &State,
    field: &mut Field,
    received: &mut Received,
    room: u64,
) -> Result<(), (Option<FileId>, ApiError)> {
    // An empty file input ("no file chosen") is no file: the store is not even asked
    // for one, so it leaves no file or folder behind.
    let Some(first) = first_bytes(field).await.map_err(|e| (None, e))? else {
        return Ok(());
    };
    let raw_name = field
        .content_disposition()
        .and_then(|cd| cd.get_filename())
        .unwrap_or("file")
        .to_owned();
    let (file_id, upload) = state
        .client
        .begin_file()
        .await
        .map_err(|e| (None, api_error(e)))?;
    let mut intake = Intake {
        file_id,
        upload: Some(upload),
        hash: digest::Context::new(&digest::SHA256),
        head: Vec::new(),
        tail: Tail::default(),
        batch: Vec::new(),
        size: 0,
    };
    let mut chunks = futures_util::stream::iter([Ok(first)]).chain(field);
    while let Some(chunk) = chunks.next().await {
        let problem = match chunk {
            Err(e) => Some(unreadable(e)),
            Ok(chunk) => {
                received.file_bytes += chunk.len() as u64;
                if received.file_bytes > room {
                    Some(limit_reached())
                } else {
                    intake.take(&chunk).await.err()
                }
            }
        };
        if let Some(problem) = problem {
            return Err((Some(intake.abort().await), problem));
        }
    }
    let file = intake
        .finish(&raw_name)
        .await
        .map_err(|(id, e)| (Some(id), e))?;
    received.files.push(file);
    Ok(())
}

/// Reads the form, storing each file as it comes. On any failure every file of the form
/// is removed again before the error is returned.
async fn receive(state: &State, mut form: Multipart, room: u64) -> Result<Received, ApiError> {
    let mut received = Received::default();
    let mut parts = 0;
    while let Some(field) = form.next().await {
        parts += 1;
        let outcome = match field {
            Err(e) => Err((None, unreadable(e))),
            Ok(_) if parts > MAX_PARTS => Err((None, too_many_parts())),
            Ok(mut field) => match field.name().unwrap_or_default() {
                "step" => read_text(&mut field, || invalid("step", "is not a step of this quiz"))
                    .await
                    .map(|text| received.step = Some(text))
                    .map_err(|e| (None, e)),
                "side" => read_text(&mut field, side_invalid)
                    .await
                    .map(|text| received.side = Some(text))
                    .map_err(|e| (None, e)),
                "file" => read_file(state, &mut field, &mut received, room).await,
                _ => Ok(()),
            },
        };
        if let Err((partial, error)) = outcome {
            let mut ids = received.file_ids();
            ids.extend(partial);
            state.client.discard_files(&ids).await;
            return Err(error);
        }
    }
    Ok(received)
}

/// `POST /quiz/{token}/documents`: multipart `step` and 1 to 4 `file`s.
pub async fn handle(
    state: State,
    req: HttpRequest,
    token: web::Path<String>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let link = QuizLink::Token(token.into_inner().into());
    let result = async {
        let room = state.client.upload_room(&link).await.map_err(api_error)?;
        let (stream, oversize) = capped(payload.into_inner());
        let form = Multipart::new(req.headers(), stream);
        let received = receive(&state, form, room)
            .await
            .map_err(|e| oversize.explain(e))?;
        let step = match received.step.as_deref().filter(|s| !s.is_empty()) {
            Some(step) => Feature::from_name(step)
                .ok_or_else(|| invalid("step", "is not a step of this quiz")),
            None => Err(ApiError::bad_request("STEP_REQUIRED", "step is required.")),
        };
        let chosen = step.and_then(|step| Ok((step, parse_side(received.side.as_deref())?)));
        let (step, side) = match chosen {
            Ok(chosen) => chosen,
            Err(e) => {
                state.client.discard_files(&received.file_ids()).await;
                return Err(e);
            }
        };
        let document = state
            .client
            .upload(&link, step, side, received.files)
            .await
            .map_err(api_error)?;
        // The document is stored: a store that cannot give its files back now costs the
        // answer its quality, never the upload (the verification judges them again).
        match actix_web::rt::time::timeout(QUALITY_TIME, state.client.quality(&document)).await {
            Ok(Ok(Some(issues))) => {
                let made = DocumentMade::uploaded(&document, &issues);
                Ok((made, Some(Uploaded { step, side, issues })))
            }
            Ok(Ok(None)) => {
                tracing::info!("upload stored, its quality not judged: no room in time");
                Ok((DocumentMade::of(&document), None))
            }
            Err(_) => {
                tracing::info!("upload stored, its quality not judged: the machine is busy");
                Ok((DocumentMade::of(&document), None))
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %Report(&e), "upload stored, its quality not judged");
                Ok((DocumentMade::of(&document), None))
            }
        }
    }
    .await;
    // A person is sent back to the form the photo came from, told there whether it is
    // usable (in their language: the page says it).
    if let Ok((_, Some(uploaded))) = &result
        && !wants_json(&req)
    {
        let back = back_to_page(&req, &link, &uploaded.query(), uploaded.step.name());
        return Ok(redirect_to(back));
    }
    after_post(&state, &req, &link, result.map(|(made, _)| made)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_lose_folders_controls_and_bidi_tricks_and_take_the_true_extension() {
        let jpeg = Some(FileType::Jpeg);
        assert_eq!(clean_name("../../etc/passwd", jpeg), "etcpasswd.jpg");
        assert_eq!(clean_name("scan\u{202E}gpj.exe", jpeg), "scangpj.jpg");
        assert_eq!(clean_name("id\u{0007}card.png", jpeg), "idcard.jpg");
        assert_eq!(clean_name("report.pdf", Some(FileType::Pdf)), "report.pdf");
        assert_eq!(clean_name("...", jpeg), "file.jpg");
        assert_eq!(clean_name("notes.txt", None), "notes.txt");
        assert!(clean_name(&"a".repeat(300), jpeg).len() <= MAX_FILE_NAME + 4);
    }
}
