//! The compatibility signature scheme of the hosted product this service replaces:
//! `Signature: base64(HMAC-SHA256(secret, http_build_query(body)))`. It binds neither a
//! time nor a path, so a captured request can be replayed; it is only accepted for keys
//! created with it enabled.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ring::hmac;
use serde_json::Value;

pub(super) fn verify(secret: &[u8], header: &str, body: &[u8]) -> bool {
    let Ok(expected) = STANDARD.decode(header.trim()) else {
        return false;
    };
    let Ok(json) = serde_json::from_slice::<Value>(body) else {
        return false;
    };
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret);
    hmac::verify(&key, http_build_query(&json).as_bytes(), &expected).is_ok()
}

/// The body as far as the compatibility signature covers it: `null`s and empty arrays
/// and objects, at any depth, removed (`None` when nothing is left of `value`).
/// `http_build_query` leaves them out, so an attacker could add them to a captured body
/// without breaking its signature; dropped, they can neither clear nor set anything.
pub fn drop_empty(value: Value) -> Option<Value> {
    match value {
        Value::Null => None,
        Value::Array(items) => {
            let kept: Vec<Value> = items.into_iter().filter_map(drop_empty).collect();
            (!kept.is_empty()).then_some(Value::Array(kept))
        }
        Value::Object(map) => {
            let kept: serde_json::Map<String, Value> = map
                .into_iter()
                .filter_map(|(k, v)| drop_empty(v).map(|v| (k, v)))
                .collect();
            (!kept.is_empty()).then_some(Value::Object(kept))
        }
        scalar => Some(scalar),
    }
}

/// The query string PHP's `http_build_query` makes of the decoded JSON body: keys in
/// order, nested keys as `a[b][c]` (brackets percent-encoded, as PHP does), RFC 1738
/// encoding with `+` for spaces, `true` as 1, `false` as 0, `null` and empty arrays left out.
pub fn http_build_query(body: &Value) -> String {
    let mut pairs = Vec::new();
    if let Value::Object(map) = body {
        for (key, value) in map {
            push_pairs(&urlencode(key), value, &mut pairs);
        }
    }
    pairs.join("&")
}

fn push_pairs(name: &str, value: &Value, pairs: &mut Vec<String>) {
    let scalar = match value {
        Value::Null => return,
        Value::Bool(b) => {
            if *b {
                "1".to_owned()
            } else {
                "0".to_owned()
            }
        }
        Value::Number(n) => php_number(n),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                push_pairs(&format!("{name}%5B{i}%5D"), item, pairs);
            }
            return;
        }
        Value::Object(map) => {
            for (key, item) in map {
                push_pairs(&format!("{name}%5B{}%5D", urlencode(key)), item, pairs);
            }
            return;
        }
    };
    pairs.push(format!("{name}={}", urlencode(&scalar)));
}

/// PHP prints a float with no fractional part without a decimal point.
fn php_number(n: &serde_json::Number) -> String {
    match n.as_f64() {
        Some(f) if !n.is_i64() && !n.is_u64() && f.fract() == 0.0 && f.abs() < 1e15 => {
            format!("{f:.0}")
        }
        _ => n.to_string(),
    }
}

/// PHP's `urlencode`: letters, digits and `-_.` kept, space as `+`, the rest `%XX`.
fn urlencode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => out.push(byte as char),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flat_bodies_encode_like_php() {
        let body = json!({"email_address": "a+b@x.com", "first_name": "Ada Mary", "n": 5, "ok": true, "no": false, "gone": null});
        assert_eq!(
            http_build_query(&body),
            "email_address=a%2Bb%40x.com&first_name=Ada+Mary&n=5&ok=1&no=0"
        );
    }

    #[test]
    fn nested_objects_and_arrays_use_encoded_brackets() {
        let body =
            json!({"template": {"list": {"passport_upload": 1}}, "tags": ["x", "y"], "empty": []});
        assert_eq!(
            http_build_query(&body),
            "template%5Blist%5D%5Bpassport_upload%5D=1&tags%5B0%5D=x&tags%5B1%5D=y"
        );
    }

    #[test]
    fn floats_print_as_php_prints_them() {
        assert_eq!(
            http_build_query(&json!({"a": 1.0, "b": 12.5})),
            "a=1&b=12.5"
        );
    }

    #[test]
    fn what_the_compat_signature_does_not_cover_is_dropped() {
        let body = json!({"ssn": null, "a": "x", "list": [], "t": {"list": {}, "k": null}, "n": [null, 1]});
        let kept = drop_empty(body.clone()).expect("something left");
        assert_eq!(kept, json!({"a": "x", "n": [1]}));
        assert_eq!(
            http_build_query(&body),
            "a=x&n%5B1%5D=1",
            "same signed text"
        );
    }

    #[test]
    fn a_compat_signature_verifies_only_with_the_secret() {
        let body = br#"{"email_address":"ada@example.com"}"#;
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"sec-1");
        let tag = hmac::sign(&key, b"email_address=ada%40example.com");
        let header = STANDARD.encode(tag.as_ref());
        assert!(verify(b"sec-1", &header, body));
        assert!(!verify(b"sec-2", &header, body));
        assert!(!verify(b"sec-1", "not base64!", body));
    }
}
