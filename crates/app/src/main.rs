//! `idv`: the identity-verification service. Parses the command line and hands over to
//! the command; everything else is wiring.

mod call;
mod cli;
mod master_key;
mod merchant_cmd;
mod serve;
mod sweeper;
mod system;
mod telemetry;
mod wiring;

use clap::Parser;

use cli::{Cli, Command};

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    telemetry::init(&cli.log);
    match cli.command {
        Command::Serve(args) => serve::run(args).await,
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
        Command::Call(args) => call::call(args),
        Command::Sign(args) => call::sign(args),
        Command::Openapi => {
            println!("{}", adapter_http::openapi::document_json());
            Ok(())
        }
    }
}
