//! What verification read from a document, beside what the client typed or the merchant
//! keeps, each comparison marked as the checks judge it (contract §13, issue: the reviewer
//! sees why a check failed without opening the images).

use domain::profile::Profile;
use domain::verification::{Claimed, DocumentRead, ReadSource};

use crate::timefmt::iso_date;

/// One line of the comparison.
pub(super) struct ReadRow {
    pub label: &'static str,
    pub read: String,
    pub typed: String,
    /// `Agrees`, `Differs`, or empty when nothing is compared on this line.
    pub mark: &'static str,
}

/// What one source (the barcode, the MRZ) said.
pub(super) struct ReadTable {
    pub source: &'static str,
    pub rows: Vec<ReadRow>,
}

fn mark(agrees: Option<bool>) -> &'static str {
    match agrees {
        Some(true) => "Agrees",
        Some(false) => "Differs",
        None => "",
    }
}

fn joined(parts: &[Option<&str>]) -> String {
    parts
        .iter()
        .flatten()
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The tables of a document's readings, compared with `profile`.
pub(super) fn tables(profile: &Profile, read: &[DocumentRead]) -> Vec<ReadTable> {
    let claimed = Claimed::of(profile);
    let born = profile
        .submitted
        .as_ref()
        .and_then(|s| s.date_of_birth)
        .or(profile.attributes.date_of_birth)
        .map(|d| d.date());
    read.iter()
        .map(|r| {
            let name = joined(&[
                r.first_name.as_deref(),
                r.middle_name.as_deref(),
                r.last_name.as_deref(),
            ]);
            let address = joined(&[
                r.address_line_1.as_deref(),
                r.city.as_deref(),
                r.state.as_deref(),
                r.postal.as_deref(),
            ]);
            let typed_address = claimed
                .address
                .as_ref()
                .map(|a| {
                    joined(&[
                        Some(&a.street),
                        a.city.as_deref(),
                        a.state.as_deref(),
                        Some(&a.postal),
                    ])
                })
                .unwrap_or_default();
            let rows = vec![
                ReadRow {
                    label: "Name",
                    read: name,
                    typed: format!("{} {}", claimed.first_name, claimed.last_name),
                    mark: mark(claimed.names_agree(r)),
                },
                ReadRow {
                    label: "Date of birth",
                    read: r.date_of_birth.map(iso_date).unwrap_or_default(),
                    typed: born.map(iso_date).unwrap_or_default(),
                    mark: mark(r.date_of_birth.zip(born).map(|(a, b)| a == b)),
                },
                ReadRow {
                    label: "Document number",
                    read: r.document_number.clone().unwrap_or_default(),
                    typed: claimed.licence_number.clone().unwrap_or_default(),
                    mark: mark(claimed.number_agrees(r)),
                },
                ReadRow {
                    label: "Address",
                    read: address,
                    typed: typed_address,
                    mark: mark(claimed.address_agrees(r)),
                },
                ReadRow {
                    label: "Issued by",
                    read: r.issuer.clone().unwrap_or_default(),
                    typed: String::new(),
                    mark: "",
                },
                ReadRow {
                    label: "Issued / expires",
                    read: joined(&[
                        r.issued_on.map(iso_date).as_deref(),
                        r.expires_on.map(iso_date).as_deref(),
                    ]),
                    typed: String::new(),
                    mark: "",
                },
            ];
            // A bill or statement says nothing of birth or documents: those lines would
            // only show what was typed.
            let text = r.source == Some(ReadSource::Text);
            ReadTable {
                source: match r.source {
                    Some(ReadSource::Mrz) => "machine-readable zone",
                    Some(ReadSource::Text) => "text of the document",
                    _ => "barcode",
                },
                rows: rows
                    .into_iter()
                    .filter(|row| !row.read.is_empty() || !row.typed.is_empty())
                    .filter(|row| {
                        !text || !["Date of birth", "Document number"].contains(&row.label)
                    })
                    .collect(),
            }
        })
        .collect()
}
