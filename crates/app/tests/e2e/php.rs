//! The compatibility scheme proven with PHP itself: bodies signed by PHP's own
//! `http_build_query`, `hash_hmac` and `base64_encode`, the way the hosted product's
//! sample code signs, are all accepted. Needs `php` (Debian's php-cli); without it the test
//! is ignored, and under `IDV_TEST_REQUIRE_PHP=1` (CI) it fails.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::{Backend, Env};

pub fn available() -> bool {
    Command::new("php")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What the sample code does: decode the request array, sign `http_build_query` of it,
/// send it JSON-encoded. One request per line: `{"body": ..., "signature": ...}`.
const SIGNER: &str = r#"
$secret = $argv[1];
foreach (json_decode(stream_get_contents(STDIN), true) as $request) {
    $query = http_build_query($request);
    $signature = base64_encode(hash_hmac('sha256', $query, $secret, true));
    echo json_encode(['body' => json_encode($request), 'signature' => $signature]), "\n";
}
"#;

/// Bodies that stress the encoding: unicode, `+` and spaces, nested template lists,
/// floats, booleans, empty strings, numeric strings, nulls.
fn corpus() -> Vec<(&'static str, Value)> {
    let pair = |email: &str| json!({"email_address": email, "mobile_number": "4165550123"});
    vec![
        ("profile/get", pair("ada@example.com")),
        ("profile/get", pair("ada+kyc@example.com")),
        (
            "profile/create",
            json!({"email_address": "zoe@example.com", "mobile_number": "4165550124",
                   "first_name": "Zoë", "last_name": "東京 Müller", "middle_name": "Ann Marie",
                   "amount": 12.5, "customer_id": "0042", "merchant_reference": "ref 1+1=2 & more"}),
        ),
        (
            "profile/update",
            json!({"email_address": "zoe@example.com", "mobile_number": "4165550124",
                   "first_name": "Zoë", "last_name": "Müller", "amount": 100.0, "city": "",
                   "home_phone_number": null, "ip_address": "2001:db8::1"}),
        ),
        (
            "template/create",
            json!({"template_name": "Full KYC", "list": {"passport_upload": 1, "selfie_upload": 2,
                   "address_submit": "1", "ssn_submit": 0, "agreement_sign": true}}),
        ),
        (
            "quiz/create",
            json!({"email_address": "zoe@example.com", "mobile_number": "4165550124",
                   "first_name": "Zoë", "last_name": "Müller", "quiz_expiry_days": 7.0,
                   "template": {"template_name": "Ad hoc ~ list", "list": {"passport_upload": 1,
                   "device_finger_print": false}}}),
        ),
        (
            "merchant/settings/update",
            json!({"quiz_expiry_days": "10"}),
        ),
    ]
}

pub fn php_signs_like_the_hosted_products_sample_code(backend: Backend) {
    let env = Env::start(backend);
    let compat = env.server.create_key(&env.merchant, true);
    let bodies: Vec<Value> = corpus().into_iter().map(|(_, b)| b).collect();
    let mut php = Command::new("php")
        .args(["-r", SIGNER, &compat.api_secret])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("php runs");
    php.stdin
        .take()
        .expect("stdin")
        .write_all(Value::Array(bodies).to_string().as_bytes())
        .expect("corpus sent");
    let out = php.wait_with_output().expect("php ends");
    assert!(out.status.success(), "php failed");
    let signed: Vec<Value> = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON line"))
        .collect();
    assert_eq!(signed.len(), corpus().len());
    let c = env.client();
    for ((operation, _), request) in corpus().into_iter().zip(signed) {
        let body = request["body"].as_str().expect("body");
        let signature = request["signature"].as_str().expect("signature");
        let reply = c.send(
            "POST",
            &format!("/api/v1/{operation}"),
            &[("Api-Key", &compat.api_key), ("Signature", signature)],
            body.as_bytes(),
        );
        assert_ne!(reply.status, 401, "{operation} {body}: {}", reply.body);
        assert!(reply.status < 500, "{operation} {body}: {}", reply.body);
    }
}
