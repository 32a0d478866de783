//! `idv`: the identity-verification service. Parses the command line and hands over to
//! the command; everything else is wiring.

mod analysis_cmd;
mod audit_cmd;
mod backup;
mod call;
mod cli;
mod master_key;
mod merchant_cmd;
mod metrics;
mod passwords;
mod rekey_cmd;
mod screener;
mod screening_cmd;
mod search_indexer;
mod second_factor;
mod serve;
mod storage_cmd;
mod sweeper;
mod system;
mod telemetry;
mod verification_worker;
mod webhook_worker;
mod wiring;

use clap::Parser;

use cli::{Cli, Command};
use domain::verification::Wanted;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    telemetry::init(&cli.log);
    match cli.command {
        Command::Serve(args) => serve::run(args, &cli.log).await,
        Command::Migrate(storage) => {
            let db = wiring::open_database(&storage)?;
            let applied = wiring::migrate(&db)?;
            println!(
                "{} migration(s) applied to {}",
                applied.len(),
                db.describe()
            );
            Ok(())
        }
        Command::Merchant(cmd) => merchant_cmd::run(cmd).await,
        Command::Call(args) => call::call(args).await,
        Command::Sign(args) => call::sign(args),
        Command::Seed {
            merchant,
            profiles,
            prefix,
            storage,
        } => seed(&merchant, profiles, &prefix, &storage),
        Command::Storage(cmd) => storage_cmd::run(cmd).await,
        Command::Audit {
            merchant,
            since,
            storage,
        } => audit_cmd::run(&merchant, since, &storage).await,
        Command::Screening(cmd) => screening_cmd::run(cmd).await,
        Command::Backup { to, storage } => backup::backup(&to, &storage).await,
        Command::Restore { from, storage } => backup::restore(&from, &storage).await,
        Command::Rekey {
            new_key_file,
            batch,
            pause_ms,
            storage,
        } => rekey_cmd::run(new_key_file.as_deref(), batch, pause_ms, storage).await,
        Command::Analyse {
            barcode,
            mrz,
            faces,
            text,
            tesseract,
            face_models,
        } => analysis_cmd::run(
            Wanted {
                barcode,
                mrz,
                faces,
                text,
            },
            tesseract,
            face_models,
        ),
        Command::Openapi => {
            println!("{}", wiring::api_document().as_str());
            Ok(())
        }
    }
}

/// `idv seed`: many profiles at once, ids in creation order.
fn seed(
    merchant: &str,
    profiles: u64,
    prefix: &str,
    storage: &cli::StorageArgs,
) -> anyhow::Result<()> {
    use domain::ports::{Clock, IdGenerator};
    let db = wiring::open_migrated(storage)?;
    let (clock, ids) = (system::SystemClock, system::UlidIds::default());
    let started = std::time::Instant::now();
    let merchant = domain::merchant::MerchantId::new(merchant.to_owned());
    let written = db.seed_profiles(&merchant, prefix, profiles, clock.now(), || ids.next_id())?;
    println!(
        "{written} profiles written in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
