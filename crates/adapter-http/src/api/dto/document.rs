use domain::document::{Document, Evidence};
use domain::profile::{Country, LongText, Profile, ShortText, Ssn, State};
use domain::verification::DocumentRead;
use serde::Serialize;
use utoipa::ToSchema;

use super::paging::Paging;
use super::profile::SubmittedFields;
use crate::timefmt::{iso_date, rfc3339};

/// One entry of a document's `data`, by the kind of step that made the document.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum EvidenceEntry {
    /// An uploaded file.
    File {
        file_id: String,
        /// The client's file name, sanitised, with the extension of its true type.
        file_name: String,
        /// `image/jpeg`, `image/png` or `application/pdf`, from the bytes.
        content_type: String,
        size_bytes: u64,
        /// Lowercase hex SHA-256 of the bytes the client sent.
        sha256: String,
        /// `front` or `back`, when the client said which side of the ID it shows.
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<&'static str>,
    },
    /// What verification read from the document's images (contract §13), one entry per
    /// source; fields the document does not show are left out.
    Read(Box<ReadEntry>),
    /// `agreement_sign`.
    Agreement {
        signed_name: String,
        consent: bool,
        signed_at: String,
    },
    /// `device_finger_print`.
    Fingerprint { fingerprint: String },
}

/// What was read from a document: `source` is `barcode` or `mrz`; dates `YYYY-MM-DD`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReadEntry {
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    document_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    issuer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    middle_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_of_birth: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    document_number: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    issued_on: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expires_on: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sex: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    address_line_1: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    city: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    postal: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    country: Option<String>,
}

impl ReadEntry {
    pub fn of(read: &DocumentRead) -> Self {
        Self {
            source: read.source.map(|s| s.as_str()).unwrap_or_default(),
            document_type: read.document_type.clone(),
            issuer: read.issuer.clone(),
            first_name: read.first_name.clone(),
            middle_name: read.middle_name.clone(),
            last_name: read.last_name.clone(),
            date_of_birth: read.date_of_birth.map(iso_date),
            document_number: read.document_number.clone(),
            issued_on: read.issued_on.map(iso_date),
            expires_on: read.expires_on.map(iso_date),
            sex: read.sex.clone(),
            address_line_1: read.address_line_1.clone(),
            city: read.city.clone(),
            state: read.state.clone(),
            postal: read.postal.clone(),
            country: read.country.clone(),
        }
    }
}

impl EvidenceEntry {
    fn of(evidence: &Evidence, read: &[DocumentRead]) -> Vec<Self> {
        let mut entries = Self::of_evidence(evidence);
        entries.extend(read.iter().map(|r| Self::Read(Box::new(ReadEntry::of(r)))));
        entries
    }

    fn of_evidence(evidence: &Evidence) -> Vec<Self> {
        match evidence {
            Evidence::Files(files) => files
                .iter()
                .map(|f| Self::File {
                    file_id: f.file_id.to_string(),
                    file_name: f.file_name.clone(),
                    content_type: f.file_type.mime().to_owned(),
                    size_bytes: f.size_bytes,
                    sha256: f.sha256.clone(),
                    side: f.side.map(|s| s.as_str()),
                })
                .collect(),
            Evidence::Agreement {
                signed_name,
                signed_at,
            } => vec![Self::Agreement {
                signed_name: signed_name.clone(),
                consent: true,
                signed_at: rfc3339(*signed_at),
            }],
            Evidence::Fingerprint { fingerprint } => vec![Self::Fingerprint {
                fingerprint: fingerprint.clone(),
            }],
        }
    }
}

/// A document of interface §2.5.
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentView {
    pub id: String,
    /// The step it answers, e.g. `passport_upload`.
    pub name: String,
    pub status: String,
    pub data: Vec<EvidenceEntry>,
    pub created_at: String,
    pub updated_at: String,
}

impl DocumentView {
    pub fn of(d: &Document) -> Self {
        Self {
            id: d.id.to_string(),
            name: d.step.name().to_owned(),
            status: d.status.as_str().to_owned(),
            data: EvidenceEntry::of(&d.evidence, &d.read),
            created_at: rfc3339(d.created_at),
            updated_at: rfc3339(d.updated_at),
        }
    }
}

/// What the client submitted, as document get and read show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentSubmittedFields {
    pub email: Option<String>,
    pub mobile: Option<String>,
    pub date_of_birth: Option<String>,
    pub ssn: Option<String>,
    pub full_address: Option<String>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
}

/// The profile as document get and read show it: its own layout, quirks included
/// (`address_lin_2`, `postal_code`, and `email`/`mobile`/`full_address` in the
/// submitted fields).
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentProfile {
    pub merchant_reference: Option<String>,
    pub customer_id: Option<String>,
    pub first_name: String,
    pub middle_name: Option<String>,
    pub last_name: String,
    pub address_line_1: Option<String>,
    pub address_lin_2: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub country: Option<String>,
    pub postal_code: Option<String>,
    pub date_of_birth: Option<String>,
    pub driver_licence_id: Option<String>,
    pub ssn: Option<String>,
    pub status: String,
    pub created_at: String,
    pub updated_at: String,
    pub customer_submitted_form_fields: DocumentSubmittedFields,
}

impl DocumentProfile {
    pub fn of(p: &Profile) -> Self {
        let a = &p.attributes;
        let long = |t: &Option<LongText>| t.as_ref().map(|t| t.as_str().to_owned());
        let short = |t: &Option<ShortText>| t.as_ref().map(|t| t.as_str().to_owned());
        // The same values as profile/get shows, under this layout's names.
        let s = SubmittedFields::of(p.submitted.as_ref());
        Self {
            merchant_reference: long(&a.merchant_reference),
            customer_id: long(&a.customer_id),
            first_name: p.first_name.as_str().to_owned(),
            middle_name: short(&a.middle_name),
            last_name: p.last_name.as_str().to_owned(),
            address_line_1: long(&a.address_line_1),
            address_lin_2: long(&a.address_line_2),
            city: short(&a.city),
            state: a.state.as_ref().map(|s| State::as_str(s).to_owned()),
            country: a.country.as_ref().map(|c| Country::as_str(c).to_owned()),
            postal_code: a.postal.as_ref().map(|p| p.as_str().to_owned()),
            date_of_birth: a.date_of_birth.map(|d| d.to_string()),
            driver_licence_id: long(&a.driver_licence_id),
            ssn: a.ssn.as_ref().map(|s| Ssn::as_str(s).to_owned()),
            status: p.status.as_str().to_owned(),
            created_at: rfc3339(p.created_at),
            updated_at: rfc3339(p.updated_at),
            customer_submitted_form_fields: DocumentSubmittedFields {
                email: s.email_address,
                mobile: s.mobile_number,
                date_of_birth: s.date_of_birth,
                ssn: s.ssn,
                full_address: s.address,
                created_at: s.created_at,
                updated_at: s.updated_at,
            },
        }
    }
}

/// document/get.
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentAnswer {
    pub email_address: String,
    pub mobile_number: String,
    pub profile: DocumentProfile,
    pub document: DocumentView,
}

/// document/read: the profile's documents, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentList {
    #[serde(flatten)]
    pub paging: Paging,
    pub email_address: String,
    pub mobile_number: String,
    pub profile: DocumentProfile,
    pub documents: Vec<DocumentView>,
}

/// document/update-status.
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentStatusAnswer {
    pub email_address: String,
    pub mobile_number: String,
    pub document_id: String,
    pub status: String,
    pub updated_at: String,
}

/// document/delete.
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentDeleted {
    pub email_address: String,
    pub mobile_number: String,
    pub document_id: String,
    /// Always 1.
    pub deleted: u8,
    pub deleted_at: String,
}
