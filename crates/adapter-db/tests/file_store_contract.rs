//! The file store's contract (`domain::contract::files`), run on the local store (a fresh
//! folder per check) and on the S3 store against moto, a real S3-protocol server on
//! loopback (a fresh prefix per check). The S3 checks are reported as ignored when moto
//! is not installed, and fail under `IDV_TEST_REQUIRE_S3=1`.

use std::sync::Arc;

use adapter_db::{FileStore, ObjectFiles, Vault};
use domain::contract::files::{FILE_CHECKS, FileCheck};
use domain::ports::DocumentStore;
use fixtures::moto::{self, S3};
use libtest_mimic::{Arguments, Failed, Trial};

fn vault() -> Arc<Vault> {
    Arc::new(Vault::new(&[9; 32]))
}

fn run(check: FileCheck, store: Arc<dyn DocumentStore>) -> Result<(), Failed> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(check(store));
    Ok(())
}

fn on_disk(check: FileCheck) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    run(check, Arc::new(FileStore::new(dir.path(), vault())))
}

fn in_bucket(s3: &S3, name: &str, check: FileCheck) -> Result<(), Failed> {
    let store = ObjectFiles::s3_with(
        &format!("s3://{}/{name}", s3.bucket),
        vault(),
        &[
            ("aws_endpoint", &s3.endpoint),
            ("aws_allow_http", "true"),
            ("aws_region", "us-east-1"),
            ("aws_access_key_id", "idv-test"),
            ("aws_secret_access_key", "idv-test-secret"),
        ],
    )?;
    run(check, Arc::new(store))
}

fn main() {
    let args = Arguments::from_args();
    let require = std::env::var("IDV_TEST_REQUIRE_S3").is_ok_and(|v| v == "1");
    let skip_s3 = !moto::available() && !require;
    if skip_s3 {
        eprintln!("moto is not installed; the S3 store's checks are reported as ignored.");
    }
    // One server for every S3 check, each under its own prefix; started only when a check
    // will use it.
    let s3 = (!skip_s3 && !args.list).then(|| Arc::new(S3::start()));
    let mut trials = Vec::new();
    for &(name, check) in FILE_CHECKS {
        trials.push(Trial::test(format!("local::{name}"), move || {
            on_disk(check)
        }));
        let s3 = s3.clone();
        trials.push(
            Trial::test(format!("s3::{name}"), move || match &s3 {
                Some(s3) => in_bucket(s3, name, check),
                None => Err("moto is not running".into()),
            })
            .with_ignored_flag(skip_s3),
        );
    }
    let conclusion = libtest_mimic::run(&args, trials);
    // `exit` ends the process without dropping anything: moto is stopped first.
    drop(s3);
    conclusion.exit();
}
