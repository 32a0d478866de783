//! Rooms to analyse images in, one per core, shared fairly between merchants: while
//! merchants wait, a room that comes free goes to the next merchant in turn, not to the
//! next request. One merchant's clients re-uploading large photos on 64 links made
//! another merchant's client wait 32 s for its photo's answer (0.09 s alone); now the
//! other merchant's request is served by the next room that comes free. A merchant alone
//! uses every room.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use domain::merchant::MerchantId;
use tokio::sync::oneshot;

/// The rooms, and who waits for them.
#[derive(Debug)]
struct Rooms {
    free: usize,
    /// Merchants waiting, in turn, each with its requests in the order they came.
    waiting: VecDeque<(MerchantId, VecDeque<oneshot::Sender<Room>>)>,
}

/// Rooms shared fairly between merchants.
#[derive(Debug, Clone)]
pub struct FairRooms(Arc<Mutex<Rooms>>);

/// One room, given back when dropped.
#[derive(Debug)]
pub struct Room {
    rooms: Option<Arc<Mutex<Rooms>>>,
}

fn lock(rooms: &Mutex<Rooms>) -> MutexGuard<'_, Rooms> {
    // Nothing panics while holding it; a poisoned lock still holds consistent counts.
    rooms.lock().unwrap_or_else(PoisonError::into_inner)
}

impl FairRooms {
    /// `count` rooms.
    pub fn new(count: usize) -> Self {
        Self(Arc::new(Mutex::new(Rooms {
            free: count,
            waiting: VecDeque::new(),
        })))
    }

    /// A room for `merchant`: at once when one is free and nobody waits, else when its
    /// turn comes. Dropping the future gives up its place (and a room it was given).
    pub async fn room(&self, merchant: &MerchantId) -> Room {
        let waiting = {
            let mut rooms = lock(&self.0);
            if rooms.free > 0 && rooms.waiting.is_empty() {
                rooms.free -= 1;
                return self.armed();
            }
            let (sender, receiver) = oneshot::channel();
            match rooms.waiting.iter_mut().find(|(m, _)| m == merchant) {
                Some((_, requests)) => requests.push_back(sender),
                None => rooms
                    .waiting
                    .push_back((merchant.clone(), VecDeque::from([sender]))),
            }
            receiver
        };
        match waiting.await {
            Ok(room) => room,
            // The rooms are never dropped while a request waits on them: they hold it.
            Err(_) => self.armed(),
        }
    }

    fn armed(&self) -> Room {
        Room {
            rooms: Some(self.0.clone()),
        }
    }
}

impl Rooms {
    /// Gives free rooms to the merchants waiting, one each in turn.
    fn grant(&mut self, shared: &Arc<Mutex<Rooms>>) {
        while self.free > 0 {
            let Some((merchant, mut requests)) = self.waiting.pop_front() else {
                return;
            };
            if let Some(request) = requests.pop_front() {
                let room = Room {
                    rooms: Some(shared.clone()),
                };
                match request.send(room) {
                    Ok(()) => self.free -= 1,
                    // Given up: the room comes back here, not through its drop (which
                    // would take this lock again).
                    Err(mut room) => room.rooms = None,
                }
            }
            if !requests.is_empty() {
                self.waiting.push_back((merchant, requests));
            }
        }
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        if let Some(shared) = self.rooms.take() {
            let mut rooms = lock(&shared);
            rooms.free += 1;
            rooms.grant(&shared);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn merchant(id: &str) -> MerchantId {
        MerchantId::new(id)
    }

    /// Whether `future` is ready now.
    async fn ready<T>(future: impl std::future::Future<Output = T>) -> Option<T> {
        tokio::time::timeout(Duration::ZERO, future).await.ok()
    }

    #[tokio::test]
    async fn a_merchant_alone_uses_every_room() {
        let rooms = FairRooms::new(2);
        let first = ready(rooms.room(&merchant("a"))).await.expect("free");
        let second = ready(rooms.room(&merchant("a"))).await.expect("free");
        assert!(
            ready(rooms.room(&merchant("a"))).await.is_none(),
            "none left"
        );
        drop((first, second));
        assert!(ready(rooms.room(&merchant("a"))).await.is_some());
    }

    #[tokio::test]
    async fn a_room_that_comes_free_goes_to_the_next_merchant_in_turn() {
        let rooms = FairRooms::new(1);
        let held = rooms.room(&merchant("a")).await;
        // Merchant a queues three requests, then merchant b one.
        let spawn = |m: &'static str| {
            let rooms = rooms.clone();
            tokio::spawn(async move { rooms.room(&merchant(m)).await })
        };
        let a1 = spawn("a");
        tokio::task::yield_now().await;
        let a2 = spawn("a");
        let a3 = spawn("a");
        tokio::task::yield_now().await;
        let b1 = spawn("b");
        tokio::task::yield_now().await;
        drop(held);
        // a's first request was first in line; then b's, before a's others.
        let room = a1.await.expect("ran");
        assert!(!b1.is_finished() && !a2.is_finished());
        drop(room);
        let room = b1.await.expect("ran");
        assert!(!a2.is_finished() && !a3.is_finished());
        drop(room);
        drop(a2.await.expect("ran"));
        drop(a3.await.expect("ran"));
    }

    #[tokio::test]
    async fn a_request_given_up_leaves_its_room_to_the_next() {
        let rooms = FairRooms::new(1);
        let held = rooms.room(&merchant("a")).await;
        assert!(
            ready(rooms.room(&merchant("b"))).await.is_none(),
            "given up"
        );
        let waiting = {
            let rooms = rooms.clone();
            tokio::spawn(async move { rooms.room(&merchant("c")).await })
        };
        tokio::task::yield_now().await;
        drop(held);
        drop(waiting.await.expect("c got the room"));
        assert!(
            ready(rooms.room(&merchant("d"))).await.is_some(),
            "and gave it back"
        );
    }
}
