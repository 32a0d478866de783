//! merchant/settings/get and update.

use serde_json::json;

use crate::Scenario;
use crate::support::{Backend, Env};

pub const SCENARIOS: &[Scenario] = &[
    (
        "merchant_settings_default_to_five_days_and_can_be_changed",
        defaults_and_update,
    ),
    (
        "merchant_settings_refuse_days_outside_one_to_thirty",
        refuse_out_of_range,
    ),
];

fn defaults_and_update(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let got = client.call("merchant/settings/get", &json!({}));
    assert_eq!(got.assert_status(200)["quiz_expiry_days"], 5);
    let updated = client.call("merchant/settings/update", &json!({"quiz_expiry_days": 30}));
    assert_eq!(updated.assert_status(200)["quiz_expiry_days"], 30);
    let got = client.call("merchant/settings/get", &json!({}));
    assert_eq!(got.assert_status(200)["quiz_expiry_days"], 30);
    let other = env.server.client(&env.server.create_merchant("Other"));
    let theirs = other.call("merchant/settings/get", &json!({}));
    assert_eq!(
        theirs.assert_status(200)["quiz_expiry_days"],
        5,
        "settings are per merchant"
    );
}

fn refuse_out_of_range(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    for days in [json!(0), json!(31), json!("abc"), json!(2.5)] {
        client
            .call(
                "merchant/settings/update",
                &json!({"quiz_expiry_days": days}),
            )
            .assert_error(400, &["QUIZ_EXPIRY_DAYS_INVALID"]);
    }
    client
        .call("merchant/settings/update", &json!({}))
        .assert_error(400, &["QUIZ_EXPIRY_DAYS_REQUIRED"]);
    let got = client.call("merchant/settings/get", &json!({}));
    assert_eq!(got.assert_status(200)["quiz_expiry_days"], 5, "unchanged");
}
