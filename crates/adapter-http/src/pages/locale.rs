//! The language of the client's pages (contract §14): chosen by `?lang`, else the
//! browser's `Accept-Language`, else the merchant's `default_language`; the texts come
//! from Fluent files, one per language, compiled into the binary.

use std::fmt::Display;
use std::sync::LazyLock;

use actix_web::HttpRequest;
use actix_web::http::header::{AcceptLanguage, Header, Preference};
use domain::merchant::Language;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// One bundle per language, in `Language::ALL` order.
static BUNDLES: LazyLock<Vec<FluentBundle<FluentResource>>> =
    LazyLock::new(|| Language::ALL.iter().copied().map(bundle).collect());

fn source(language: Language) -> &'static str {
    match language {
        Language::En => include_str!("../../locales/en.ftl"),
        Language::Fr => include_str!("../../locales/fr.ftl"),
        Language::Es => include_str!("../../locales/es.ftl"),
    }
}

fn bundle(language: Language) -> FluentBundle<FluentResource> {
    let resource = FluentResource::try_new(source(language).to_owned())
        .unwrap_or_else(|(_, errors)| panic!("{}.ftl: {errors:?}", language.as_str()));
    let id = language
        .as_str()
        .parse()
        .expect("an ISO 639-1 code is a language identifier");
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // The pages escape what they show; Unicode isolation marks around placeables would
    // only show up as stray characters in form values and titles.
    bundle.set_use_isolating(false);
    bundle
        .add_resource(resource)
        .unwrap_or_else(|errors| panic!("{}.ftl: {errors:?}", language.as_str()));
    bundle
}

/// The language a page speaks, and whether the link chose it (then the page's own
/// links and forms carry it on, so a client who picked a language keeps it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Locale {
    pub language: Language,
    chosen_by_link: bool,
}

impl Locale {
    /// `?lang`, else the first of `Accept-Language`'s languages (by quality) that the
    /// pages speak, else `fallback` (the merchant's default, or English where no
    /// merchant is known).
    pub fn of(req: &HttpRequest, fallback: Language) -> Self {
        if let Some(language) = from_query(req.query_string()) {
            return Self {
                language,
                chosen_by_link: true,
            };
        }
        Self {
            language: from_browser(req).unwrap_or(fallback),
            chosen_by_link: false,
        }
    }

    /// What an address the request leads to ends with to keep the language its link
    /// chose: `?lang=fr`, or nothing (the browser and the merchant choose again there).
    pub fn kept_by_link(req: &HttpRequest) -> String {
        from_query(req.query_string())
            .map(|language| format!("?lang={}", language.as_str()))
            .unwrap_or_default()
    }

    /// What a page's own addresses end with to keep the language: `?lang=fr`, or
    /// nothing when the link did not choose it.
    pub fn query(&self) -> String {
        if self.chosen_by_link {
            format!("?lang={}", self.language.as_str())
        } else {
            String::new()
        }
    }

    /// The text `id` in this language.
    pub fn text(&self, id: &str) -> String {
        self.format(id, None)
    }

    /// The text `id` with its placeables filled in.
    pub fn fill(&self, id: &str, args: &[(&str, &dyn Display)]) -> String {
        let mut fluent = FluentArgs::new();
        for (name, value) in args {
            fluent.set(*name, FluentValue::from(value.to_string()));
        }
        self.format(id, Some(&fluent))
    }

    /// English, French or Spanish whatever the request (a language's own name).
    pub fn fixed(language: Language) -> Self {
        Self {
            language,
            chosen_by_link: false,
        }
    }

    /// Whether this language has a text `id` (error codes without one of their own
    /// fall back on a general text).
    pub fn has(&self, id: &str) -> bool {
        bundle_of(self.language).has_message(id)
    }

    /// "27 November 2026, 10:55 UTC", "27 novembre 2026, 10 h 55 UTC", "27 de
    /// noviembre de 2026, 10:55 UTC".
    pub fn date_time(&self, t: domain::OffsetDateTime) -> String {
        let t = t.to_offset(time::UtcOffset::UTC);
        let month = self.text(&format!("month-{}", u8::from(t.month())));
        let (hour, minute) = (format!("{:02}", t.hour()), format!("{:02}", t.minute()));
        self.fill(
            "date-time",
            &[
                ("day", &t.day()),
                ("month", &month),
                ("year", &t.year()),
                ("hour", &hour),
                ("minute", &minute),
            ],
        )
    }

    fn format(&self, id: &str, args: Option<&FluentArgs>) -> String {
        let bundle = bundle_of(self.language);
        let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
            // A missing text is a fault the unit tests catch; the page still shows
            // something a reader can report.
            tracing::error!(id, language = self.language.as_str(), "page text missing");
            return id.to_owned();
        };
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, args, &mut errors);
        if !errors.is_empty() {
            tracing::error!(id, ?errors, "page text could not be filled in");
        }
        text.into_owned()
    }
}

/// A language by its own name ("Français"), as a list of languages shows it.
pub fn language_name(language: Language) -> String {
    Locale::fixed(language).text("language-name")
}

fn bundle_of(language: Language) -> &'static FluentBundle<FluentResource> {
    let index = Language::ALL
        .iter()
        .position(|l| *l == language)
        .expect("every language is in Language::ALL");
    &BUNDLES[index]
}

fn from_query(query: &str) -> Option<Language> {
    serde_urlencoded::from_str::<Vec<(String, String)>>(query)
        .ok()?
        .into_iter()
        .find(|(name, _)| name == "lang")
        .and_then(|(_, code)| Language::parse(&code).ok())
}

/// The browser's most preferred language the pages speak (`fr-CA` is French); a
/// wildcard or a header that cannot be read names none.
fn from_browser(req: &HttpRequest) -> Option<Language> {
    let header = AcceptLanguage::parse(req).ok()?;
    header
        .ranked()
        .into_iter()
        .find_map(|preference| match preference {
            Preference::Specific(tag) => Language::parse(tag.primary_language()).ok(),
            Preference::Any => None,
        })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use actix_web::test::TestRequest;

    use super::*;

    /// The message ids of a file: each message starts a line with `id =` (the files
    /// hold no multi-line values).
    fn ids(language: Language) -> BTreeSet<&'static str> {
        source(language)
            .lines()
            .filter(|line| line.starts_with(|c: char| c.is_ascii_alphabetic()))
            .filter_map(|line| line.split_once(" = ").map(|(id, _)| id))
            .collect()
    }

    #[test]
    fn every_language_has_every_text() {
        let english = ids(Language::En);
        for language in [Language::Fr, Language::Es] {
            assert_eq!(ids(language), english, "{} differs", language.as_str());
        }
        // Every bundle builds, and every step has its name in each language.
        for &language in Language::ALL {
            let locale = Locale::fixed(language);
            for &step in domain::template::Feature::ALL {
                assert!(locale.has(&format!("step-{}", step.name())), "{step:?}");
            }
            for issue in domain::verification::QualityIssue::ALL {
                assert!(locale.has(&format!("quality-{}", issue.reason().as_str())));
            }
        }
    }

    #[test]
    fn the_link_wins_then_the_browser_then_the_merchant() {
        let req = TestRequest::with_uri("/quiz/t?lang=es")
            .insert_header(("Accept-Language", "fr-CA"))
            .to_http_request();
        let locale = Locale::of(&req, Language::En);
        assert_eq!(
            (locale.language, locale.query()),
            (Language::Es, "?lang=es".into())
        );

        let req = TestRequest::with_uri("/quiz/t?lang=de")
            .insert_header(("Accept-Language", "de-DE, fr-CA;q=0.8, en;q=0.5"))
            .to_http_request();
        let locale = Locale::of(&req, Language::Es);
        assert_eq!(
            (locale.language, locale.query()),
            (Language::Fr, String::new())
        );

        let req = TestRequest::with_uri("/quiz/t")
            .insert_header(("Accept-Language", "fr;q=0.1, es;q=0.9"))
            .to_http_request();
        assert_eq!(Locale::of(&req, Language::En).language, Language::Es);

        let req = TestRequest::with_uri("/quiz/t")
            .insert_header(("Accept-Language", "de, *"))
            .to_http_request();
        assert_eq!(Locale::of(&req, Language::Fr).language, Language::Fr);
    }

    #[test]
    fn dates_are_written_the_way_each_language_writes_them() {
        let t = time::macros::datetime!(2026-11-27 10:05 UTC);
        let at = |language| Locale::fixed(language).date_time(t);
        assert_eq!(at(Language::En), "27 November 2026, 10:05 UTC");
        assert_eq!(at(Language::Fr), "27 novembre 2026, 10 h 05 UTC");
        assert_eq!(at(Language::Es), "27 de noviembre de 2026, 10:05 UTC");
    }

    #[test]
    fn placeables_are_filled_in_without_isolation_marks() {
        assert_eq!(
            Locale::fixed(Language::Fr).fill("thanks-text", &[("merchant", &"Acme")]),
            "Votre vérification a été envoyée à Acme. Vous pouvez fermer cette page."
        );
    }
}
