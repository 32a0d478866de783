//! The screening store's promises: an import replaces a list's entries at once (and the
//! same version is not imported twice), a profile's latest screening is kept with the
//! events it records and goes with the profile, the profiles a re-screening owes are
//! found, and one holder at a time has the re-screening.

use time::Duration;

use super::{NOW, Ports, entry, page, seed_merchant, seed_profile};
use crate::event::{Activity, Event};
use crate::outbox::Entry;
use crate::ports::{Saved, ScreeningWrite};
use crate::profile::Profile;
use crate::watchlist::{
    Disposition, ListHit, ListImport, ListKind, ListName, ListVersion, Match, Screening,
};

fn name(list: &str) -> ListName {
    ListName::parse(list).expect("a list name")
}

fn import(list: &str, version: &str, ids: &[&str]) -> ListImport {
    ListImport {
        version: ListVersion {
            name: name(list),
            kind: ListKind::Sanctions,
            merchant_id: None,
            version: version.into(),
            imported_at: NOW,
            entries: ids.len() as u64,
        },
        entries: ids
            .iter()
            .map(|id| screening::Entry {
                id: (*id).into(),
                names: vec![format!("DOE, John {id}"), format!("Johnny {id}")],
                dates_of_birth: vec![screening::BirthDate {
                    year: 1960,
                    month_day: Some((1, 12)),
                }],
                countries: vec!["IR".into()],
            })
            .collect(),
    }
}

fn write(
    screening: &Screening,
    replacing: Option<&Screening>,
    entries: Vec<Entry>,
) -> ScreeningWrite {
    ScreeningWrite {
        screening: screening.clone(),
        replacing: replacing.cloned(),
        entries,
    }
}

pub(super) async fn imports(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    assert!(
        p.screening
            .import(&import("ofac", "v1", &["1", "2"]))
            .await
            .expect("imported")
    );
    assert!(
        p.screening
            .import(&import("un", "u1", &["QDi.1"]))
            .await
            .expect("imported")
    );
    let again = p.screening.import(&import("ofac", "v1", &["1", "2"])).await;
    assert!(
        !again.expect("read"),
        "the version in force is not imported again"
    );
    let lists = p.screening.lists().await.expect("read");
    assert_eq!(
        lists,
        [
            import("ofac", "v1", &["1", "2"]).version,
            import("un", "u1", &["QDi.1"]).version
        ]
    );
    assert_eq!(
        p.screening.entries(&name("ofac")).await.expect("read"),
        import("ofac", "v1", &["1", "2"]).entries,
        "entries come back as imported"
    );
    let mut internal = import("ofac", "v2", &["3"]);
    internal.version.kind = ListKind::Internal;
    internal.version.merchant_id = Some(m1);
    assert!(p.screening.import(&internal).await.expect("imported"));
    let ids: Vec<String> = p
        .screening
        .entries(&name("ofac"))
        .await
        .expect("read")
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, ["3"], "a new version replaces every entry");
    let lists = p.screening.lists().await.expect("read");
    assert_eq!(
        lists[0], internal.version,
        "kind and owner as last imported"
    );
    assert_eq!(lists[1].version, "u1", "another list is untouched");
    assert!(
        p.screening
            .entries(&name("eu"))
            .await
            .expect("read")
            .is_empty()
    );
}

fn screened(client: &Profile, lists: &[(&str, &str)], at: time::OffsetDateTime) -> Screening {
    let hit = ListHit {
        list: name("ofac"),
        list_version: "v1".into(),
        entry_id: "1".into(),
        matched_name: "DOE, John".into(),
        score: 93,
        kind: ListKind::Sanctions,
    };
    Screening {
        merchant_id: client.merchant_id.clone(),
        profile_id: client.id.clone(),
        screened_at: at,
        lists: lists
            .iter()
            .map(|(n, v)| (name(n), (*v).to_owned()))
            .collect(),
        matches: vec![
            Match::open(hit.clone(), "digest-1".into()),
            Match {
                disposition: Disposition::FalsePositive,
                note: Some("Born in another year".into()),
                ..Match::open(
                    ListHit {
                        entry_id: "2".into(),
                        score: 90,
                        ..hit
                    },
                    "digest-2".into(),
                )
            },
        ],
    }
}

pub(super) async fn latest(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let client = seed_profile(&p, &m1, "p1", "ada@example.com").await;
    assert!(
        p.screening
            .screening(&m1, &client.id)
            .await
            .expect("read")
            .is_none()
    );
    let first = screened(&client, &[("ofac", "v1")], NOW);
    let event = Event::about(
        "ev-s1".into(),
        &client,
        Activity::ScreeningMatch,
        "Potential match",
        NOW,
    );
    assert_eq!(
        p.screening
            .save(&[write(&first, None, vec![entry(event)])])
            .await
            .expect("saved"),
        [Saved::Stored]
    );
    assert_eq!(
        p.screening.screening(&m1, &client.id).await.expect("read"),
        Some(first.clone())
    );
    let events = p.profiles.events(&client.id, page(50)).await.expect("read");
    assert!(
        events
            .items
            .iter()
            .any(|e| e.activity == Activity::ScreeningMatch),
        "its events are kept with it"
    );
    let mut second = screened(&client, &[("ofac", "v2")], NOW + Duration::hours(1));
    second.matches.truncate(1);
    let mut decided = first.clone();
    decided.matches[0].disposition = Disposition::FalsePositive;
    // Two writes over the same latest screening: the first is stored, the second (made
    // over what is no longer the latest) superseded, and so is a first screening when
    // there is one already.
    assert_eq!(
        p.screening
            .save(&[
                write(&second, Some(&first), Vec::new()),
                write(&decided, Some(&first), Vec::new()),
                write(&decided, None, Vec::new()),
            ])
            .await
            .expect("saved"),
        [Saved::Stored, Saved::Superseded, Saved::Superseded]
    );
    assert_eq!(
        p.screening.screening(&m1, &client.id).await.expect("read"),
        Some(second)
    );
    let m2 = seed_merchant(&p, "m2").await;
    assert!(
        p.screening
            .screening(&m2, &client.id)
            .await
            .expect("read")
            .is_none(),
        "another merchant's profile"
    );
    let stranger = seed_profile(&p, &m2, "p2", "bob@example.com").await;
    let mut gone = screened(&stranger, &[], NOW);
    gone.profile_id = "nobody".into();
    let refused = p.screening.save(&[write(&gone, None, Vec::new())]).await;
    assert_eq!(refused.expect("answered"), [Saved::ProfileGone]);
    let tombstone = Event {
        profile_id: None,
        ..Event::about("ev-del".into(), &client, Activity::ProfileDeleted, "", NOW)
    };
    p.profiles
        .delete(&client, &entry(tombstone))
        .await
        .expect("deleted");
    assert!(
        p.screening
            .screening(&m1, &client.id)
            .await
            .expect("read")
            .is_none(),
        "a deleted profile's screening goes with it"
    );
}

pub(super) async fn due(p: Ports) {
    let m1 = seed_merchant(&p, "m1").await;
    let fresh = seed_profile(&p, &m1, "p1", "a@example.com").await;
    let stale = seed_profile(&p, &m1, "p2", "b@example.com").await;
    let never = seed_profile(&p, &m1, "p3", "c@example.com").await;
    let other_lists = seed_profile(&p, &m1, "p4", "d@example.com").await;
    let m2 = seed_merchant(&p, "m2").await;
    seed_profile(&p, &m2, "p5", "e@example.com").await;
    let lists = [("ofac", "v1"), ("un", "u1")];
    let key = Screening::lists_key(&screened(&fresh, &lists, NOW).lists);
    let saved = p
        .screening
        .save(&[
            write(&screened(&fresh, &lists, NOW), None, Vec::new()),
            write(
                &screened(&stale, &lists, NOW - Duration::days(2)),
                None,
                Vec::new(),
            ),
            write(
                &screened(&other_lists, &[("ofac", "v0")], NOW),
                None,
                Vec::new(),
            ),
        ])
        .await
        .expect("saved");
    assert_eq!(saved, [Saved::Stored; 3], "a batch in one call");
    let mut due = p
        .screening
        .due(&m1, &key, NOW - Duration::days(1), 10)
        .await
        .expect("read");
    due.sort();
    assert_eq!(
        due,
        [stale.id.clone(), never.id.clone(), other_lists.id.clone()]
    );
    let few = p
        .screening
        .due(&m1, &key, NOW - Duration::days(1), 2)
        .await
        .expect("read");
    assert_eq!(few.len(), 2, "at most the limit");
    let everyone = p
        .screening
        .due(&m1, &key, NOW + Duration::days(1), 10)
        .await
        .expect("read");
    assert_eq!(everyone.len(), 4, "the merchant's own only");
}

pub(super) async fn lease(p: Ports) {
    let until = NOW + Duration::minutes(5);
    assert!(p.screening.lease("a", NOW, until).await.expect("taken"));
    assert!(
        !p.screening.lease("b", NOW, until).await.expect("read"),
        "held by a"
    );
    assert!(
        p.screening
            .lease(
                "a",
                NOW + Duration::minutes(1),
                until + Duration::minutes(1)
            )
            .await
            .expect("renewed")
    );
    let later = until + Duration::minutes(2);
    assert!(
        p.screening
            .lease("b", later, later + Duration::minutes(5))
            .await
            .expect("taken"),
        "a's lapsed"
    );
    assert!(
        !p.screening.lease("a", later, later).await.expect("read"),
        "now b's"
    );
}
