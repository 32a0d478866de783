use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ring::hmac;
use serde_json::Value;

use super::server::Merchant;

/// What came back: the status, the headers and the body (JSON when it parses, else
/// the text as a JSON string; raw bytes in `bytes`).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub reference_header: Option<String>,
    pub content_type: String,
    pub headers: Vec<(String, String)>,
    pub bytes: Vec<u8>,
    pub body: Value,
}

impl Reply {
    /// The `code`s of an error answer, in order.
    pub fn codes(&self) -> Vec<String> {
        self.body["errors"]
            .as_array()
            .map(|errors| {
                errors
                    .iter()
                    .filter_map(|e| e["code"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Asserts an error answer with exactly these codes.
    #[track_caller]
    pub fn assert_error(&self, status: u16, codes: &[&str]) {
        assert_eq!(self.status, status, "status of {}", self.body);
        assert_eq!(self.codes(), codes, "codes of {}", self.body);
        assert_eq!(
            self.body["http_status_code"], status,
            "envelope of {}",
            self.body
        );
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as text (for HTML pages).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    #[track_caller]
    pub fn assert_status(&self, status: u16) -> &Value {
        assert_eq!(self.status, status, "unexpected answer {}", self.body);
        &self.body
    }
}

pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64
}

/// The `Signature` header of scheme v1, computed independently of the server's code.
pub fn sign_v1(secret: &str, t: i64, path: &str, body: &[u8]) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
    let mut msg = format!("{t}.{path}.").into_bytes();
    msg.extend_from_slice(body);
    let hex: String = hmac::sign(&key, &msg)
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("t={t},v1={hex}")
}

/// Calls the API as a merchant would.
#[derive(Clone)]
pub struct Client {
    base_url: String,
    pub merchant: Merchant,
    agent: ureq::Agent,
}

impl Client {
    pub fn new(base_url: &str, merchant: &Merchant) -> Self {
        Self {
            base_url: base_url.to_owned(),
            merchant: merchant.clone(),
            // Redirects are answers under test, not something to follow.
            agent: ureq::AgentBuilder::new()
                .timeout(Duration::from_secs(30))
                .redirects(0)
                .build(),
        }
    }

    /// A correctly signed POST of `body` to `/api/v1/{operation}`.
    pub fn call(&self, operation: &str, body: &Value) -> Reply {
        self.try_call(operation, body)
            .unwrap_or_else(|e| panic!("{operation}: {e}"))
    }

    /// Like [`Client::call`], but a failed connection is an `Err` instead of a panic.
    pub fn try_call(&self, operation: &str, body: &Value) -> Result<Reply, String> {
        let path = format!("/api/v1/{operation}");
        let raw = serde_json::to_vec(body).expect("serialisable");
        let signature = sign_v1(&self.merchant.api_secret, unix_now(), &path, &raw);
        let headers = [
            ("Api-Key", self.merchant.api_key.as_str()),
            ("Signature", &signature),
            ("Content-Type", "application/json"),
        ];
        self.try_send("POST", &path, &headers, &raw)
    }

    /// Any request, with exactly these headers.
    pub fn send(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        self.try_send(method, path, headers, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    fn try_send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Reply, String> {
        let mut request = self
            .agent
            .request(method, &format!("{}{path}", self.base_url));
        for (name, value) in headers {
            request = request.set(name, value);
        }
        let result = if method == "GET" {
            request.call()
        } else {
            request.send_bytes(body)
        };
        let response = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => return Err(e.to_string()),
        };
        let status = response.status();
        let reference_header = response.header("Query-Reference-Id").map(str::to_owned);
        let content_type = response
            .header("Content-Type")
            .unwrap_or_default()
            .to_owned();
        // Each value of a repeated header (two cookies set at once), in order.
        let mut names = response.headers_names();
        let mut seen = std::collections::HashSet::new();
        names.retain(|n| seen.insert(n.clone()));
        let headers = names
            .iter()
            .flat_map(|n| {
                response
                    .all(n)
                    .into_iter()
                    .map(|v| (n.clone(), v.to_owned()))
            })
            .collect();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut response.into_reader(), &mut bytes)
            .map_err(|e| e.to_string())?;
        let body = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        Ok(Reply {
            status,
            reference_header,
            content_type,
            headers,
            bytes,
            body,
        })
    }
}

/// One part of a multipart form.
pub enum Part<'a> {
    Text(&'a str),
    File { name: &'a str, bytes: &'a [u8] },
}

/// A `multipart/form-data` body and its content type.
pub fn multipart(parts: &[(&str, Part<'_>)]) -> (String, Vec<u8>) {
    let boundary = "idv-test-boundary-7MA4YWxkTrZu0gW";
    let mut body = Vec::new();
    for (field, part) in parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match part {
            Part::Text(value) => {
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{field}\"\r\n\r\n{value}\r\n")
                        .as_bytes(),
                );
            }
            Part::File { name, bytes } => {
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\nContent-Type: image/jpeg\r\n\r\n").as_bytes(),
                );
                body.extend_from_slice(bytes);
                body.extend_from_slice(b"\r\n");
            }
        }
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// A small file whose bytes say JPEG (the magic number, then noise).
/// A PNG signature and an IHDR chunk of 2 x 3 pixels, then filler up to `size`.
pub fn png(size: usize) -> Vec<u8> {
    let mut bytes = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
    bytes.extend_from_slice(b"IHDR");
    bytes.extend_from_slice(&[0, 0, 0, 2, 0, 0, 0, 3, 8, 2, 0, 0, 0, 0, 0, 0, 0]);
    bytes.resize(size.max(bytes.len()), 0);
    bytes
}

pub fn jpeg(size: usize) -> Vec<u8> {
    // SOI, a JFIF segment, then a frame header of 640 x 480 (so the image has dimensions),
    // then filler up to `size`.
    let mut bytes = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
    bytes.extend_from_slice(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
    bytes.extend_from_slice(&[0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03]);
    bytes.extend_from_slice(&[1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    bytes.extend((0..size.saturating_sub(bytes.len())).map(|i| (i * 31 % 251) as u8));
    bytes
}
