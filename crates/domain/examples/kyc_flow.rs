//! A merchant tool's starting point: the services of `domain` wired on the in-memory
//! adapters and a fixed clock; a merchant sends a client a quiz, the client hands in an
//! address and a passport scan and submits, and the activity log is printed.
//!
//! `cargo run -p domain --example kyc_flow --features memory`

use std::sync::Arc;

use domain::document::FileType;
use domain::event::Actor;
use domain::memory::{
    FixedClock, MemoryAudit, MemoryDocuments, MemoryFiles, MemoryMerchants, MemoryProfiles,
    MemoryQuizzes, MemoryTemplates, ScriptedImages, SequentialIds, outbox,
};
use domain::paging::Page;
use domain::profile::{
    Address, AttributesPatch, Country, Email, LongText, PhoneNumber, Postal, ProfileChanges,
    ProfileKey, ShortText, State,
};
use domain::quiz::{QuizLink, UploadLimits};
use domain::services::{
    ClientPorts, ClientService, DocumentPorts, DocumentService, FieldsInput, IncomingFile,
    MerchantPorts, MerchantService, ProfilePorts, ProfileService, QuizPorts, QuizRequest,
    QuizService, TemplateChoice,
};
use domain::template::{Feature, Requirement};

use std::fmt::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut out = String::new();
    futures_executor::block_on(run(&mut out))?;
    print!("{out}");
    Ok(())
}

/// The whole flow; what it would print goes to `out`.
async fn run(out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    // The adapters: one in-memory store, a clock that stands still, predictable ids.
    let data = Arc::new(MemoryProfiles::default());
    let merchants = Arc::new(MemoryMerchants::default());
    let quizzes = Arc::new(MemoryQuizzes::new(data.clone()));
    let files = Arc::new(MemoryFiles::default());
    let clock = Arc::new(FixedClock::default());
    let ids = Arc::new(SequentialIds::default());
    let public_url = "https://idv.example";

    // The services, each over the ports it needs.
    let merchant_service = MerchantService::new(MerchantPorts {
        merchants: merchants.clone(),
        audit: Arc::new(MemoryAudit::default()),
        clock: clock.clone(),
        ids: ids.clone(),
        secrets: ids.clone(),
    });
    let quiz_service = QuizService::new(
        QuizPorts {
            quizzes: quizzes.clone(),
            profiles: data.clone(),
            templates: Arc::new(MemoryTemplates::default()),
            merchants: merchants.clone(),
            clock: clock.clone(),
            ids: ids.clone(),
            secrets: ids.clone(),
            outbox: outbox(ids.clone()),
        },
        public_url,
    );
    let client = ClientService::new(
        ClientPorts {
            quizzes,
            merchants,
            store: files.clone(),
            images: Arc::new(ScriptedImages::default()),
            clock: clock.clone(),
            ids: ids.clone(),
            outbox: outbox(ids.clone()),
        },
        public_url,
        UploadLimits::default(),
    );
    let profiles = ProfileService::new(ProfilePorts {
        profiles: data.clone(),
        store: files.clone(),
        clock: clock.clone(),
        ids: ids.clone(),
        outbox: outbox(ids.clone()),
    });
    let documents = DocumentService::new(DocumentPorts {
        profiles: data.clone(),
        documents: Arc::new(MemoryDocuments(data)),
        store: files,
        clock,
        outbox: outbox(ids),
    });

    // The merchant sends Ada a quiz asking for her address and her passport.
    let (merchant, _key) = merchant_service.create("Acme").await?;
    let key = ProfileKey {
        email: Email::parse("ada@example.com")?,
        mobile: PhoneNumber::parse("4165550123")?,
    };
    let request = QuizRequest {
        key: key.clone(),
        changes: ProfileChanges {
            first_name: ShortText::parse("Ada")?,
            last_name: ShortText::parse("Lovelace")?,
            attributes: AttributesPatch::default(),
        },
        expiry_days: None,
        redirect_url: None,
        template: TemplateChoice {
            template_id: None,
            list: Some(vec![
                (Feature::AddressSubmit, Requirement::Required),
                (Feature::PassportUpload, Requirement::Required),
            ]),
            name: Some("Onboarding".into()),
        },
    };
    let sent = quiz_service
        .create(&merchant.id, request, Actor::Api)
        .await?;
    let links = quiz_service.links(&sent.quiz);
    writeln!(out, "quiz sent: {}", links.tiny_url)?;

    // Ada opens the link, types her address, uploads her passport, submits.
    let link = QuizLink::Token(sent.quiz.token.clone());
    let session = client.open(&link).await?;
    writeln!(
        out,
        "{} asks for {} steps",
        session.merchant_name,
        session.view.quiz.missing_steps().len()
    )?;
    let address = Address::new(
        LongText::parse("1 Main St")?,
        None,
        ShortText::parse("Toronto")?,
        Some(State::parse("ON")?),
        Postal::parse("M5V 2T6")?,
        Country::parse("CA")?,
    )
    .map_err(|v| v.to_string())?;
    let fields = FieldsInput {
        address: Some(address),
        ..FieldsInput::default()
    };
    client.submit_fields(&link, fields).await?;
    let (file_id, mut upload) = client.begin_file().await?;
    upload
        .write(b"...the passport scan's bytes...".to_vec())
        .await?;
    upload.finish().await?;
    let passport = IncomingFile {
        file_id,
        file_name: "passport.jpg".into(),
        file_type: Some(FileType::Jpeg),
        pixels: Some(1200 * 800),
        sha256: "0".repeat(64),
        size_bytes: 31,
    };
    client
        .upload(&link, Feature::PassportUpload, None, vec![passport])
        .await?;
    client.complete(&link).await?;

    // The merchant reviews: the document, then the activity log, oldest first.
    let page = Page::new(0, 50)?;
    let (_, handed_in) = documents.list(&merchant.id, &key, page).await?;
    writeln!(out, "documents: {}", handed_in.items.len())?;
    let mut log = profiles.events(&merchant.id, &key, page).await?.items;
    log.reverse();
    for event in log {
        writeln!(out, "{:<22} {}", event.activity.as_str(), event.details)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_example_plays_a_whole_quiz_and_logs_every_step() {
        let mut out = String::new();
        futures_executor::block_on(super::run(&mut out)).expect("the flow runs");
        let activities: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("profile_created"))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert_eq!(
            activities,
            [
                "profile_created",
                "quiz_created",
                "quiz_opened",
                "form_fields_submitted",
                "document_uploaded",
                "quiz_submitted"
            ],
            "{out}"
        );
        assert!(out.contains("Acme asks for 2 steps"), "{out}");
        assert!(out.contains("documents: 1"), "{out}");
    }
}
