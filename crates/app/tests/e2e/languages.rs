//! The client's pages in English, French and Spanish (contract §14): chosen by `?lang`,
//! else `Accept-Language`, else the merchant's `default_language`; an upload from the
//! page told in that language what to fix; state and country chosen from lists.

use fixtures::degrade;
use fixtures::licence::Licence;
use serde_json::json;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::Scenario;
use crate::client_pages::send_quiz;
use crate::support::{Backend, Env, Part, Reply, multipart};

pub const SCENARIOS: &[Scenario] = &[
    (
        "the_pages_speak_the_links_language_then_the_browsers_then_the_merchants",
        chosen_language,
    ),
    (
        "an_upload_from_the_page_is_told_in_the_clients_language_what_to_fix",
        upload_told_what_to_fix,
    ),
    (
        "errors_lists_and_the_phone_hand_off_are_in_the_clients_language",
        errors_lists_and_hand_off,
    ),
];

const FRENCH_MONTHS: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];

fn page(env: &Env, path: &str, accept_language: Option<&str>) -> Reply {
    let headers: Vec<(&str, &str)> = accept_language
        .map(|l| vec![("Accept-Language", l)])
        .unwrap_or_default();
    env.client().send("GET", path, &headers, b"")
}

fn html_lang(reply: &Reply) -> String {
    let text = reply.text();
    let start = text
        .find("<html lang=\"")
        .expect("an html element with lang")
        + 12;
    text[start..start + 2].to_owned()
}

fn licence_quiz(env: &Env) -> (String, String) {
    let (token, long, _) = send_quiz(
        env,
        json!({"driver_licence_upload": 1, "address_submit": 1, "mobile_phone_submit": 2}),
    );
    (token, long)
}

fn chosen_language(backend: Backend) {
    let env = Env::start(backend);
    let client = env.client();
    let body = json!({"email_address": "ada@example.com", "mobile_number": "4165550123",
        "first_name": "Ada", "last_name": "Lovelace", "quiz_expiry_days": 7,
        "template": {"list": {"passport_upload": 1, "agreement_sign": 1}}});
    let created = client.call("quiz/create", &body);
    let out = created.assert_status(201).clone();
    let long = out["long_url"].as_str().expect("long_url");
    let tiny = out["tiny_url"].as_str().expect("tiny_url");
    let token = long.rsplit('/').next().expect("token");
    let path = format!("/quiz/{token}");

    // No choice anywhere: English.
    let english = page(&env, &path, None);
    assert_eq!((english.status, html_lang(&english)), (200, "en".into()));
    assert!(english.text().contains("Verify your identity"));

    // The browser's most preferred language the pages speak, by quality.
    let french = page(&env, &path, Some("de-DE, fr-CA;q=0.8, en;q=0.5"));
    assert_eq!(html_lang(&french), "fr");
    let text = french.text();
    assert!(text.contains("Vérifiez votre identité"), "{text}");
    assert!(text.contains("J’accepte") && !text.contains("I agree"));
    // The expiry date as French writes it.
    let expires =
        OffsetDateTime::parse(out["expires_at"].as_str().expect("at"), &Rfc3339).expect("RFC 3339");
    let month = FRENCH_MONTHS[usize::from(u8::from(expires.month())) - 1];
    let date = format!("{} {month} {}", expires.day(), expires.year());
    assert!(text.contains(&date), "{date} not in the page");
    let spanish = page(&env, &path, Some("fr;q=0.1, es;q=0.9"));
    assert_eq!(html_lang(&spanish), "es");
    assert!(spanish.text().contains("Verifique su identidad"));

    // The link's choice beats the browser's, and the page's forms keep it.
    let chosen = page(&env, &format!("{path}?lang=es"), Some("fr"));
    assert_eq!(html_lang(&chosen), "es");
    assert!(
        chosen
            .text()
            .contains(&format!("action=\"/quiz/{token}/agreement?lang=es\""))
    );
    // An unknown language in the link is no choice.
    assert_eq!(
        html_lang(&page(&env, &format!("{path}?lang=de"), Some("fr"))),
        "fr"
    );
    // The short address hands the choice on.
    let code = tiny.rsplit('/').next().expect("code");
    let short = page(&env, &format!("/q/{code}?lang=fr"), None);
    assert_eq!(short.status, 302);
    let location = short.header("Location").expect("Location");
    assert!(
        location.ends_with(&format!("/quiz/{token}?lang=fr")),
        "{location}"
    );

    // The merchant's default, for a browser that names none of the pages' languages.
    client
        .call(
            "merchant/settings/update",
            &json!({"default_language": "es"}),
        )
        .assert_status(200);
    let settings = client.call("merchant/settings/get", &json!({}));
    assert_eq!(settings.assert_status(200)["default_language"], "es");
    assert_eq!(html_lang(&page(&env, &path, None)), "es");
    assert_eq!(html_lang(&page(&env, &path, Some("de, *"))), "es");
    assert_eq!(html_lang(&page(&env, &path, Some("en-GB"))), "en");
    client
        .call(
            "merchant/settings/update",
            &json!({"default_language": "de"}),
        )
        .assert_error(400, &["DEFAULT_LANGUAGE_INVALID"]);
    assert_eq!(
        client
            .call("merchant/settings/get", &json!({}))
            .assert_status(200)["default_language"],
        "es"
    );

    // A link that names no quiz: the browser's language, else English.
    let missing = page(&env, "/quiz/no-such-token", Some("es-MX"));
    assert_eq!((missing.status, html_lang(&missing)), (404, "es".into()));
    assert!(missing.text().contains("Enlace no encontrado"));
    assert_eq!(html_lang(&page(&env, "/quiz/no-such-token", None)), "en");
}

/// Uploads one photo from the page's form (no `Accept: application/json`).
fn upload_as_a_person(env: &Env, action: &str, step: &str, side: &str, bytes: &[u8]) -> Reply {
    let parts = [
        ("step", Part::Text(step)),
        ("side", Part::Text(side)),
        (
            "file",
            Part::File {
                name: "photo.jpg",
                bytes,
            },
        ),
    ];
    let (content_type, body) = multipart(&parts);
    env.client()
        .send("POST", action, &[("Content-Type", &content_type)], &body)
}

fn upload_told_what_to_fix(backend: Backend) {
    let env = Env::start(backend);
    let (token, _) = licence_quiz(&env);
    let path = format!("/quiz/{token}");
    let form = page(&env, &format!("{path}?lang=fr"), None).text();
    // Each side is its own upload, offered the camera.
    for side in ["front", "back"] {
        assert!(
            form.contains(&format!(
                "<input type=\"hidden\" name=\"side\" value=\"{side}\">"
            )),
            "{side}"
        );
    }
    assert!(form.contains("capture=\"environment\""));
    assert!(form.contains("Recto du document") && form.contains("Verso du document"));

    let licence = Licence::sample();
    let blurred_small = degrade::jpeg(
        &degrade::scale(&degrade::blur(&licence.back(), 4.0), 0.4),
        80,
    );
    let action = format!("{path}/documents?lang=fr");
    let sent = upload_as_a_person(
        &env,
        &action,
        "driver_licence_upload",
        "back",
        &blurred_small,
    );
    assert_eq!(sent.status, 303, "{}", sent.text());
    let back = sent.header("Location").expect("Location").to_owned();
    assert!(back.starts_with(&format!("{path}?lang=fr&")), "{back}");
    let told = page(&env, &back, None);
    assert_eq!(html_lang(&told), "fr");
    let text = told.text();
    assert!(text.contains("risque d’être inutilisable"), "{text}");
    assert!(
        text.contains("rapprochez-vous"),
        "too small, told in French"
    );
    assert!(text.contains("ne bougez pas"), "blurred, told in French");

    // A usable photo of the front: told so, in Spanish this time.
    let front = degrade::jpeg(&licence.front(None), 92);
    let sent = upload_as_a_person(
        &env,
        &format!("{path}/documents?lang=es"),
        "driver_licence_upload",
        "front",
        &front,
    );
    assert_eq!(sent.status, 303);
    let told = page(&env, sent.header("Location").expect("Location"), None).text();
    assert!(told.contains("se ve nítida"), "{told}");
    assert!(!told.contains("Tómela de nuevo"));
}

fn errors_lists_and_hand_off(backend: Backend) {
    let env = Env::start(backend);
    let (token, _) = licence_quiz(&env);
    let path = format!("/quiz/{token}");
    let spanish = page(&env, &path, Some("es")).text();
    // State and country from lists.
    assert!(spanish.contains("<select id=\"state\" name=\"state\""));
    assert!(spanish.contains("<option value=\"QC\">"));
    assert!(spanish.contains("<option value=\"TX\">Texas</option>"));
    assert!(spanish.contains("<select id=\"country\" name=\"country\""));
    assert!(spanish.contains("<option value=\"CA\">Canada</option>"));
    // A desktop visitor may go on with a phone.
    assert!(spanish.contains("Continúe en su teléfono"));
    assert!(spanish.contains("src=\"data:image/svg+xml;base64,"));

    // A refused field, told in the client's language next to it.
    let refused = env.client().send(
        "POST",
        &format!("{path}/fields?lang=es"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        b"mobile_number=12",
    );
    assert_eq!((refused.status, html_lang(&refused)), (400, "es".into()));
    let text = refused.text();
    assert!(text.contains("Escriba 10 dígitos."), "{text}");
    assert!(!text.contains("must be"), "no English reason: {text}");

    // Chosen from the lists, stored as sent.
    let saved = env.client().send(
        "POST",
        &format!("{path}/fields?lang=es"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        b"address_line_1=1+Rue+Sainte-Catherine&city=Montreal&state=QC&postal=H2X+1Z4&country=CA",
    );
    assert_eq!(saved.status, 303);
    assert_eq!(
        saved.header("Location"),
        Some(format!("{path}?lang=es").as_str())
    );
}
