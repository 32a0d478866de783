//! The server's connections are bounded in all, not only per address (issue 47): it
//! raises its open-file limit to the hard limit at start and holds at most what that
//! leaves after a reserve (`IDV_MAX_CONNECTIONS`), so slow connections from many
//! addresses never take the descriptors it needs to answer.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use socket2::{Domain, SockAddr, Socket, Type};

use crate::Scenario;
use crate::support::{Backend, Env, Server, TestDatabase, profile};

pub const SCENARIOS: &[Scenario] = &[
    (
        "eleven_hundred_slow_connections_from_18_addresses_under_a_1024_file_limit_leave_the_server_answering",
        slow_connections_under_the_usual_limit,
    ),
    (
        "a_connection_past_idv_max_connections_is_shut_at_once_and_places_come_back",
        past_the_total,
    ),
];

/// The server's address.
fn address_of(server: &Server) -> SocketAddr {
    server
        .base_url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("host:port")
}

/// The start of a request whose body comes slowly: the server waits for it (15 s
/// without a byte, 60 s in all), holding the connection.
const SLOW_REQUEST: &[u8] = b"POST /api/v1/profile/get HTTP/1.1\r\nHost: idv\r\n\
    Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{";

/// A connection to `server` from the loopback address `from` (any of 127.0.0.0/8),
/// which has sent the start of a request and of its body, and nothing more.
fn slow_connection(server: SocketAddr, from: [u8; 4]) -> TcpStream {
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).expect("a socket");
    let local: SocketAddr = (from, 0).into();
    socket.bind(&SockAddr::from(local)).expect("bound");
    socket.connect(&SockAddr::from(server)).expect("connected");
    let mut stream: TcpStream = socket.into();
    stream.write_all(SLOW_REQUEST).expect("written");
    stream
}

/// Open descriptors of process `pid`.
fn descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(Iterator::count)
        .unwrap_or(0)
}

/// The soft and hard open-file limits of process `pid`.
fn open_file_limits(pid: u32) -> (String, String) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).expect("limits");
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .expect("listed");
    let mut numbers = line.split_whitespace().skip(3);
    let mut next = || numbers.next().expect("a number").to_owned();
    (next(), next())
}

fn slow_connections_under_the_usual_limit(backend: Backend) {
    // The usual soft limit, under a higher hard one, as a service manager starts it.
    let server = Server::start_through(
        TestDatabase::create(backend),
        &[],
        &["prlimit", "--nofile=1024:8192", "--"],
    );
    let merchant = server.create_merchant("Acme");
    assert_eq!(
        open_file_limits(server.pid()),
        ("8192".to_owned(), "8192".to_owned()),
        "raised to the hard limit at start"
    );
    let at = address_of(&server);
    // This test process holds the other ends: its own soft limit may be 1024 too.
    let own = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    let _ = rustix::process::setrlimit(
        rustix::process::Resource::Nofile,
        rustix::process::Rlimit {
            current: own.maximum,
            maximum: own.maximum,
        },
    );
    let held: Vec<TcpStream> = (0..1100)
        .map(|n: usize| {
            let from = [127, 0, 1, u8::try_from(1 + n % 18).expect("small")];
            slow_connection(at, from)
        })
        .collect();
    // A byte of each body every 3 s, as a slow client sends it, so that none reaches
    // the stall limit however long the server takes to accept them all.
    let trickling = std::sync::atomic::AtomicBool::new(true);
    let (holds, health, created) = std::thread::scope(|s| {
        // A minute at most: the body's own deadline, and the scope's end should a
        // check below panic.
        s.spawn(|| {
            for _ in 0..20 {
                if !trickling.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
                for mut stream in &held {
                    let _ = stream.write_all(b" ");
                }
                std::thread::sleep(Duration::from_secs(3));
            }
        });
        // Every one of them accepted by the server, not waiting in the kernel's queue:
        // 30 s at most, on a machine busy with other tests.
        let deadline = Instant::now() + Duration::from_secs(30);
        while descriptors(server.pid()) < held.len() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let holds = descriptors(server.pid());
        let client = server.client(&merchant);
        let health = client.send("GET", "/healthz", &[], b"").status;
        let created = client
            .call("profile/create", &profile("ada@example.com", "4165550123"))
            .status;
        trickling.store(false, std::sync::atomic::Ordering::Relaxed);
        (holds, health, created)
    });
    assert!(holds >= held.len(), "the server holds {holds} descriptors");
    assert_eq!((health, created), (200, 201));
    drop(held);
}

/// Sends a whole request for `/healthz` on `stream` and reads what comes back, up to
/// the end of the answer's head or the connection's end.
fn healthz_on(stream: &mut TcpStream) -> String {
    let request = b"GET /healthz HTTP/1.1\r\nHost: idv\r\n\r\n";
    if stream.write_all(request).is_err() {
        return String::new();
    }
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("a timeout");
    let mut answer = Vec::new();
    let mut buffer = [0u8; 1024];
    while let Ok(n) = stream.read(&mut buffer) {
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buffer[..n]);
        if answer.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

fn past_the_total(backend: Backend) {
    let env = Env::start_with(backend, &[("IDV_MAX_CONNECTIONS", "20")]);
    let at = address_of(&env.server);
    // Twenty kept-alive connections, each answered once: each is counted.
    let mut held: Vec<TcpStream> = (0..20)
        .map(|_| TcpStream::connect(at).expect("connected"))
        .collect();
    for stream in &mut held {
        let answer = healthz_on(stream);
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    }
    // The next is shut before anything of it is read: no answer, whatever it sends.
    let mut past = TcpStream::connect(at).expect("connected");
    assert_eq!(healthz_on(&mut past), "", "a connection past the total");
    // Places come back as connections close.
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut stream = TcpStream::connect(at).expect("connected");
        let answer = healthz_on(&mut stream);
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "no place came back: {answer:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}
