//! Documents: what a client handed in through a quiz step, and the merchant's verdict.

use strum::{EnumString, IntoStaticStr};
use time::OffsetDateTime;

use crate::ids::{DocumentId, FileId, QuizId};
use crate::merchant::MerchantId;
use crate::profile::ProfileId;
use crate::statuses::review_status;
use crate::template::Feature;
use crate::verification::DocumentRead;

review_status!(
    /// The merchant's verdict on a document. Any status may follow any other.
    DocumentStatus,
    "must be Pending, Reviewed, Approved or Declined",
    [Pending, Reviewed, Approved, Declined]
);

/// The file types a client may upload, recognised by their bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileType {
    /// A JPEG image.
    Jpeg,
    /// A PNG image.
    Png,
    /// A PDF document.
    Pdf,
}

impl FileType {
    /// The type of a MIME name, if it is one of the three.
    pub fn from_mime(mime: &str) -> Option<Self> {
        match mime {
            "image/jpeg" => Some(Self::Jpeg),
            "image/png" => Some(Self::Png),
            "application/pdf" => Some(Self::Pdf),
            _ => None,
        }
    }

    /// The type's MIME name.
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
/// Largest file one upload may carry: 10 MiB.
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
/// Most pixels an image may declare: 50 megapixels, beyond any scan or photo of a
/// document, and far below what would take a reviewer's browser (or any later decoder)
/// gigabytes to open.
pub const MAX_IMAGE_PIXELS: u64 = 50_000_000;

/// Which side of an ID a file shows (contract §14: a licence or another ID asks for each
/// side as its own upload).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, IntoStaticStr, EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum Side {
    /// The front: the portrait, the printed details.
    Front,
    /// The back: a licence's barcode.
    Back,
}

impl Side {
    /// Its name in the API and the upload form.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The side of this name.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// One stored file of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    /// Where its bytes are stored.
    pub file_id: FileId,
    /// The client's file name, sanitised.
    pub file_name: String,
    /// Its type, by its bytes.
    pub file_type: FileType,
    /// Its size in bytes, as sent.
    pub size_bytes: u64,
    /// Lowercase hex SHA-256 of the bytes.
    pub sha256: String,
    /// The side of the ID it shows, when the client said.
    pub side: Option<Side>,
}

/// What a document holds, by the kind of step that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Evidence {
    /// The files of an upload step.
    Files(Vec<StoredFile>),
    /// An `agreement_sign` step.
    Agreement {
        /// The full name typed as signature.
        signed_name: String,
        /// When it was signed.
        signed_at: OffsetDateTime,
    },
    /// A `device_finger_print` step.
    Fingerprint {
        /// The hash the page computed (64 hex characters).
        fingerprint: String,
    },
}

/// What a client handed in for one step of a quiz, and the merchant's verdict on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Its id (a ULID).
    pub id: DocumentId,
    /// The merchant that owns it.
    pub merchant_id: MerchantId,
    /// The profile it belongs to.
    pub profile_id: ProfileId,
    /// The quiz it was handed in through.
    pub quiz_id: QuizId,
    /// The step it answers (the interface's document `name`, e.g. `passport_upload`).
    pub step: Feature,
    /// The merchant's verdict.
    pub status: DocumentStatus,
    /// What it holds.
    pub evidence: Evidence,
    /// What the latest verification read from its images (sealed at rest like the
    /// evidence): one entry per source, none before a verification ran.
    pub read: Vec<DocumentRead>,
    /// When it was handed in.
    pub created_at: OffsetDateTime,
    /// When its status last changed.
    pub updated_at: OffsetDateTime,
}

impl Document {
    /// Forgets what the client handed in and what was read from it (retention, contract
    /// §15): the document stays, with its step, status and dates, holding nothing; its
    /// files' ids are returned for their bytes to be removed.
    pub fn erase_personal_data(&mut self) -> Vec<FileId> {
        let files = self.files().iter().map(|f| f.file_id.clone()).collect();
        self.evidence = Evidence::Files(Vec::new());
        self.read.clear();
        files
    }

    /// Its files (none for an agreement or a fingerprint).
    pub fn files(&self) -> &[StoredFile] {
        match &self.evidence {
            Evidence::Files(files) => files,
            _ => &[],
        }
    }

    /// The side of the ID its files show, when the upload named one (one upload, one side).
    pub fn side(&self) -> Option<Side> {
        self.files().first().and_then(|f| f.side)
    }

    /// Whether this upload takes the place of `earlier` (contract §14: a side of an ID
    /// uploaded again before the quiz is submitted replaces the one sent before). Only an
    /// upload that names its side replaces: other steps keep every upload, within the
    /// quiz's limits, as they always did.
    pub fn replaces(&self, earlier: &Document) -> bool {
        self.id != earlier.id
            && self.quiz_id == earlier.quiz_id
            && self.step == earlier.step
            && self.side().is_some()
            && self.side() == earlier.side()
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

    fn upload(id: &str, step: Feature, side: Option<Side>) -> Document {
        let at = OffsetDateTime::UNIX_EPOCH;
        let file = StoredFile {
            file_id: format!("F-{id}").into(),
            file_name: "id.jpg".into(),
            file_type: FileType::Jpeg,
            size_bytes: 1,
            sha256: "00".repeat(32),
            side,
        };
        Document {
            id: id.into(),
            merchant_id: MerchantId::new("m"),
            profile_id: ProfileId::new("p"),
            quiz_id: "q".into(),
            step,
            status: DocumentStatus::Pending,
            evidence: Evidence::Files(vec![file]),
            read: Vec::new(),
            created_at: at,
            updated_at: at,
        }
    }

    #[test]
    fn a_side_uploaded_again_replaces_the_same_side_of_the_same_step_only() {
        let licence = Feature::DriverLicenceUpload;
        let front = upload("d1", licence, Some(Side::Front));
        let again = upload("d2", licence, Some(Side::Front));
        assert!(again.replaces(&front));
        assert!(!again.replaces(&again), "not itself");
        assert!(!upload("d3", licence, Some(Side::Back)).replaces(&front));
        assert!(!upload("d4", Feature::OtherIdUpload, Some(Side::Front)).replaces(&front));
        let mut elsewhere = upload("d5", licence, Some(Side::Front));
        elsewhere.quiz_id = "q2".into();
        assert!(!elsewhere.replaces(&front), "another quiz's upload");
        let (passport, passport_again) = (
            upload("d6", Feature::PassportUpload, None),
            upload("d7", Feature::PassportUpload, None),
        );
        assert!(!passport_again.replaces(&passport), "no side, no replacing");
        assert!(!upload("d8", licence, None).replaces(&front));
    }

    #[test]
    fn only_jpeg_png_and_pdf_are_accepted() {
        assert_eq!(FileType::from_mime("image/png"), Some(FileType::Png));
        assert_eq!(FileType::from_mime("image/gif"), None);
        assert_eq!(FileType::Pdf.mime(), "application/pdf");
    }
}
