//! `face_match` (contract §13): the selfie's face against the portrait on the ID's front.
//! The analysis describes each face (a [`FaceDescriptor`]); how close two descriptions
//! must be to be one person is decided here.

use super::check::{Check, CheckName, Detail, Reason};
use super::documents::{Examined, ID_STEPS};
use super::reading::FaceDescriptor;
use crate::template::Feature;

/// The largest distance, in hundredths, at which two faces are one person: dlib's own
/// threshold for its ResNet encoder (0.6, 99.38 % on Labeled Faces in the Wild), which
/// our measurements bear out (see `docs/verification.md`).
pub const THRESHOLD_HUNDREDTHS: i64 = 60;

/// The Euclidean distance between two descriptions of faces; `None` when they are not
/// of the same matcher (their lengths differ) or empty.
pub fn distance(a: &[f32], b: &[f32]) -> Option<f64> {
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    let squares: f64 = a.iter().zip(b).map(|(x, y)| f64::from(x - y).powi(2)).sum();
    Some(squares.sqrt())
}

/// What an image's report says of its face, a missing description counting as no
/// matcher.
fn descriptor(image: &Examined) -> &FaceDescriptor {
    image
        .report
        .descriptor
        .as_ref()
        .unwrap_or(&FaceDescriptor::Unavailable)
}

/// `face_match`: the selfie's face against each ID portrait found, `passed` when every
/// one is under [`THRESHOLD_HUNDREDTHS`] (`details.distance`, the largest, in units).
/// Not applicable when this build cannot match (`face_matcher_unavailable`), when there
/// is no selfie or no ID front (`no_document`), when the selfie does not show exactly one
/// face (`no_face`, `multiple_faces`: `selfie_face` fails for it) and when no portrait was
/// described (`portrait_not_found`: `document_portrait` fails for it, or the matcher saw
/// no face where the detector did).
pub fn face_match(images: &[Examined]) -> Check {
    let na = |reason| Check::not_applicable(CheckName::FaceMatch, reason);
    let looked_at = |steps: &'static [Feature]| {
        images
            .iter()
            .filter(move |i| steps.contains(&i.step) && i.report.faces.is_some())
    };
    let selfies: Vec<&Examined> = looked_at(&[Feature::SelfieUpload]).collect();
    let fronts: Vec<&Examined> = looked_at(&ID_STEPS).collect();
    if selfies
        .iter()
        .chain(&fronts)
        .any(|i| *descriptor(i) == FaceDescriptor::Unavailable)
    {
        return na(Reason::FaceMatcherUnavailable);
    }
    let Some(selfie) = selfies.first() else {
        return na(Reason::NoDocument);
    };
    if fronts.is_empty() {
        return na(Reason::NoDocument);
    }
    let selfie_face = match (selfie.report.faces, descriptor(selfie)) {
        (Some(1), FaceDescriptor::Found(face)) => face,
        (Some(n), _) if n > 1 => {
            return na(Reason::MultipleFaces).on(selfie.document_id.clone());
        }
        _ => return na(Reason::NoFace).on(selfie.document_id.clone()),
    };
    let distances: Vec<(&Examined, i64)> = fronts
        .iter()
        .filter_map(|front| match descriptor(front) {
            FaceDescriptor::Found(portrait) => {
                distance(selfie_face, portrait).map(|d| (*front, (d * 100.0).round() as i64))
            }
            _ => None,
        })
        .collect();
    let Some((farthest, worst)) = distances.iter().max_by_key(|(_, d)| *d) else {
        return na(Reason::PortraitNotFound);
    };
    let details = vec![("distance".to_owned(), Detail::Decimal(*worst))];
    let check = if *worst < THRESHOLD_HUNDREDTHS {
        Check::passed(CheckName::FaceMatch, details)
    } else {
        Check::failed(CheckName::FaceMatch, vec![Reason::FaceMismatch], details)
    };
    check.on(farthest.document_id.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Side;
    use crate::verification::{CheckStatus, ImageReport};

    fn image(document: &str, step: Feature, faces: usize, face: FaceDescriptor) -> Examined {
        Examined {
            document_id: document.into(),
            step,
            side: (step == Feature::DriverLicenceUpload).then_some(Side::Front),
            report: ImageReport {
                faces: Some(faces),
                descriptor: Some(face),
                ..ImageReport::default()
            },
        }
    }

    /// A face 128 values long, all `at` but the first, `first`.
    fn face(first: f32, at: f32) -> FaceDescriptor {
        let mut values = vec![at; 128];
        values[0] = first;
        FaceDescriptor::Found(values)
    }

    fn licence(face: FaceDescriptor) -> Examined {
        image("d1", Feature::DriverLicenceUpload, 1, face)
    }

    fn selfie(faces: usize, face: FaceDescriptor) -> Examined {
        image("d2", Feature::SelfieUpload, faces, face)
    }

    fn outcome(images: &[Examined]) -> (CheckStatus, Vec<Reason>, Vec<(String, Detail)>) {
        let c = face_match(images);
        assert_eq!(c.name, CheckName::FaceMatch);
        (c.status, c.reasons, c.details)
    }

    #[test]
    fn distance_is_euclidean_between_descriptions_of_one_matcher() {
        assert_eq!(distance(&[0.0, 3.0], &[4.0, 0.0]), Some(5.0));
        assert_eq!(distance(&[0.0, 3.0], &[4.0]), None);
        assert_eq!(distance(&[], &[]), None);
    }

    #[test]
    fn the_same_face_passes_under_the_threshold_and_another_fails_over_it() {
        let near = [licence(face(0.1, 0.2)), selfie(1, face(0.52, 0.2))];
        let distance = |h| vec![("distance".to_owned(), Detail::Decimal(h))];
        assert_eq!(outcome(&near), (CheckStatus::Passed, vec![], distance(42)));
        let far = [licence(face(0.1, 0.2)), selfie(1, face(0.7, 0.2))];
        assert_eq!(
            outcome(&far),
            (
                CheckStatus::Failed,
                vec![Reason::FaceMismatch],
                distance(60)
            )
        );
        // Against a licence and a passport, the farther portrait decides and is named.
        let passport = image("d3", Feature::PassportUpload, 1, face(1.1, 0.2));
        let both = [licence(face(0.1, 0.2)), passport, selfie(1, face(0.2, 0.2))];
        let c = face_match(&both);
        assert_eq!(
            (c.status, c.document_id, c.details),
            (CheckStatus::Failed, Some("d3".into()), distance(90))
        );
    }

    #[test]
    fn without_a_matcher_a_selfie_an_id_front_one_selfie_face_or_a_portrait_it_does_not_run() {
        let na = |images: &[Examined]| {
            let (status, reasons, details) = outcome(images);
            assert_eq!(status, CheckStatus::NotApplicable);
            assert!(details.is_empty());
            reasons
        };
        let found = || face(0.1, 0.2);
        let unavailable = [
            licence(FaceDescriptor::Unavailable),
            selfie(1, FaceDescriptor::Unavailable),
        ];
        assert_eq!(na(&unavailable), [Reason::FaceMatcherUnavailable]);
        // A report that says nothing of descriptors comes from an analysis without a
        // matcher.
        let mut silent = selfie(1, found());
        silent.report.descriptor = None;
        assert_eq!(
            na(&[licence(found()), silent]),
            [Reason::FaceMatcherUnavailable]
        );
        assert_eq!(na(&[]), [Reason::NoDocument]);
        assert_eq!(na(&[selfie(1, found())]), [Reason::NoDocument]);
        assert_eq!(na(&[licence(found())]), [Reason::NoDocument]);
        let back = Examined {
            side: Some(Side::Back),
            report: ImageReport::default(),
            ..licence(found())
        };
        assert_eq!(na(&[back, selfie(1, found())]), [Reason::NoDocument]);
        assert_eq!(
            na(&[licence(found()), selfie(2, found())]),
            [Reason::MultipleFaces]
        );
        assert_eq!(
            na(&[licence(found()), selfie(0, FaceDescriptor::NotFound)]),
            [Reason::NoFace]
        );
        assert_eq!(
            na(&[licence(found()), selfie(1, FaceDescriptor::NotFound)]),
            [Reason::NoFace]
        );
        assert_eq!(
            na(&[licence(FaceDescriptor::NotFound), selfie(1, found())]),
            [Reason::PortraitNotFound]
        );
    }
}
