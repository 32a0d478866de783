//! Documents: what a client handed in through a quiz step, and the merchant's verdict.

use time::OffsetDateTime;

use crate::ids::{DocumentId, FileId, QuizId};
use crate::merchant::MerchantId;
use crate::profile::ProfileId;
use crate::statuses::review_status;
use crate::template::Feature;

review_status!(
    /// The merchant's verdict on a document. Any status may follow any other.
    DocumentStatus,
    "must be Pending, Reviewed, Approved or Declined",
    [Pending, Reviewed, Approved, Declined]
);

/// The file types a client may upload, recognised by their bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileType {
    Jpeg,
    Png,
    Pdf,
}

impl FileType {
    pub fn from_mime(mime: &str) -> Option<Self> {
        match mime {
            "image/jpeg" => Some(Self::Jpeg),
            "image/png" => Some(Self::Png),
            "application/pdf" => Some(Self::Pdf),
            _ => None,
        }
    }

    pub fn mime(&self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::Pdf => "application/pdf",
        }
    }
}

/// Limits on one upload step.
pub const MAX_FILES_PER_UPLOAD: usize = 4;
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;

/// One stored file of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    pub file_id: FileId,
    /// The client's file name, sanitised.
    pub file_name: String,
    pub file_type: FileType,
    pub size_bytes: u64,
    /// Lowercase hex SHA-256 of the bytes.
    pub sha256: String,
}

/// What a document holds, by the kind of step that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Evidence {
    Files(Vec<StoredFile>),
    Agreement {
        signed_name: String,
        signed_at: OffsetDateTime,
    },
    Fingerprint {
        fingerprint: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub id: DocumentId,
    pub merchant_id: MerchantId,
    pub profile_id: ProfileId,
    pub quiz_id: QuizId,
    /// The step it answers (the interface's document `name`, e.g. `passport_upload`).
    pub step: Feature,
    pub status: DocumentStatus,
    pub evidence: Evidence,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

impl Document {
    pub fn files(&self) -> &[StoredFile] {
        match &self.evidence {
            Evidence::Files(files) => files,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_statuses_parse_in_any_case() {
        assert_eq!("reviewed".parse(), Ok(DocumentStatus::Reviewed));
        assert_eq!(
            "DECLINED".parse::<DocumentStatus>().map(|s| s.to_string()),
            Ok("Declined".into())
        );
        assert!("Done".parse::<DocumentStatus>().is_err());
    }

    #[test]
    fn only_jpeg_png_and_pdf_are_accepted() {
        assert_eq!(FileType::from_mime("image/png"), Some(FileType::Png));
        assert_eq!(FileType::from_mime("image/gif"), None);
        assert_eq!(FileType::Pdf.mime(), "application/pdf");
    }
}
