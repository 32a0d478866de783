//! The checks that look at the documents (contract §13): whether the images are usable,
//! what the barcode and the machine-readable zone say, whether that agrees with itself
//! and with what the client typed, and whether the faces are there.

use time::Date;

use super::check::{Check, CheckName, Detail, Reason};
use super::matching::{self, AddressParts};
use super::reading::{BarcodeReading, DocumentRead, ImageReport, MrzReading, ReadSource, Wanted};
use crate::document::Side;
use crate::ids::DocumentId;
use crate::profile::Profile;
use crate::template::Feature;

/// The steps whose files are identity documents.
pub(crate) const ID_STEPS: [Feature; 3] = [
    Feature::DriverLicenceUpload,
    Feature::PassportUpload,
    Feature::OtherIdUpload,
];

/// What to look for in an image of `step`, `None` when the checks do not look at it.
pub fn wanted(step: Feature, side: Option<Side>) -> Option<Wanted> {
    let front = side != Some(Side::Back);
    match step {
        Feature::DriverLicenceUpload => Some(Wanted {
            barcode: side != Some(Side::Front),
            mrz: false,
            faces: front,
            text: false,
        }),
        Feature::PassportUpload => Some(Wanted {
            barcode: false,
            mrz: true,
            faces: front,
            text: false,
        }),
        // An ID card carries a PDF417 on its back (US and Canada) or a zone (contract
        // §18).
        Feature::OtherIdUpload => Some(Wanted {
            barcode: side != Some(Side::Front),
            mrz: true,
            faces: front,
            text: false,
        }),
        Feature::SelfieUpload => Some(Wanted {
            faces: true,
            ..Wanted::default()
        }),
        // A proof of address is read for its text (contract §18).
        Feature::UtilityBillUpload | Feature::BankStatementUpload => Some(Wanted {
            text: true,
            ..Wanted::default()
        }),
        _ => None,
    }
}

/// One image of a quiz's documents, and what the analysis found in it.
#[derive(Debug, Clone)]
pub struct Examined {
    /// The document it belongs to.
    pub document_id: DocumentId,
    /// The step that made the document.
    pub step: Feature,
    /// The side it shows, when the client said.
    pub side: Option<Side>,
    /// What was found.
    pub report: ImageReport,
}

/// What the client or the merchant says of the client, to compare with the documents.
#[derive(Debug, Clone, Default)]
pub struct Claimed {
    /// The profile's first name.
    pub first_name: String,
    /// The profile's last name.
    pub last_name: String,
    /// The profile's licence number.
    pub licence_number: Option<String>,
    /// The address typed in the quiz, else the profile's.
    pub address: Option<AddressParts>,
    /// That address's country, as typed or kept.
    pub country: Option<String>,
}

impl Claimed {
    /// What the client typed in the quiz, else what the merchant keeps on the profile.
    pub fn of(profile: &Profile) -> Self {
        let a = &profile.attributes;
        let typed_line = profile
            .submitted
            .as_ref()
            .and_then(|s| s.address.as_deref());
        let typed_address = typed_line.and_then(AddressParts::of_one_line);
        // The one-line form ends with the country.
        let typed_country = typed_address
            .as_ref()
            .and(typed_line)
            .and_then(|line| line.rsplit(", ").next());
        let kept_address = || {
            Some(AddressParts {
                street: a.address_line_1.as_ref()?.as_str().to_owned(),
                city: a.city.as_ref().map(|c| c.as_str().to_owned()),
                state: a.state.as_ref().map(|s| s.as_str().to_owned()),
                postal: a.postal.as_ref()?.as_str().to_owned(),
            })
        };
        Self {
            first_name: profile.first_name.as_str().to_owned(),
            last_name: profile.last_name.as_str().to_owned(),
            licence_number: a.driver_licence_id.as_ref().map(|n| n.as_str().to_owned()),
            country: match &typed_address {
                Some(_) => typed_country.map(str::to_owned),
                None => a.country.as_ref().map(|c| c.as_str().to_owned()),
            },
            address: typed_address.or_else(kept_address),
        }
    }

    /// Whether `read`'s names are these (loosely for an MRZ's name line); `None` when
    /// it holds no last name.
    pub fn names_agree(&self, read: &DocumentRead) -> Option<bool> {
        let last = read.last_name.as_deref()?;
        let first = read.first_name.as_deref().unwrap_or_default();
        Some(match read.source {
            Some(ReadSource::Mrz) => {
                let middle = read.middle_name.as_deref().unwrap_or_default();
                let whole = [last, first, middle].join("<<");
                matching::names_appear_in(&self.first_name, &self.last_name, &whole)
            }
            // As `proof_of_address` finds them: both names on the addressee's line.
            Some(ReadSource::Text) => super::proof_of_address::names_on_line(
                &self.first_name,
                &self.last_name,
                &[first, last].join(" "),
            ),
            _ => matching::names_agree(&self.first_name, &self.last_name, first, last),
        })
    }

    /// Whether `read`'s address is this one (a bill's as `proof_of_address` judges it);
    /// `None` when either has none to compare.
    pub fn address_agrees(&self, read: &DocumentRead) -> Option<bool> {
        let typed = self.address.as_ref()?;
        if read.source == Some(ReadSource::Text) {
            return super::proof_of_address::address_agrees(typed, read);
        }
        Some(matching::addresses_agree(typed, &address_read(read)?))
    }

    /// Whether a barcode's licence number is this one; `None` when there is none to
    /// compare (an MRZ's passport number is not the licence's).
    pub fn number_agrees(&self, read: &DocumentRead) -> Option<bool> {
        let typed = self.licence_number.as_deref()?;
        match read.source {
            Some(ReadSource::Barcode) => Some(matching::numbers_agree(
                typed,
                read.document_number.as_deref()?,
            )),
            _ => None,
        }
    }
}

/// Each document's readings, the first of each source, in the order the images came.
pub fn reads(images: &[Examined]) -> Vec<(DocumentId, DocumentRead)> {
    let mut found: Vec<(DocumentId, DocumentRead)> = Vec::new();
    for image in images {
        let read = match (&image.report.barcode, &image.report.mrz) {
            (Some(BarcodeReading::Read(read)), _) | (_, Some(MrzReading::Read(read))) => read,
            _ => continue,
        };
        let seen = found
            .iter()
            .any(|(id, r)| *id == image.document_id && r.source == read.source);
        if !seen {
            found.push((image.document_id.clone(), read.clone()));
        }
    }
    found
}

fn of_steps<'a>(
    images: &'a [Examined],
    steps: &'a [Feature],
) -> impl Iterator<Item = &'a Examined> {
    images.iter().filter(move |i| steps.contains(&i.step))
}

fn count(n: usize) -> Detail {
    Detail::Number(i64::try_from(n).unwrap_or(i64::MAX))
}

/// `document_quality`: every ID image and selfie is usable.
pub fn document_quality(images: &[Examined]) -> Check {
    let looked_at: Vec<&Examined> = images
        .iter()
        .filter(|i| ID_STEPS.contains(&i.step) || i.step == Feature::SelfieUpload)
        .collect();
    if looked_at.is_empty() {
        return Check::not_applicable(CheckName::DocumentQuality, Reason::NoDocument);
    }
    let failing: Vec<&&Examined> = looked_at
        .iter()
        .filter(|i| !i.report.quality.is_empty())
        .collect();
    let details = vec![
        ("images".to_owned(), count(looked_at.len())),
        ("unusable_images".to_owned(), count(failing.len())),
    ];
    let Some(first) = failing.first() else {
        return Check::passed(CheckName::DocumentQuality, details);
    };
    let mut issues: Vec<_> = failing
        .iter()
        .flat_map(|i| i.report.quality.iter().copied())
        .collect();
    issues.sort_unstable();
    issues.dedup();
    let reasons = issues.iter().map(|i| i.reason()).collect();
    Check::failed(CheckName::DocumentQuality, reasons, details).on(first.document_id.clone())
}

/// `barcode`: a licence image holds an AAMVA record, or an ID card's that holds a
/// PDF417 (an ID card with a zone instead is the `mrz` check's).
pub fn barcode(images: &[Examined]) -> Check {
    let readings: Vec<(&Examined, &BarcodeReading)> = images
        .iter()
        .filter_map(|i| i.report.barcode.as_ref().map(|b| (i, b)))
        .filter(|(i, b)| match i.step {
            Feature::DriverLicenceUpload => true,
            Feature::OtherIdUpload => **b != BarcodeReading::NotFound,
            _ => false,
        })
        .collect();
    let Some((first, _)) = readings.first() else {
        return Check::not_applicable(CheckName::Barcode, Reason::NoDocument);
    };
    if let Some((read, _)) = readings
        .iter()
        .find(|(_, b)| matches!(b, BarcodeReading::Read(_)))
    {
        return Check::passed(CheckName::Barcode, Vec::new()).on(read.document_id.clone());
    }
    let reason = match readings.iter().any(|(_, b)| **b == BarcodeReading::Invalid) {
        true => Reason::BarcodeInvalid,
        false => Reason::BarcodeNotFound,
    };
    Check::failed(CheckName::Barcode, vec![reason], Vec::new()).on(first.document_id.clone())
}

/// `mrz`: a passport or ID image holds a machine-readable zone whose check digits hold;
/// an ID card whose barcode was read is the `barcode` check's.
pub fn mrz(images: &[Examined]) -> Check {
    let barcode_read = |document: &DocumentId| {
        images.iter().any(|i| {
            i.document_id == *document && matches!(i.report.barcode, Some(BarcodeReading::Read(_)))
        })
    };
    let readings: Vec<(&Examined, &MrzReading)> =
        of_steps(images, &[Feature::PassportUpload, Feature::OtherIdUpload])
            .filter(|i| i.step != Feature::OtherIdUpload || !barcode_read(&i.document_id))
            .filter_map(|i| i.report.mrz.as_ref().map(|m| (i, m)))
            .collect();
    let Some((first, _)) = readings.first() else {
        return Check::not_applicable(CheckName::Mrz, Reason::NoDocument);
    };
    if let Some((read, _)) = readings
        .iter()
        .find(|(_, m)| matches!(m, MrzReading::Read(_)))
    {
        return Check::passed(CheckName::Mrz, Vec::new()).on(read.document_id.clone());
    }
    if readings
        .iter()
        .all(|(_, m)| **m == MrzReading::OcrUnavailable)
    {
        return Check::not_applicable(CheckName::Mrz, Reason::OcrUnavailable);
    }
    let broken = readings
        .iter()
        .find(|(_, m)| **m == MrzReading::CheckDigitInvalid);
    let (document, reason) = match broken {
        Some((image, _)) => (image, Reason::MrzCheckDigitInvalid),
        None => (first, Reason::MrzNotFound),
    };
    Check::failed(CheckName::Mrz, vec![reason], Vec::new()).on(document.document_id.clone())
}

/// Runs `judge` on every reading that has what it needs: failed on the first that fails,
/// passed on the first that passes if none fails, else not applicable for `missing`.
fn over_reads<T>(
    name: CheckName,
    reads: &[(DocumentId, DocumentRead)],
    missing: Reason,
    input: impl Fn(&DocumentRead) -> Option<T>,
    judge: impl Fn(&DocumentRead, T) -> Result<(), Reason>,
) -> Check {
    let mut passed = None;
    for (document, read) in reads {
        let Some(value) = input(read) else { continue };
        match judge(read, value) {
            Err(reason) => {
                return Check::failed(name, vec![reason], Vec::new()).on(document.clone());
            }
            Ok(()) => {
                passed.get_or_insert_with(|| document.clone());
            }
        }
    }
    match passed {
        Some(document) => Check::passed(name, Vec::new()).on(document),
        None => Check::not_applicable(name, missing),
    }
}

fn agree(ok: bool, reason: Reason) -> Result<(), Reason> {
    if ok { Ok(()) } else { Err(reason) }
}

/// `document_expiry`: no document read has expired by `today`.
pub fn document_expiry(reads: &[(DocumentId, DocumentRead)], today: Date) -> Check {
    over_reads(
        CheckName::DocumentExpiry,
        reads,
        Reason::NothingRead,
        |r| r.expires_on,
        |_, expires| agree(expires >= today, Reason::DocumentExpired),
    )
}

/// The day `years` after `born` (28 February for the 29th in a common year, as cards
/// print it; 1 March is accepted too).
fn anniversaries(born: Date, years: u8) -> [Option<Date>; 2] {
    let year = born.year() + i32::from(years);
    match born.replace_year(year) {
        Ok(day) => [Some(day), None],
        Err(_) => [
            Date::from_calendar_date(year, time::Month::February, 28).ok(),
            Date::from_calendar_date(year, time::Month::March, 1).ok(),
        ],
    }
}

/// Whether a document's own dates agree: issued before it expires, the holder born
/// before it was issued, and each marked age the birth date plus that many years.
fn dates_agree(read: &DocumentRead) -> bool {
    let ordered = |a: Option<Date>, b: Option<Date>| match (a, b) {
        (Some(a), Some(b)) => a < b,
        _ => true,
    };
    let marks_hold = read
        .marked_ages
        .iter()
        .all(|(years, day)| match read.date_of_birth {
            Some(born) => anniversaries(born, *years).contains(&Some(*day)),
            None => true,
        });
    ordered(read.issued_on, read.expires_on)
        && ordered(read.date_of_birth, read.issued_on)
        && ordered(read.date_of_birth, read.expires_on)
        && marks_hold
}

/// `document_dates`: every document read agrees with itself.
pub fn document_dates(reads: &[(DocumentId, DocumentRead)]) -> Check {
    over_reads(
        CheckName::DocumentDates,
        reads,
        Reason::NothingRead,
        |r| {
            let dates = [r.date_of_birth, r.issued_on, r.expires_on];
            (dates.iter().flatten().count() >= 2).then_some(())
        },
        |read, ()| agree(dates_agree(read), Reason::DocumentDatesInconsistent),
    )
}

/// `name_match`: the names read are the profile's.
pub fn name_match(reads: &[(DocumentId, DocumentRead)], claimed: &Claimed) -> Check {
    over_reads(
        CheckName::NameMatch,
        reads,
        Reason::NothingRead,
        |r| r.last_name.as_ref().map(|_| ()),
        |read, ()| {
            let first = read.first_name.as_deref().unwrap_or_default();
            let last = read.last_name.as_deref().unwrap_or_default();
            let ok = match read.source {
                Some(ReadSource::Mrz) => {
                    let whole =
                        [last, first, read.middle_name.as_deref().unwrap_or_default()].join("<<");
                    matching::names_appear_in(&claimed.first_name, &claimed.last_name, &whole)
                }
                _ => matching::names_agree(&claimed.first_name, &claimed.last_name, first, last),
            };
            agree(ok, Reason::NameMismatch)
        },
    )
}

/// `date_of_birth_match`: the birth date read is the client's.
pub fn date_of_birth_match(reads: &[(DocumentId, DocumentRead)], typed: Option<Date>) -> Check {
    let Some(typed) = typed else {
        return Check::not_applicable(CheckName::DateOfBirthMatch, Reason::NoDateOfBirth);
    };
    over_reads(
        CheckName::DateOfBirthMatch,
        reads,
        Reason::NothingRead,
        |r| r.date_of_birth,
        |_, born| agree(born == typed, Reason::DateOfBirthMismatch),
    )
    .with_match_detail()
}

/// `document_number_match`: the licence number read from the barcode is the profile's.
pub fn document_number_match(reads: &[(DocumentId, DocumentRead)], claimed: &Claimed) -> Check {
    let Some(typed) = &claimed.licence_number else {
        return Check::not_applicable(CheckName::DocumentNumberMatch, Reason::NoDocumentNumber);
    };
    over_reads(
        CheckName::DocumentNumberMatch,
        reads,
        Reason::NothingRead,
        |r| match r.source {
            Some(ReadSource::Barcode) => r.document_number.clone(),
            _ => None,
        },
        |_, read| {
            agree(
                matching::numbers_agree(typed, &read),
                Reason::DocumentNumberMismatch,
            )
        },
    )
    .with_match_detail()
}

/// The address a document's reading gives, when it has a street and a postal code.
fn address_read(read: &DocumentRead) -> Option<AddressParts> {
    Some(AddressParts {
        street: read.address_line_1.clone()?,
        city: read.city.clone(),
        state: read.state.clone(),
        postal: read.postal.clone()?,
    })
}

/// `address_match`: the address on the licence is the one typed.
pub fn address_match(reads: &[(DocumentId, DocumentRead)], claimed: &Claimed) -> Check {
    let Some(typed) = &claimed.address else {
        return Check::not_applicable(CheckName::AddressMatch, Reason::NoAddress);
    };
    over_reads(
        CheckName::AddressMatch,
        reads,
        Reason::NothingRead,
        address_read,
        |_, read| {
            agree(
                matching::addresses_agree(typed, &read),
                Reason::AddressMismatch,
            )
        },
    )
}

/// `selfie_face`: each selfie shows exactly one face.
pub fn selfie_face(images: &[Examined]) -> Check {
    let selfies: Vec<(&Examined, usize)> = of_steps(images, &[Feature::SelfieUpload])
        .filter_map(|i| i.report.faces.map(|n| (i, n)))
        .collect();
    let Some((first, _)) = selfies.first() else {
        return Check::not_applicable(CheckName::SelfieFace, Reason::NoDocument);
    };
    let wrong = selfies.iter().find(|(_, faces)| *faces != 1);
    match wrong {
        None => Check::passed(CheckName::SelfieFace, vec![("faces".to_owned(), count(1))])
            .on(first.document_id.clone()),
        Some((image, faces)) => {
            let reason = match faces {
                0 => Reason::NoFace,
                _ => Reason::MultipleFaces,
            };
            Check::failed(
                CheckName::SelfieFace,
                vec![reason],
                vec![("faces".to_owned(), count(*faces))],
            )
            .on(image.document_id.clone())
        }
    }
}

/// `document_portrait`: each ID document shows a face on its front (a licence's side
/// not said: on any of its images).
pub fn document_portrait(images: &[Examined]) -> Check {
    let mut documents: Vec<(&DocumentId, bool)> = Vec::new();
    for image in of_steps(images, &ID_STEPS) {
        let Some(faces) = image.report.faces else {
            continue;
        };
        match documents
            .iter_mut()
            .find(|(id, _)| **id == image.document_id)
        {
            Some((_, found)) => *found |= faces > 0,
            None => documents.push((&image.document_id, faces > 0)),
        }
    }
    let Some((first, _)) = documents.first() else {
        return Check::not_applicable(CheckName::DocumentPortrait, Reason::NoDocument);
    };
    match documents.iter().find(|(_, found)| !found) {
        None => Check::passed(CheckName::DocumentPortrait, Vec::new()).on((*first).clone()),
        Some((missing, _)) => Check::failed(
            CheckName::DocumentPortrait,
            vec![Reason::PortraitNotFound],
            Vec::new(),
        )
        .on((*missing).clone()),
    }
}

impl Check {
    /// A comparison of a personal value reports only whether it matched.
    fn with_match_detail(mut self) -> Self {
        if self.status != super::CheckStatus::NotApplicable {
            let matches = self.status == super::CheckStatus::Passed;
            self.details
                .push(("matches".to_owned(), Detail::Flag(matches)));
        }
        self
    }
}
