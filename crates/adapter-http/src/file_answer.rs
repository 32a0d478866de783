//! A stored file as an HTTP answer, streamed piece by piece: the API's downloads and the
//! dashboard's document images share it.

use actix_web::HttpResponse;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use actix_web::web::Bytes;
use domain::document::StoredFile;
use domain::error::Report;
use domain::ports::{FileDownload, StoreError};

/// How a browser should treat the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Disposition {
    /// Saved under its name.
    Attachment,
    /// Shown in the page (an image of a document).
    Inline,
}

/// The answer carrying `file`. The first piece is read before answering, so a file that
/// cannot be read is a clean error rather than a 200 cut short. Never cached, never
/// sniffed into another type.
pub(crate) async fn file_answer(
    file: &StoredFile,
    mut download: Box<dyn FileDownload>,
    disposition: Disposition,
) -> Result<HttpResponse, StoreError> {
    let first = download.next().await?;
    let kind = match disposition {
        Disposition::Attachment => "attachment",
        Disposition::Inline => "inline",
    };
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, file.file_type.mime()))
        .insert_header((
            CONTENT_DISPOSITION,
            format!("{kind}; filename=\"{}\"", header_name(&file.file_name)),
        ))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header((CACHE_CONTROL, "no-store"))
        .streaming(pieces(first, download)))
}

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
                tracing::error!(error = %Report(&e), "a stored file could not be read to the end");
                Some((Err(std::io::Error::other("stored file unreadable")), None))
            }
        }
    })
}
