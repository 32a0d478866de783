//! The domain's storage ports, one module per repository, and the column encodings they
//! share (template steps, pages of a listing). Each writes its rows with diesel on either
//! backend; what an event owes is persisted by the outbox, not here.

pub mod audit;
pub mod backlogs;
pub mod documents;
pub mod encoding;
pub mod merchants;
pub mod notes;
pub mod paging;
pub mod profile_search;
pub mod profiles;
pub mod quizzes;
pub mod rate_limits;
pub mod screening;
pub mod sessions;
pub mod signals;
pub mod templates;
pub mod users;
pub mod verifications;
pub mod webhooks;
