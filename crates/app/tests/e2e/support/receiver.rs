//! A real webhook receiver on a loopback port: records every delivery it gets, answers
//! with the statuses it is told to, and checks signatures with the Standard Webhooks
//! reference library.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub id: String,
    pub timestamp: String,
    pub signature: String,
    pub content_type: String,
    pub body: String,
    pub answered: u16,
    pub at: Instant,
}

impl Received {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("a JSON body")
    }

    /// The payload's `type`.
    pub fn kind(&self) -> String {
        self.json()["type"].as_str().expect("type").to_owned()
    }

    /// Whether the Standard Webhooks library accepts it under `secret`.
    pub fn verifies_with(&self, secret: &str) -> bool {
        let mut headers = http::HeaderMap::new();
        for (name, value) in [
            ("webhook-id", &self.id),
            ("webhook-timestamp", &self.timestamp),
            ("webhook-signature", &self.signature),
        ] {
            headers.insert(name, value.parse().expect("a header value"));
        }
        let verifier = standardwebhooks::Webhook::new(secret).expect("a whsec_ secret");
        verifier.verify(self.body.as_bytes(), &headers).is_ok()
    }
}

struct Shared {
    received: Mutex<Vec<Received>>,
    answers: Mutex<VecDeque<u16>>,
}

pub struct Receiver {
    pub port: u16,
    server: Arc<tiny_http::Server>,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Receiver {
    /// A receiver on a free loopback port, answering 200.
    pub fn start() -> Self {
        Self::start_on(0)
    }

    /// A receiver on `port` (0: any free one).
    pub fn start_on(port: u16) -> Self {
        let server =
            Arc::new(tiny_http::Server::http(("127.0.0.1", port)).expect("the receiver binds"));
        let port = server.server_addr().to_ip().expect("an IP address").port();
        let shared = Arc::new(Shared {
            received: Mutex::new(Vec::new()),
            answers: Mutex::new(VecDeque::new()),
        });
        let thread = {
            let (server, shared) = (server.clone(), shared.clone());
            std::thread::spawn(move || serve(&server, &shared))
        };
        Self {
            port,
            server,
            shared,
            thread: Some(thread),
        }
    }

    /// Where deliveries go.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hooks/idv", self.port)
    }

    /// The statuses of the next answers, in order; 200 after them.
    pub fn answer_next(&self, statuses: &[u16]) {
        self.shared
            .answers
            .lock()
            .expect("lock")
            .extend(statuses.iter().copied());
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.received.lock().expect("lock").clone()
    }

    /// Waits until `done` holds for what was received, or `within` passes; returns it.
    pub fn wait_until(
        &self,
        within: Duration,
        done: impl Fn(&[Received]) -> bool,
    ) -> Vec<Received> {
        let deadline = Instant::now() + within;
        loop {
            let received = self.received();
            if done(&received) || Instant::now() > deadline {
                return received;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops listening: the port refuses connections until a receiver binds it again.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn serve(server: &tiny_http::Server, shared: &Shared) {
    for mut request in server.incoming_requests() {
        let header = |name: &str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
                .map(|h| h.value.as_str().to_owned())
                .unwrap_or_default()
        };
        let (id, timestamp, signature, content_type) = (
            header("webhook-id"),
            header("webhook-timestamp"),
            header("webhook-signature"),
            header("content-type"),
        );
        let mut body = String::new();
        let _ = request.as_reader().read_to_string(&mut body);
        let answered = shared
            .answers
            .lock()
            .expect("lock")
            .pop_front()
            .unwrap_or(200);
        shared.received.lock().expect("lock").push(Received {
            id,
            timestamp,
            signature,
            content_type,
            body,
            answered,
            at: Instant::now(),
        });
        let _ = request.respond(tiny_http::Response::empty(answered));
    }
}

/// A slow endpoint: holds each request it gets for `hold` (or until it is dropped)
/// before answering 200, as many at once as come, and counts how many it held at most.
pub struct SlowReceiver {
    pub port: u16,
    server: Arc<tiny_http::Server>,
    held: Arc<Held>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Default)]
struct Held {
    /// (requests got, requests held now, most held at once); `released` once dropped.
    counts: Mutex<(usize, usize, usize)>,
    released: Mutex<bool>,
    wake: std::sync::Condvar,
}

impl SlowReceiver {
    pub fn start(hold: Duration) -> Self {
        let server =
            Arc::new(tiny_http::Server::http(("127.0.0.1", 0)).expect("the receiver binds"));
        let port = server.server_addr().to_ip().expect("an IP address").port();
        let held = Arc::new(Held::default());
        let thread = {
            let (server, held) = (server.clone(), held.clone());
            std::thread::spawn(move || {
                for request in server.incoming_requests() {
                    let held = held.clone();
                    std::thread::spawn(move || hold_then_answer(request, &held, hold));
                }
            })
        };
        Self {
            port,
            server,
            held,
            thread: Some(thread),
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hooks/slow", self.port)
    }

    /// How many requests it got.
    pub fn got(&self) -> usize {
        self.held.counts.lock().expect("lock").0
    }

    /// The most requests it held open at once.
    pub fn most_held(&self) -> usize {
        self.held.counts.lock().expect("lock").2
    }
}

fn hold_then_answer(request: tiny_http::Request, held: &Held, hold: Duration) {
    {
        let mut counts = held.counts.lock().expect("lock");
        counts.0 += 1;
        counts.1 += 1;
        counts.2 = counts.2.max(counts.1);
    }
    let released = held.released.lock().expect("lock");
    let _ = held
        .wake
        .wait_timeout_while(released, hold, |released| !*released);
    held.counts.lock().expect("lock").1 -= 1;
    let _ = request.respond(tiny_http::Response::empty(200));
}

impl Drop for SlowReceiver {
    fn drop(&mut self) {
        *self.held.released.lock().expect("lock") = true;
        self.held.wake.notify_all();
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
