//! A profile's screening: what matched, what the reviewer decided of it, and the
//! `watchlist` check.

use serde::{Deserialize, Serialize};
use strum::{EnumString, IntoStaticStr, VariantArray};
use time::OffsetDateTime;

use super::lists::{ListKind, ListName};
use crate::merchant::MerchantId;
use crate::profile::ProfileId;
use crate::verification::{Check, CheckName, Detail, Reason};

/// What a reviewer decided of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, VariantArray, IntoStaticStr, EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum Disposition {
    /// Not decided yet.
    Open,
    /// Not this person: not raised again for the profile until the entry changes.
    FalsePositive,
    /// This person.
    Confirmed,
}

impl Disposition {
    /// Its name in the API.
    pub fn as_str(&self) -> &'static str {
        self.into()
    }

    /// The disposition of this name.
    pub fn parse(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// One entry of a list a profile's name matched: public list data and a score, what
/// `details.matches` and `screening/get` list, in this very layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListHit {
    /// The list.
    pub list: ListName,
    /// Its version matched against (the SHA-256 of its files).
    pub list_version: String,
    /// The entry's id in the list.
    pub entry_id: String,
    /// The entry's name that matched, as the list writes it.
    pub matched_name: String,
    /// 0-100.
    pub score: u8,
    /// The list's kind.
    pub kind: ListKind,
}

/// A match as kept with the profile's screening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// What matched.
    pub hit: ListHit,
    /// What a reviewer decided of it.
    pub disposition: Disposition,
    /// The entry's digest when it matched: a dismissal holds while it is the same.
    pub entry_digest: String,
    /// The reviewer's note with the disposition.
    pub note: Option<String>,
}

impl Match {
    /// A match nobody decided yet.
    pub fn open(hit: ListHit, entry_digest: String) -> Self {
        Self {
            hit,
            disposition: Disposition::Open,
            entry_digest,
            note: None,
        }
    }

    /// Whether it is `entry_id` of `list`.
    pub fn is(&self, list: &ListName, entry_id: &str) -> bool {
        self.hit.list == *list && self.hit.entry_id == entry_id
    }
}

/// A profile's latest screening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screening {
    /// The merchant.
    pub merchant_id: MerchantId,
    /// The profile screened.
    pub profile_id: ProfileId,
    /// When.
    pub screened_at: OffsetDateTime,
    /// The lists screened against, with their versions.
    pub lists: Vec<(ListName, String)>,
    /// What matched, best first, dismissed ones included.
    pub matches: Vec<Match>,
}

impl Screening {
    /// The lists screened against, as one comparable key (`name@version`, by name):
    /// what tells a screening made before a list changed.
    pub fn lists_key(lists: &[(ListName, String)]) -> String {
        let mut named: Vec<String> = lists.iter().map(|(n, v)| format!("{n}@{v}")).collect();
        named.sort();
        named.join(",")
    }
}

/// What screening found for a verification's `watchlist` check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screened {
    /// The merchant does not screen.
    Off,
    /// The merchant screens, but no list it chose is imported.
    NoLists,
    /// Screened now.
    Done(Screening),
}

/// What this screening's `found` matches are, given the `previous` screening of the
/// profile: a dismissal holds while the entry is unchanged, a confirmation holds, an
/// open match stays open. Answers every match, best first, and the ones newly open
/// (each records a `screening_match` event).
pub fn merge(previous: Option<&Screening>, found: Vec<Match>) -> (Vec<Match>, Vec<ListHit>) {
    let mut raised = Vec::new();
    let mut matches: Vec<Match> = found
        .into_iter()
        .map(|mut found| {
            let before = previous
                .iter()
                .flat_map(|p| &p.matches)
                .find(|m| m.is(&found.hit.list, &found.hit.entry_id));
            match before {
                Some(m) if m.disposition == Disposition::Confirmed => {
                    found.disposition = Disposition::Confirmed;
                    found.note.clone_from(&m.note);
                }
                Some(m)
                    if m.disposition == Disposition::FalsePositive
                        && m.entry_digest == found.entry_digest =>
                {
                    found.disposition = Disposition::FalsePositive;
                    found.note.clone_from(&m.note);
                }
                Some(m) if m.disposition == Disposition::Open => {}
                // New, or dismissed before the entry changed.
                _ => raised.push(found.hit.clone()),
            }
            found
        })
        .collect();
    matches.sort_by_key(|m| std::cmp::Reverse(m.hit.score));
    (matches, raised)
}

/// `watchlist`: failed when a match is open or confirmed, with a reason per kind of list
/// (`details.matches` lists them); dismissed matches are not raised.
pub fn watchlist(screened: &Screened) -> Check {
    let screening = match screened {
        Screened::Off => return Check::not_applicable(CheckName::Watchlist, Reason::ScreeningOff),
        Screened::NoLists => return Check::not_applicable(CheckName::Watchlist, Reason::NoLists),
        Screened::Done(screening) => screening,
    };
    let raised: Vec<ListHit> = screening
        .matches
        .iter()
        .filter(|m| m.disposition != Disposition::FalsePositive)
        .map(|m| m.hit.clone())
        .collect();
    let mut reasons: Vec<Reason> = raised
        .iter()
        .map(|hit| match hit.kind {
            ListKind::Sanctions => Reason::SanctionsPotentialMatch,
            ListKind::Pep => Reason::PepPotentialMatch,
            ListKind::Internal => Reason::InternalListMatch,
        })
        .collect();
    reasons.sort();
    reasons.dedup();
    let details = vec![("matches".to_owned(), Detail::Matches(raised))];
    if reasons.is_empty() {
        Check::passed(CheckName::Watchlist, details)
    } else {
        Check::failed(CheckName::Watchlist, reasons, details)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verification::CheckStatus;
    use time::macros::datetime;

    fn hit(list: &str, entry: &str, kind: ListKind, score: u8) -> ListHit {
        ListHit {
            list: ListName::parse(list).expect("name"),
            list_version: "v1".into(),
            entry_id: entry.into(),
            matched_name: format!("NAME {entry}"),
            score,
            kind,
        }
    }

    fn screening(matches: Vec<Match>) -> Screening {
        Screening {
            merchant_id: MerchantId::new("m1"),
            profile_id: ProfileId::new("p1"),
            screened_at: datetime!(2026-11-27 10:00 UTC),
            lists: Vec::new(),
            matches,
        }
    }

    fn decided(m: Match, disposition: Disposition) -> Match {
        Match {
            disposition,
            note: Some("checked the passport".into()),
            ..m
        }
    }

    #[test]
    fn a_dismissal_holds_until_the_entry_changes_and_a_confirmation_holds() {
        let a = Match::open(hit("ofac", "1", ListKind::Sanctions, 95), "d1".into());
        let b = Match::open(hit("ofac", "2", ListKind::Sanctions, 91), "d2".into());
        let c = Match::open(hit("pep", "3", ListKind::Pep, 99), "d3".into());
        let before = screening(vec![
            decided(a.clone(), Disposition::FalsePositive),
            decided(b.clone(), Disposition::FalsePositive),
            decided(c.clone(), Disposition::Confirmed),
        ]);
        let b_changed = Match {
            entry_digest: "d2-changed".into(),
            ..b.clone()
        };
        let d = Match::open(hit("un", "4", ListKind::Sanctions, 92), "d4".into());
        let (matches, raised) = merge(Some(&before), vec![a, b_changed, c, d.clone()]);
        let dispositions: Vec<(&str, Disposition)> = matches
            .iter()
            .map(|m| (m.hit.entry_id.as_str(), m.disposition))
            .collect();
        assert_eq!(
            dispositions,
            [
                ("3", Disposition::Confirmed),
                ("1", Disposition::FalsePositive),
                ("4", Disposition::Open),
                ("2", Disposition::Open),
            ]
        );
        let raised: Vec<&str> = raised.iter().map(|h| h.entry_id.as_str()).collect();
        assert_eq!(raised, ["2", "4"]);
        // An open match found again is not raised again.
        let (_, again) = merge(Some(&screening(matches)), vec![d]);
        assert!(again.is_empty());
    }

    #[test]
    fn the_check_fails_by_the_kind_of_each_open_or_confirmed_list() {
        assert_eq!(watchlist(&Screened::Off).reasons, [Reason::ScreeningOff]);
        assert_eq!(watchlist(&Screened::NoLists).reasons, [Reason::NoLists]);
        let clean = watchlist(&Screened::Done(screening(Vec::new())));
        assert_eq!(clean.status, CheckStatus::Passed);
        assert_eq!(
            clean.details,
            [("matches".to_owned(), Detail::Matches(Vec::new()))]
        );
        let matches = vec![
            Match::open(hit("internal", "9", ListKind::Internal, 90), "d".into()),
            decided(
                Match::open(hit("pep", "3", ListKind::Pep, 99), "d".into()),
                Disposition::Confirmed,
            ),
            decided(
                Match::open(hit("ofac", "1", ListKind::Sanctions, 95), "d".into()),
                Disposition::FalsePositive,
            ),
        ];
        let check = watchlist(&Screened::Done(screening(matches)));
        assert_eq!(check.status, CheckStatus::Failed);
        assert_eq!(
            check.reasons,
            [Reason::PepPotentialMatch, Reason::InternalListMatch]
        );
        let Some((_, Detail::Matches(listed))) = check.details.first() else {
            panic!("matches listed: {check:?}");
        };
        let listed: Vec<&str> = listed.iter().map(|h| h.entry_id.as_str()).collect();
        assert_eq!(listed, ["9", "3"], "the dismissed one is not raised");
    }
}
