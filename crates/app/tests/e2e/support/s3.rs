//! A real S3-protocol server for the tests: moto in server mode on a loopback port, one
//! fresh bucket per test, read back through the S3 API itself.

use std::io::Read;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `moto_server`: `IDV_TEST_MOTO`, else the CI's virtual environment, else the `PATH`.
fn moto_binary() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("IDV_TEST_MOTO") {
        return Some(PathBuf::from(path));
    }
    let venv = std::env::var("IDV_VENV")
        .map(PathBuf::from)
        .or_else(|_| std::env::var("HOME").map(|h| PathBuf::from(h).join(".cache/idv-venv")))
        .ok()?
        .join("bin/moto_server");
    if venv.exists() {
        return Some(venv);
    }
    let on_path = Command::new("moto_server")
        .arg("--help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    on_path.then(|| PathBuf::from("moto_server"))
}

pub fn available() -> bool {
    moto_binary().is_some()
}

/// moto serving on a free loopback port; stopped when dropped.
pub struct S3 {
    pub endpoint: String,
    pub bucket: String,
    child: Child,
}

impl S3 {
    pub fn start() -> Self {
        let binary = moto_binary().expect("moto_server is installed");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(binary)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto_server starts");
        let endpoint = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(30);
        while ureq::get(&endpoint).call().is_err() {
            assert!(Instant::now() < deadline, "moto_server did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        let bucket = format!("idv-{}", ulid::Ulid::new().to_string().to_lowercase());
        let s3 = Self {
            endpoint,
            bucket,
            child,
        };
        let made = ureq::put(&s3.bucket_url()).send_bytes(b"");
        assert!(made.is_ok(), "bucket created: {made:?}");
        s3
    }

    fn bucket_url(&self) -> String {
        format!("{}/{}", self.endpoint, self.bucket)
    }

    /// The server settings that store files in this bucket under `prefix`.
    pub fn env(&self, prefix: &str) -> Vec<(String, String)> {
        [
            ("IDV_STORAGE_URL", format!("s3://{}/{prefix}", self.bucket)),
            ("AWS_ACCESS_KEY_ID", "idv-test".to_owned()),
            ("AWS_SECRET_ACCESS_KEY", "idv-test-secret".to_owned()),
            ("AWS_REGION", "us-east-1".to_owned()),
            ("AWS_ENDPOINT_URL", self.endpoint.clone()),
            ("AWS_ALLOW_HTTP", "true".to_owned()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
    }

    /// Every object's key, through the S3 API (ListObjectsV2).
    pub fn keys(&self) -> Vec<String> {
        let listing = ureq::get(&format!("{}?list-type=2", self.bucket_url()))
            .call()
            .expect("bucket listed")
            .into_string()
            .expect("XML");
        listing
            .split("<Key>")
            .skip(1)
            .filter_map(|rest| rest.split_once("</Key>").map(|(key, _)| key.to_owned()))
            .collect()
    }

    /// An object's bytes, as the bucket holds them.
    pub fn object(&self, key: &str) -> Vec<u8> {
        let mut bytes = Vec::new();
        ureq::get(&format!("{}/{key}", self.bucket_url()))
            .call()
            .expect("object read")
            .into_reader()
            .read_to_end(&mut bytes)
            .expect("object bytes");
        bytes
    }
}

impl Drop for S3 {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
