use std::sync::Arc;

use crate::error::{DomainError, Resource};
use crate::event::{Activity, Actor, Event};
use crate::ids::{QuizId, TemplateId};
use crate::merchant::{MerchantId, QuizExpiryDays};
use crate::outbox::Outbox;
use crate::paging::{Page, Paged};
use crate::ports::{
    Clock, IdGenerator, MerchantRepository, ProfileRepository, ProfileWrite, QuizRepository,
    SecretGenerator, StoreError, TemplateRepository,
};
use crate::profile::{Profile, ProfileChanges, ProfileId, ProfileKey};
use crate::quiz::{
    Quiz, QuizLink, QuizLinks, QuizWithClient, RedirectUrl, TemplateSnapshot, expiry_days,
};
use crate::services::templates::{ListChanges, apply_list};
use crate::template::{FeatureList, FeatureSet};

/// Random bytes in a quiz's long address, and characters in its short code.
const TOKEN_BYTES: usize = 32;
const CODE_LEN: usize = 10;
/// The name of a temporary template when the request gives none.
const CUSTOM_TEMPLATE_NAME: &str = "Custom";
/// Concurrent quiz/create calls for one new client race to create its profile; each lost
/// race is retried against the profile the winner stored.
const MAX_ATTEMPTS: usize = 16;

/// Which template a new quiz uses. A `template_id` naming one of the merchant's templates
/// wins; otherwise `list` makes a temporary template.
#[derive(Debug, Clone, Default)]
pub struct TemplateChoice {
    /// A stored template of the merchant (wins over `list`).
    pub template_id: Option<TemplateId>,
    /// A list sent with the quiz.
    pub list: Option<ListChanges>,
    /// The name of a list sent with the quiz (default `Custom`).
    pub name: Option<String>,
}

/// Everything quiz/create asks for.
#[derive(Debug, Clone)]
pub struct QuizRequest {
    /// The client's pair.
    pub key: ProfileKey,
    /// The client's fields: the profile is created or updated with them.
    pub changes: ProfileChanges,
    /// The raw request when it held a whole number; anything else is `None`.
    pub expiry_days: Option<i64>,
    /// Which template the quiz uses.
    pub template: TemplateChoice,
    /// Where the client's browser goes after submitting, if anywhere.
    pub redirect_url: Option<RedirectUrl>,
}

/// The merchant's side of quizzes: sending, reading, ending and withdrawing links.
#[derive(Clone)]
pub struct QuizService {
    quizzes: Arc<dyn QuizRepository>,
    profiles: Arc<dyn ProfileRepository>,
    templates: Arc<dyn TemplateRepository>,
    merchants: Arc<dyn MerchantRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    secrets: Arc<dyn SecretGenerator>,
    outbox: Outbox,
    public_url: String,
}

debug_as_name!(QuizService);

/// The ports a [`QuizService`] works through.
#[derive(Clone)]
pub struct QuizPorts {
    /// Quizzes.
    pub quizzes: Arc<dyn QuizRepository>,
    /// Profiles.
    pub profiles: Arc<dyn ProfileRepository>,
    /// Templates.
    pub templates: Arc<dyn TemplateRepository>,
    /// Merchants (for their default expiry).
    pub merchants: Arc<dyn MerchantRepository>,
    /// The clock.
    pub clock: Arc<dyn Clock>,
    /// Ids.
    pub ids: Arc<dyn IdGenerator>,
    /// Link secrets.
    pub secrets: Arc<dyn SecretGenerator>,
    /// Where the events go, with the deliveries they owe.
    pub outbox: Outbox,
}

debug_as_name!(QuizPorts);

impl QuizService {
    /// `public_url` is where clients reach the service; quiz addresses live under it.
    pub fn new(ports: QuizPorts, public_url: impl Into<String>) -> Self {
        Self {
            quizzes: ports.quizzes,
            profiles: ports.profiles,
            templates: ports.templates,
            merchants: ports.merchants,
            clock: ports.clock,
            ids: ports.ids,
            secrets: ports.secrets,
            outbox: ports.outbox,
            public_url: public_url.into(),
        }
    }

    /// The quiz's addresses.
    pub fn links(&self, quiz: &Quiz) -> QuizLinks {
        QuizLinks::of(&self.public_url, quiz)
    }

    /// Creates the quiz, creating the client's profile or updating it with the request's
    /// attributes, all in one transaction with their events. The whole flow, from sending
    /// a quiz to its submission, is `examples/kyc_flow.rs`.
    pub async fn create(
        &self,
        merchant: &MerchantId,
        request: QuizRequest,
        actor: Actor<'_>,
    ) -> Result<QuizWithClient, DomainError> {
        let template = self.choose_template(merchant, &request.template).await?;
        let default_days = self.default_expiry(merchant).await?;
        let days = expiry_days(request.expiry_days, default_days);
        for _ in 0..MAX_ATTEMPTS {
            let now = self.clock.now();
            let (write, profile_event) = self.client_write(merchant, &request, actor, now).await?;
            let profile = match &write {
                ProfileWrite::Insert(p) | ProfileWrite::Update(p) => p.clone(),
            };
            let quiz = Quiz {
                id: self.ids.next_id().into(),
                merchant_id: merchant.clone(),
                profile_id: profile.id.clone(),
                token: self.secrets.url_token(TOKEN_BYTES).into(),
                code: self.secrets.base62(CODE_LEN).into(),
                template: template.clone(),
                expiry_days: days,
                created_at: now,
                expires_at: Quiz::expires_at(now, days),
                expired_at: None,
                submitted_at: None,
                deleted_at: None,
                opened_at: None,
                completed: FeatureSet::default(),
                redirect_url: request.redirect_url.clone(),
            };
            let details = actor.sign(format!("Quiz sent, valid for {} days", days.days()));
            let links = self.links(&quiz);
            let quiz_event =
                self.outbox
                    .quiz_event(&profile, &quiz, links, Activity::QuizCreated, details, now);
            let entries = self.outbox.entries(vec![profile_event, quiz_event]).await?;
            match self.quizzes.create(&write, &quiz, &entries).await {
                Ok(()) => {
                    return Ok(QuizWithClient {
                        quiz,
                        client: profile,
                    });
                }
                // Lost a race for the profile: read it again and retry.
                Err(StoreError::Conflict) => continue,
                Err(StoreError::Duplicate) if matches!(write, ProfileWrite::Insert(_)) => {
                    if self.profiles.find(merchant, &request.key).await?.is_none() {
                        // The e-mail or the mobile belongs to another client: not a race.
                        return Err(DomainError::ProfileExists);
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(DomainError::Unavailable(
            "the profile kept changing concurrently; try again".into(),
        ))
    }

    /// The client's profile as this request leaves it (updated, or new), and the event
    /// that records it.
    async fn client_write(
        &self,
        merchant: &MerchantId,
        request: &QuizRequest,
        actor: Actor<'_>,
        now: time::OffsetDateTime,
    ) -> Result<(ProfileWrite, Event), DomainError> {
        match self.profiles.find(merchant, &request.key).await? {
            Some(mut profile) => {
                profile.apply(request.changes.clone(), now)?;
                profile.revision += 1;
                let details = actor.sign("Profile updated by a new quiz");
                let event = self
                    .outbox
                    .event(&profile, Activity::ProfileUpdated, details, now);
                Ok((ProfileWrite::Update(profile), event))
            }
            None => {
                let profile = Profile::create(
                    ProfileId::new(self.ids.next_id()),
                    merchant.clone(),
                    request.key.clone(),
                    request.changes.clone(),
                    now,
                )?;
                // No name, as for profile/create.
                let details = actor.sign("Profile created by a new quiz");
                let event = self
                    .outbox
                    .event(&profile, Activity::ProfileCreated, details, now);
                Ok((ProfileWrite::Insert(profile), event))
            }
        }
    }

    /// The merchant's quiz behind a link.
    pub async fn get(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
    ) -> Result<QuizWithClient, DomainError> {
        self.quizzes
            .find(merchant, link)
            .await?
            .ok_or(DomainError::NotFound(Resource::Quiz))
    }

    /// The merchant's quiz with this id.
    pub async fn get_by_id(
        &self,
        merchant: &MerchantId,
        id: &QuizId,
    ) -> Result<QuizWithClient, DomainError> {
        self.quizzes
            .find_by_id(merchant, id)
            .await?
            .ok_or(DomainError::NotFound(Resource::Quiz))
    }

    /// The quizzes of a profile (found through the merchant's own lookups), newest first.
    pub async fn list_of_profile(
        &self,
        profile: &Profile,
        page: Page,
    ) -> Result<Paged<Quiz>, DomainError> {
        Ok(self.quizzes.list_of_profile(&profile.id, page).await?)
    }

    /// The merchant's quizzes, newest first.
    pub async fn list(
        &self,
        merchant: &MerchantId,
        page: Page,
    ) -> Result<Paged<QuizWithClient>, DomainError> {
        Ok(self.quizzes.list(merchant, page).await?)
    }

    /// Ends the quiz before its time. Refused if it has already expired, either way.
    pub async fn expire(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
    ) -> Result<Quiz, DomainError> {
        let QuizWithClient { mut quiz, client } = self.get(merchant, link).await?;
        let now = self.clock.now();
        if quiz.is_expired(now) {
            return Err(DomainError::QuizExpired);
        }
        quiz.expired_at = Some(now);
        let entry = self
            .outbox
            .record_about_quiz(
                &client,
                &quiz,
                self.links(&quiz),
                Activity::QuizExpired,
                "Quiz ended by the merchant",
                now,
            )
            .await?;
        match self.quizzes.mark_expired(&quiz, &entry).await {
            Ok(()) => Ok(quiz),
            Err(StoreError::Conflict) => Err(DomainError::QuizExpired),
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::Quiz)),
            Err(e) => Err(e.into()),
        }
    }

    /// Makes the quiz valid for `days` from now, opening it again if it had expired (by
    /// time or by quiz/expire). Refused for a submitted quiz (`QuizSubmitted`); a deleted
    /// one is not found.
    pub async fn extend(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
        days: QuizExpiryDays,
    ) -> Result<QuizWithClient, DomainError> {
        let QuizWithClient { mut quiz, client } = self.get(merchant, link).await?;
        let now = self.clock.now();
        quiz.extend(days, now)?;
        let details = format!("Quiz extended, valid for {} days", days.days());
        let links = self.links(&quiz);
        let entry = self
            .outbox
            .record_about_quiz(&client, &quiz, links, Activity::QuizExtended, details, now)
            .await?;
        match self.quizzes.mark_extended(&quiz, &entry).await {
            Ok(()) => Ok(QuizWithClient { quiz, client }),
            // Submitted or deleted since it was read.
            Err(StoreError::Conflict) => Err(DomainError::QuizSubmitted),
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::Quiz)),
            Err(e) => Err(e.into()),
        }
    }

    /// Deletes the quiz: gone for every later call; its events stay in the log.
    pub async fn delete(
        &self,
        merchant: &MerchantId,
        link: &QuizLink,
    ) -> Result<Quiz, DomainError> {
        let QuizWithClient { mut quiz, client } = self.get(merchant, link).await?;
        let now = self.clock.now();
        quiz.deleted_at = Some(now);
        let entry = self
            .outbox
            .record_about_quiz(
                &client,
                &quiz,
                self.links(&quiz),
                Activity::QuizDeleted,
                "Quiz deleted by the merchant",
                now,
            )
            .await?;
        match self.quizzes.mark_deleted(&quiz, &entry).await {
            Ok(()) => Ok(quiz),
            Err(StoreError::Missing) => Err(DomainError::NotFound(Resource::Quiz)),
            Err(e) => Err(e.into()),
        }
    }

    async fn default_expiry(&self, merchant: &MerchantId) -> Result<QuizExpiryDays, DomainError> {
        let merchant = self.merchants.find(merchant).await?;
        Ok(merchant
            .map(|m| m.settings.quiz_expiry_days)
            .unwrap_or_default())
    }

    /// The snapshot the quiz keeps: of the stored template named, else of the list.
    async fn choose_template(
        &self,
        merchant: &MerchantId,
        choice: &TemplateChoice,
    ) -> Result<TemplateSnapshot, DomainError> {
        if let Some(id) = &choice.template_id
            && let Some(stored) = self.templates.find(merchant, id).await?
        {
            return Ok(TemplateSnapshot {
                template_id: Some(stored.id),
                name: stored.name,
                list: stored.list,
                created_at: stored.created_at,
            });
        }
        match (&choice.list, &choice.template_id) {
            // A temporary template is born with its quiz.
            (Some(changes), _) => Ok(TemplateSnapshot {
                template_id: None,
                name: choice
                    .name
                    .clone()
                    .unwrap_or_else(|| CUSTOM_TEMPLATE_NAME.to_owned()),
                list: apply_list(FeatureList::default(), changes)?,
                created_at: self.clock.now(),
            }),
            (None, Some(_)) => Err(DomainError::NotFound(Resource::Template)),
            (None, None) => Err(DomainError::TemplateRequired),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{
        FixedClock, MemoryMerchants, MemoryProfiles, MemoryQuizzes, MemoryTemplates, SequentialIds,
    };
    use crate::merchant::{Merchant, MerchantSettings};
    use crate::profile::{AttributesPatch, Email, PhoneNumber, ShortText};
    use crate::services::{TemplatePorts, TemplateService};
    use crate::template::{Feature, Requirement};
    use futures_executor::block_on;

    struct World {
        quizzes: QuizService,
        templates: TemplateService,
    }

    fn world() -> World {
        let clock = Arc::new(FixedClock::default());
        let ids = Arc::new(SequentialIds::default());
        let profiles = Arc::new(MemoryProfiles::default());
        let templates = Arc::new(MemoryTemplates::default());
        let merchants = Arc::new(MemoryMerchants::default());
        let settings = MerchantSettings {
            quiz_expiry_days: QuizExpiryDays::new(12).expect("valid"),
            ..MerchantSettings::default()
        };
        let merchant = Merchant {
            id: m(),
            name: "Acme".into(),
            settings,
            created_at: clock.0,
        };
        merchants.insert(merchant);
        let ports = QuizPorts {
            quizzes: Arc::new(MemoryQuizzes::new(profiles.clone())),
            profiles,
            templates: templates.clone(),
            merchants,
            clock: clock.clone(),
            ids: ids.clone(),
            secrets: ids.clone(),
            outbox: crate::memory::outbox(ids.clone()),
        };
        World {
            quizzes: QuizService::new(ports, "https://idv.example"),
            templates: TemplateService::new(TemplatePorts {
                templates,
                clock,
                ids,
            }),
        }
    }

    fn m() -> MerchantId {
        MerchantId::new("m1")
    }

    fn request(template: TemplateChoice, expiry_days: Option<i64>) -> QuizRequest {
        QuizRequest {
            key: ProfileKey {
                email: Email::parse("ada@example.com").expect("valid"),
                mobile: PhoneNumber::parse("4165550123").expect("valid"),
            },
            changes: ProfileChanges {
                first_name: ShortText::parse("Ada").expect("valid"),
                last_name: ShortText::parse("Lovelace").expect("valid"),
                attributes: AttributesPatch::default(),
            },
            expiry_days,
            template,
            redirect_url: None,
        }
    }

    fn selfie() -> ListChanges {
        vec![(Feature::SelfieUpload, Requirement::Required)]
    }

    fn stored_template(w: &World) -> TemplateId {
        block_on(w.templates.create(
            &m(),
            "KYC".into(),
            &vec![(Feature::PassportUpload, Requirement::Required)],
        ))
        .expect("created")
        .id
    }

    #[test]
    fn a_stored_template_wins_over_a_list() {
        let w = world();
        let id = stored_template(&w);
        let choice = TemplateChoice {
            template_id: Some(id.clone()),
            list: Some(selfie()),
            name: None,
        };
        let q = block_on(w.quizzes.create(&m(), request(choice, None), Actor::Api))
            .expect("created")
            .quiz;
        assert_eq!(q.template.template_id, Some(id));
        assert_eq!(q.template.name, "KYC");
        assert_eq!(
            q.template.list.get(Feature::SelfieUpload),
            Requirement::NotRequired
        );
    }

    #[test]
    fn an_unknown_template_id_with_a_list_uses_the_list() {
        let w = world();
        let choice = TemplateChoice {
            template_id: Some("nope".into()),
            list: Some(selfie()),
            name: None,
        };
        let q = block_on(w.quizzes.create(&m(), request(choice, None), Actor::Api))
            .expect("created")
            .quiz;
        assert!(q.template.is_custom());
        assert_eq!(q.template.name, "Custom");
        assert_eq!(
            q.template.list.get(Feature::SelfieUpload),
            Requirement::Required
        );
    }

    #[test]
    fn an_unknown_template_id_alone_or_nothing_at_all_is_refused() {
        let w = world();
        let choice = TemplateChoice {
            template_id: Some("nope".into()),
            ..TemplateChoice::default()
        };
        let err = block_on(w.quizzes.create(&m(), request(choice, None), Actor::Api))
            .expect_err("unknown");
        assert!(matches!(err, DomainError::NotFound(Resource::Template)));
        let err = block_on(w.quizzes.create(
            &m(),
            request(TemplateChoice::default(), None),
            Actor::Api,
        ))
        .expect_err("none");
        assert!(matches!(err, DomainError::TemplateRequired));
        let empty = TemplateChoice {
            list: Some(vec![]),
            ..TemplateChoice::default()
        };
        let err = block_on(w.quizzes.create(&m(), request(empty, None), Actor::Api))
            .expect_err("asks nothing");
        assert!(matches!(err, DomainError::FeatureRequired));
    }

    #[test]
    fn the_merchant_default_applies_when_the_request_has_no_valid_days() {
        let w = world();
        let custom = || TemplateChoice {
            list: Some(selfie()),
            ..TemplateChoice::default()
        };
        let q = block_on(
            w.quizzes
                .create(&m(), request(custom(), Some(31)), Actor::Api),
        )
        .expect("created")
        .quiz;
        assert_eq!(q.expiry_days.days(), 12);
        let q = block_on(
            w.quizzes
                .create(&m(), request(custom(), Some(3)), Actor::Api),
        )
        .expect("created")
        .quiz;
        assert_eq!(q.expiry_days.days(), 3);
        assert_eq!(q.expires_at - q.created_at, time::Duration::days(3));
    }

    #[test]
    fn a_quiz_keeps_its_snapshot_when_the_template_changes() {
        let w = world();
        let id = stored_template(&w);
        let choice = TemplateChoice {
            template_id: Some(id.clone()),
            ..TemplateChoice::default()
        };
        let created =
            block_on(w.quizzes.create(&m(), request(choice, None), Actor::Api)).expect("created");
        block_on(
            w.templates
                .update(&m(), &id, Some("Renamed".into()), &selfie()),
        )
        .expect("updated");
        let link = QuizLink::Token(created.quiz.token.clone());
        let read = block_on(w.quizzes.get(&m(), &link)).expect("found").quiz;
        assert_eq!(read.template.name, "KYC");
        assert_eq!(
            read.template.list.get(Feature::SelfieUpload),
            Requirement::NotRequired
        );
    }

    fn custom_quiz(w: &World) -> Quiz {
        let choice = TemplateChoice {
            list: Some(selfie()),
            ..TemplateChoice::default()
        };
        block_on(w.quizzes.create(&m(), request(choice, Some(3)), Actor::Api))
            .expect("created")
            .quiz
    }

    #[test]
    fn extending_opens_an_expired_quiz_again() {
        let w = world();
        let q = custom_quiz(&w);
        let link = QuizLink::Code(q.code.clone());
        block_on(w.quizzes.expire(&m(), &link)).expect("expired");
        let days = QuizExpiryDays::new(20).expect("valid");
        let extended = block_on(w.quizzes.extend(&m(), &link, days))
            .expect("extended")
            .quiz;
        let read = block_on(w.quizzes.get(&m(), &link)).expect("found").quiz;
        assert_eq!(read, extended, "stored as answered");
        assert_eq!(read.expired_at, None);
        assert_eq!(read.expiry_days, days);
        assert_eq!(read.expires_at, read.created_at + time::Duration::days(20));
        assert!(
            block_on(w.quizzes.expire(&m(), &link)).is_ok(),
            "open again, so it can be ended again"
        );
    }

    #[test]
    fn another_merchants_or_a_deleted_quiz_cannot_be_extended() {
        let w = world();
        let q = custom_quiz(&w);
        let link = QuizLink::Token(q.token.clone());
        let days = QuizExpiryDays::new(2).expect("valid");
        let stranger = MerchantId::new("m2");
        assert!(matches!(
            block_on(w.quizzes.extend(&stranger, &link, days)),
            Err(DomainError::NotFound(Resource::Quiz))
        ));
        block_on(w.quizzes.delete(&m(), &link)).expect("deleted");
        assert!(matches!(
            block_on(w.quizzes.extend(&m(), &link, days)),
            Err(DomainError::NotFound(Resource::Quiz))
        ));
    }

    #[test]
    fn expiring_twice_is_quiz_expired_and_deleting_hides_the_quiz() {
        let w = world();
        let choice = TemplateChoice {
            list: Some(selfie()),
            ..TemplateChoice::default()
        };
        let q = block_on(w.quizzes.create(&m(), request(choice, None), Actor::Api))
            .expect("created")
            .quiz;
        let link = QuizLink::Code(q.code.clone());
        assert!(
            block_on(w.quizzes.expire(&m(), &link))
                .expect("expired")
                .expired_at
                .is_some()
        );
        assert!(matches!(
            block_on(w.quizzes.expire(&m(), &link)),
            Err(DomainError::QuizExpired)
        ));
        block_on(w.quizzes.delete(&m(), &link)).expect("deleted");
        assert!(matches!(
            block_on(w.quizzes.get(&m(), &link)),
            Err(DomainError::NotFound(Resource::Quiz))
        ));
        assert!(matches!(
            block_on(w.quizzes.delete(&m(), &link)),
            Err(DomainError::NotFound(Resource::Quiz))
        ));
    }
}
