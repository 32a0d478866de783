//! What the programs the server starts are given (issue 47): the analysis process of each
//! image, and the tesseract it runs, get the search path and the locale of the server's
//! environment and none of its secrets, which a decoder subverted by a hostile image
//! could otherwise read; the analysis process is bounded by the kernel.

use fixtures::corpus::photograph;
use serde_json::json;

use crate::documents_read::{holder, passport_of};
use crate::photos_read::{level, read};
use crate::support::spy::{Seen, seen, spy};
use crate::support::{Backend, Env, MASTER_KEY};

pub fn analysis_sees_no_secret(backend: Backend) {
    let spies = tempfile::tempdir().expect("a folder");
    let tesseract = spy(spies.path(), "tesseract");
    let storage_secret = "spy-aws-secret";
    let env = Env::start_with(
        backend,
        &[
            ("IDV_TESSERACT", tesseract.to_str().expect("a UTF-8 path")),
            ("AWS_SECRET_ACCESS_KEY", storage_secret),
        ],
    );
    let page = passport_of(&holder()).page(None).expect("OCR-B font");
    let photo = photograph(&page, &level(), 1);
    // Read through the spy, which ran the real tesseract.
    let answer = read(&env, "spied", "passport_upload", None, &photo, "mrz");
    assert_eq!(answer, ("passed".to_owned(), json!([])));

    let Seen {
        environ,
        parent_environ,
        parent_limits,
        parent_oom_score_adj,
        ..
    } = seen(spies.path(), "tesseract");
    // idv analyse is bounded by the kernel: processor time past its 20 s budget, address
    // space, and first for the OOM killer.
    let limit = |name: &str| -> Vec<String> {
        let line = parent_limits
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {parent_limits}"));
        line[name.len()..]
            .split_whitespace()
            .take(2)
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(limit("Max cpu time"), ["25", "30"], "{parent_limits}");
    assert_eq!(
        limit("Max address space"),
        ["4294967296", "4294967296"],
        "{parent_limits}"
    );
    assert_eq!(parent_oom_score_adj.trim(), "1000");
    for (who, environment) in [("tesseract", &environ), ("idv analyse", &parent_environ)] {
        assert!(
            environment.lines().any(|l| l.starts_with("IDV_LOG=")),
            "{who} was given the log filter: {environment}"
        );
        for secret in [MASTER_KEY, storage_secret] {
            assert!(!environment.contains(secret), "{who} was given {secret}");
        }
        assert!(
            !environment.contains("IDV_DATABASE_URL") && !environment.contains("IDV_DATA_DIR"),
            "{who} was given the server's storage: {environment}"
        );
    }
}
