//! Signals across clients (contract §20): the same face under another identity
//! (`duplicate_face`) and the same picture sent by another profile, or a selfie that is a
//! photo of the ID's own portrait (`photo_reuse`).
//!
//! What is kept of a verification's images, per profile: the selfie's perceptual hash,
//! the hash of each face's own picture (the selfie's, the ID portraits'), and, when the
//! merchant has turned `face_search` on (its clients' consent to keeping biometric data),
//! the description of the selfie's face. An ID image's whole-picture hash is not kept: it
//! is the card's layout, the same for every holder of a state's licence (two holders'
//! licence backs hash 0 bits apart, two passport pages 1), so comparing it would call
//! every second client a reuse; an ID photo reused is found by its portrait. All are
//! sealed at rest, erased with the profile, never answered by the API nor sent in a
//! webhook; the checks give counts only.

use std::sync::Arc;

use crate::document::Side;
use crate::profile::ProfileId;
use crate::template::Feature;
use crate::verification::documents::{Examined, ID_STEPS};
use crate::verification::face_match::distance;
use crate::verification::{Check, CheckName, Detail, Reason};
use crate::verification::{FaceDescriptor, PhotoHashes};

/// The most bits two selfies' hashes (64 bits) may differ by for them to be one picture
/// re-saved, resized, re-compressed or cropped by a few percent. Measured
/// (`docs/verification.md`): copies 0 to 5 bits apart, different photos 18 and more.
pub const SAME_PICTURE_BITS: u32 = 8;

/// The most bits two faces' own pictures' hashes (40 bits) may differ by for them to be
/// one picture. Measured (`docs/verification.md`, three photos only): a licence's
/// portrait against photos of it 5 and 7 bits apart, against its source photo 6; another
/// photo of the same man 11, another man 16.
pub const SAME_PORTRAIT_BITS: u32 = 8;

/// The largest distance, in hundredths, at which two faces are taken for one person
/// under two identities: stricter than `face_match`'s 0.6, since a face is compared
/// with every face the merchant keeps rather than with one portrait (two photos of one
/// man 0.35, him and another 0.77-0.85: `docs/verification.md`).
pub const SAME_FACE_HUNDREDTHS: i64 = 45;

/// One thing kept of a profile's images.
#[derive(Debug, Clone, PartialEq)]
pub enum Signal {
    /// The selfie's perceptual hash (64 bits).
    Picture(u64),
    /// A face's own picture's hash (40 bits): the selfie's face, an ID's portrait.
    Portrait(u64),
    /// The selfie's face described by the face matcher (kept only with `face_search`);
    /// shared, so that a server's copy of the merchant's signals hands it out uncopied.
    Face(Arc<[f32]>),
}

/// A signal kept of one of the merchant's profiles.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    /// Whose.
    pub profile_id: ProfileId,
    /// What.
    pub signal: Signal,
    /// Whether a reviewer blocked this face (`face_on_blocklist`).
    pub blocked: bool,
}

/// What is kept of the quiz's `images`: the selfie's picture hash, every face's own
/// picture's hash, and the selfie's face's description when `face_search` is on.
pub fn signals_of(images: &[Examined], face_search: bool) -> Vec<Signal> {
    let selfie = selfie(images);
    let mut signals: Vec<Signal> = selfie
        .and_then(|s| s.report.hashes?.picture)
        .map(Signal::Picture)
        .into_iter()
        .chain(
            looked_at(images)
                .filter_map(portrait_of)
                .map(Signal::Portrait),
        )
        .collect();
    if face_search && let Some(face) = selfie.and_then(face_of) {
        signals.push(Signal::Face(face.into()));
    }
    signals
}

/// `duplicate_face`: the selfie's face against the faces the merchant keeps of its
/// profiles other than `own` (`face_used_by_another_profile`, `details.profiles` how
/// many) and against the faces a reviewer blocked, `own`'s included
/// (`face_on_blocklist`). Not applicable when `face_search` is off, when this build
/// cannot describe faces, and when the quiz holds no selfie with exactly one face
/// described.
pub fn duplicate_face(
    face_search: bool,
    own: &ProfileId,
    images: &[Examined],
    kept: &[Kept],
) -> Check {
    let na = |reason| Check::not_applicable(CheckName::DuplicateFace, reason);
    if !face_search {
        return na(Reason::FaceSearchOff);
    }
    let Some(selfie) = selfie(images) else {
        return na(Reason::NoFace);
    };
    if matches!(
        selfie.report.descriptor,
        None | Some(FaceDescriptor::Unavailable)
    ) {
        return na(Reason::FaceMatcherUnavailable);
    }
    let Some(face) = face_of(selfie) else {
        return na(Reason::NoFace).on(selfie.document_id.clone());
    };
    let same: Vec<&Kept> = kept
        .iter()
        .filter(|k| match &k.signal {
            Signal::Face(other) => distance(face, other)
                .is_some_and(|d| (d * 100.0).round() as i64 <= SAME_FACE_HUNDREDTHS),
            _ => false,
        })
        .collect();
    let mut reasons = Vec::new();
    let profiles = distinct_profiles(same.iter().copied().filter(|k| k.profile_id != *own));
    if profiles > 0 {
        reasons.push(Reason::FaceUsedByAnotherProfile);
    }
    if same.iter().any(|k| k.blocked) {
        reasons.push(Reason::FaceOnBlocklist);
    }
    decided(CheckName::DuplicateFace, reasons, profiles).on(selfie.document_id.clone())
}

/// `photo_reuse`: the selfie against the selfies the merchant keeps of its other
/// profiles, and each face's own picture (the selfie's, the ID portraits') against theirs
/// (`photo_used_by_another_profile`, `details.profiles` how many); and the selfie's face
/// against the portraits on the ID's fronts (`selfie_is_document_photo`: a photo of the
/// card, or of its portrait's picture, rather than of a person). Needs no face matcher.
/// Not applicable when the quiz holds no selfie and no face to compare.
pub fn photo_reuse(images: &[Examined], kept: &[Kept]) -> Check {
    let picture = selfie(images).and_then(|s| s.report.hashes?.picture);
    let portraits: Vec<u64> = looked_at(images).filter_map(portrait_of).collect();
    if picture.is_none() && portraits.is_empty() {
        return Check::not_applicable(CheckName::PhotoReuse, Reason::NoDocument);
    }
    let reused = kept.iter().filter(|k| match k.signal {
        Signal::Picture(other) => picture.is_some_and(|p| same_picture(p, other)),
        Signal::Portrait(other) => portraits.iter().any(|p| same_portrait(*p, other)),
        Signal::Face(_) => false,
    });
    let profiles = distinct_profiles(reused);
    let mut reasons = Vec::new();
    if profiles > 0 {
        reasons.push(Reason::PhotoUsedByAnotherProfile);
    }
    if let Some(own) = selfie(images).and_then(portrait_of)
        && looked_at(images)
            .filter(|i| ID_STEPS.contains(&i.step) && i.side != Some(Side::Back))
            .filter_map(portrait_of)
            .any(|portrait| same_portrait(own, portrait))
    {
        reasons.push(Reason::SelfieIsDocumentPhoto);
    }
    decided(CheckName::PhotoReuse, reasons, profiles)
}

/// Whether two pictures' hashes are of one picture.
pub fn same_picture(a: u64, b: u64) -> bool {
    (a ^ b).count_ones() <= SAME_PICTURE_BITS
}

/// Whether two faces' own pictures' hashes are of one picture.
pub fn same_portrait(a: u64, b: u64) -> bool {
    (a ^ b).count_ones() <= SAME_PORTRAIT_BITS
}

fn decided(name: CheckName, reasons: Vec<Reason>, profiles: usize) -> Check {
    let details = vec![(
        "profiles".to_owned(),
        Detail::Number(i64::try_from(profiles).unwrap_or(i64::MAX)),
    )];
    if reasons.is_empty() {
        Check::passed(name, details)
    } else {
        Check::failed(name, reasons, details)
    }
}

fn distinct_profiles<'a>(kept: impl Iterator<Item = &'a Kept>) -> usize {
    let mut profiles: Vec<&ProfileId> = kept.map(|k| &k.profile_id).collect();
    profiles.sort();
    profiles.dedup();
    profiles.len()
}

/// The images of ID steps and of the selfie that were looked at.
fn looked_at(images: &[Examined]) -> impl Iterator<Item = &Examined> {
    images
        .iter()
        .filter(|i| i.step == Feature::SelfieUpload || ID_STEPS.contains(&i.step))
}

fn selfie(images: &[Examined]) -> Option<&Examined> {
    images.iter().find(|i| i.step == Feature::SelfieUpload)
}

/// The hash of the largest face's own picture in `image`.
fn portrait_of(image: &Examined) -> Option<u64> {
    image
        .report
        .hashes
        .as_ref()
        .and_then(|h: &PhotoHashes| h.portrait)
}

/// The selfie's face described, when it shows exactly one.
fn face_of(selfie: &Examined) -> Option<&[f32]> {
    match (&selfie.report.faces, &selfie.report.descriptor) {
        (Some(1), Some(FaceDescriptor::Found(face))) => Some(face),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verification::{CheckStatus, ImageReport};

    fn image(document: &str, step: Feature, picture: u64, portrait: Option<u64>) -> Examined {
        Examined {
            document_id: document.into(),
            step,
            side: (step == Feature::DriverLicenceUpload).then_some(Side::Front),
            report: ImageReport {
                faces: Some(1),
                descriptor: Some(FaceDescriptor::Found(vec![0.0, 0.0])),
                hashes: Some(PhotoHashes {
                    picture: Some(picture),
                    portrait,
                }),
                ..ImageReport::default()
            },
        }
    }

    fn kept(profile: &str, signal: Signal, blocked: bool) -> Kept {
        Kept {
            profile_id: ProfileId::new(profile),
            signal,
            blocked,
        }
    }

    /// The profile verified.
    fn own() -> ProfileId {
        ProfileId::new("p1")
    }

    fn profiles(check: &Check) -> Option<&Detail> {
        check
            .details
            .iter()
            .find(|(k, _)| k == "profiles")
            .map(|(_, v)| v)
    }

    #[test]
    fn a_selfie_or_a_portrait_another_profile_sent_is_reuse_and_a_few_bits_apart_still_is() {
        let images = [
            image("d1", Feature::SelfieUpload, 0xF0F0_0000_FFFF_0000, Some(1)),
            image("d2", Feature::DriverLicenceUpload, 0x1234, Some(0xFF_FF00)),
        ];
        let near = 0xF0F0_0000_FFFF_0000 ^ 0b1011_0001; // 4 bits apart
        let other = [
            kept("p2", Signal::Picture(near), false),
            kept("p3", Signal::Portrait(0xFF_FF00 ^ 0b111), false),
            kept("p4", Signal::Picture(!0), false),
            // A card's layout: another holder's licence hashes the same, and is no reuse.
            kept("p5", Signal::Picture(0x1234), false),
        ];
        let check = photo_reuse(&images, &other);
        assert_eq!(check.status, CheckStatus::Failed);
        assert_eq!(check.reasons, [Reason::PhotoUsedByAnotherProfile]);
        assert_eq!(profiles(&check), Some(&Detail::Number(2)));
        let fresh = photo_reuse(&images, &other[2..]);
        assert_eq!(fresh.status, CheckStatus::Passed);
        assert_eq!(profiles(&fresh), Some(&Detail::Number(0)));
        let none = photo_reuse(&[], &other);
        assert_eq!(none.reasons, [Reason::NoDocument]);
    }

    #[test]
    fn a_selfie_whose_face_is_the_cards_portrait_is_a_photo_of_the_document() {
        let portrait = 0x0F0F_F0F0_1234_5678;
        let images = [
            image("d1", Feature::SelfieUpload, 1, Some(portrait ^ 0b11)),
            image("d2", Feature::DriverLicenceUpload, 2, Some(portrait)),
        ];
        let check = photo_reuse(&images, &[]);
        assert_eq!(check.reasons, [Reason::SelfieIsDocumentPhoto]);
        let own = [
            image("d1", Feature::SelfieUpload, 1, Some(!portrait)),
            images[1].clone(),
        ];
        assert_eq!(photo_reuse(&own, &[]).status, CheckStatus::Passed);
    }

    #[test]
    fn the_same_face_under_another_profile_or_blocked_fails_and_another_passes() {
        let images = [image("d1", Feature::SelfieUpload, 1, None)];
        let face = |x: f32| Signal::Face(vec![x, 0.0].into());
        let same = [kept("p2", face(0.3), false), kept("p3", face(0.9), false)];
        let check = duplicate_face(true, &own(), &images, &same);
        assert_eq!(check.reasons, [Reason::FaceUsedByAnotherProfile]);
        assert_eq!(profiles(&check), Some(&Detail::Number(1)));
        let blocked = [kept("p2", face(0.1), true)];
        assert_eq!(
            duplicate_face(true, &own(), &images, &blocked).reasons,
            [Reason::FaceUsedByAnotherProfile, Reason::FaceOnBlocklist]
        );
        assert_eq!(
            duplicate_face(true, &own(), &images, &same[1..]).status,
            CheckStatus::Passed
        );
        // Its own face blocked: on the blocklist, and no other profile's.
        let own_blocked = [kept("p1", face(0.1), true)];
        let check = duplicate_face(true, &own(), &images, &own_blocked);
        assert_eq!(check.reasons, [Reason::FaceOnBlocklist]);
        assert_eq!(profiles(&check), Some(&Detail::Number(0)));
        assert_eq!(
            duplicate_face(false, &own(), &images, &same).reasons,
            [Reason::FaceSearchOff]
        );
        let mut unmatched = images.clone();
        unmatched[0].report.descriptor = Some(FaceDescriptor::Unavailable);
        assert_eq!(
            duplicate_face(true, &own(), &unmatched, &same).reasons,
            [Reason::FaceMatcherUnavailable]
        );
        unmatched[0].report.descriptor = Some(FaceDescriptor::NotFound);
        assert_eq!(
            duplicate_face(true, &own(), &unmatched, &same).reasons,
            [Reason::NoFace]
        );
        assert_eq!(
            duplicate_face(true, &own(), &[], &same).reasons,
            [Reason::NoFace]
        );
    }

    #[test]
    fn what_is_kept_is_the_selfie_the_faces_pictures_and_the_face_only_with_face_search() {
        let images = [
            image("d1", Feature::SelfieUpload, 1, Some(7)),
            image("d2", Feature::DriverLicenceUpload, 2, Some(8)),
        ];
        assert_eq!(
            signals_of(&images, false),
            [Signal::Picture(1), Signal::Portrait(7), Signal::Portrait(8)],
            "the selfie's picture, every face's: never an ID's layout"
        );
        assert_eq!(
            signals_of(&images, true).last(),
            Some(&Signal::Face(vec![0.0, 0.0].into()))
        );
    }
}
