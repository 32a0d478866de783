//! The note repository's promises, with the other lists': notes, profiles and the log
//! are listed newest first, with their counts.

use super::{NOW, Ports, entry, event, page, profile, seed_merchant, seed_profile};
use crate::event::{Activity, Event};
use crate::note::{Note, NoteText};
use crate::paging::Page;

pub(super) async fn newest_first(p: Ports) {
    let m = seed_merchant(&p, "m1").await;
    let ada = seed_profile(&p, &m, "p1", "ada@example.com").await;
    let bob = profile(&m, "p2", "bob@example.com", "4165550999");
    p.profiles
        .insert(&bob, &entry(event("ev-p2", &bob)))
        .await
        .expect("stored");
    let listed = p
        .profiles
        .list(&m, Page::new(0, 1).expect("page"))
        .await
        .expect("read");
    assert_eq!(listed.total_count, 2);
    assert_eq!(
        listed
            .items
            .iter()
            .map(|p| p.id.as_str())
            .collect::<Vec<_>>(),
        ["p2"]
    );
    for (i, text) in ["first", "second"].into_iter().enumerate() {
        let note = Note {
            id: format!("n{i}").into(),
            merchant_id: m.clone(),
            profile_id: ada.id.clone(),
            text: NoteText::parse(text).expect("valid"),
            created_at: NOW,
        };
        // Ids sort by creation, as ULIDs do: these come after the profile's `ev-p1`.
        let e = Event::about(
            format!("ew-n{i}").into(),
            &ada,
            Activity::NoteCreated,
            "",
            NOW,
        );
        p.notes
            .insert(&note, &entry(e.clone()))
            .await
            .expect("stored");
    }
    let notes = p.notes.list(&ada.id, page(10)).await.expect("read");
    assert_eq!(notes.total_count, 2);
    let texts: Vec<&str> = notes.items.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(texts, ["second", "first"]);
    let events = p.profiles.events(&ada.id, page(10)).await.expect("read");
    let activities: Vec<Activity> = events.items.iter().map(|e| e.activity).collect();
    assert_eq!(
        activities,
        [
            Activity::NoteCreated,
            Activity::NoteCreated,
            Activity::ProfileCreated
        ]
    );
}
