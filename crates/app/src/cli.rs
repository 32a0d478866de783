//! The command line. Every option can also come from an `IDV_*` variable.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use domain::user::Role;
use ipnet::IpNet;

#[derive(Debug, Parser)]
#[command(
    name = "idv",
    version,
    about = "Identity-verification service: signed JSON API for merchants, quiz links for their clients"
)]
pub struct Cli {
    #[command(flatten)]
    pub log: LogArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply migrations, then serve the API until SIGTERM or SIGINT.
    Serve(ServeArgs),
    /// Apply pending database migrations and exit.
    Migrate(StorageArgs),
    /// Manage merchants and their API keys.
    #[command(subcommand)]
    Merchant(MerchantCommand),
    /// Sign (v1) and send one API request; print the answer's JSON. Exits non-zero on an
    /// error answer.
    Call(CallArgs),
    /// Print the `Signature` header value (v1) of a request, for curl users.
    Sign(SignArgs),
    /// Fill the database with many profiles, for benchmarks at scale: `{prefix}-{i}@example.com`,
    /// each with its creation event (`scripts/load.sh URL CREDS get` reads them back).
    Seed {
        /// The merchant that owns them.
        #[arg(long)]
        merchant: String,
        /// How many profiles to write.
        #[arg(long, default_value_t = 1_000_000)]
        profiles: u64,
        /// The e-mail prefix (the load script's is `load`).
        #[arg(long, default_value = "load")]
        prefix: String,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Print the OpenAPI document of the merchant API (as served at
    /// `/api/v1/openapi.json`).
    Openapi,
    /// Manage the file store.
    #[command(subcommand)]
    Storage(StorageCommand),
    /// Write a consistent copy of the database, every stored file (sealed, as stored) and
    /// a manifest to a new or empty folder, while the service runs. The master key is not
    /// in it (only its fingerprint): keep the key apart.
    Backup {
        /// The folder to write (created 0700 if missing; refused if not empty).
        #[arg(long)]
        to: PathBuf,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Restore a backup into an empty database and an empty file store, under the
    /// backup's master key (checked against the manifest's fingerprint first).
    Restore {
        /// A folder written by `idv backup`.
        #[arg(long)]
        from: PathBuf,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Rotate the master key: seal every value and file again under the new key while
    /// the service runs (on both keys, see docs/DEPLOY.md), in batches; run it again after
    /// a crash. When it is done the new key is the database's and the old opens nothing.
    Rekey {
        /// A file holding the new key (64 hex characters); default: IDV_NEW_MASTER_KEY.
        #[arg(long)]
        new_key_file: Option<PathBuf>,
        /// Values (or files) per batch; each batch is one transaction.
        #[arg(long, default_value_t = 500)]
        batch: usize,
        /// A pause after each batch, to spare a busy database (milliseconds).
        #[arg(long, default_value_t = 0)]
        pause_ms: u64,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Print a merchant's audit trail (sign-ins, failures, lock-outs, sign-outs, key and
    /// user changes, dashboard views of profiles and files) as JSON lines, oldest first.
    Audit {
        #[arg(long)]
        merchant: String,
        /// Only entries at or after this time (RFC 3339, e.g. 2026-11-24T00:00:00Z).
        #[arg(long, value_parser = parse_time)]
        since: Option<domain::OffsetDateTime>,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Screening lists (contract §19): import a list's files, print the lists in force.
    #[command(subcommand)]
    Screening(ScreeningCommand),
    /// Analyse the image on standard input and print its report as JSON: how `idv serve`
    /// runs each image's analysis, in a process of its own (docs/ARCHITECTURE.md).
    #[command(hide = true)]
    Analyse {
        /// Look for a licence's barcode.
        #[arg(long)]
        barcode: bool,
        /// Look for a passport's machine-readable zone.
        #[arg(long)]
        mrz: bool,
        /// Count the faces, and describe the largest when the models are given.
        #[arg(long)]
        faces: bool,
        /// Read its text (a proof of address).
        #[arg(long)]
        text: bool,
        /// The `tesseract` command. Flags only, no `IDV_*` variables: the server that
        /// starts this says everything it means.
        #[arg(long)]
        tesseract: std::path::PathBuf,
        /// The directory of dlib's face models, read for an image whose faces are wanted.
        #[arg(long)]
        face_models: Option<std::path::PathBuf>,
    },
}

fn parse_time(raw: &str) -> Result<domain::OffsetDateTime, String> {
    domain::OffsetDateTime::parse(raw, &time::format_description::well_known::Rfc3339)
        .map_err(|e| format!("not an RFC 3339 time: {e}"))
}

#[derive(Debug, Subcommand)]
pub enum ScreeningCommand {
    /// Import one list from its files, all or nothing: a malformed or truncated file is
    /// refused whole (naming its line or element) and the version in force stays. Prints
    /// the list's version in force as a JSON line, as `lists` does.
    Import {
        /// The list's name (1 to 64 letters, digits, `.`, `_`, `-`): what merchants choose
        /// in `screening_lists` and reports name.
        #[arg(long)]
        list: String,
        /// What it holds: `sanctions`, `pep` or `internal`.
        #[arg(long)]
        kind: String,
        /// `ofac-csv` (`sdn.csv`, optionally `alt.csv` and `add.csv`), `un-xml`, `eu-xml`
        /// or `csv` (`id,name,aliases,date_of_birth,country`).
        #[arg(long)]
        format: String,
        /// The merchant an `internal` list belongs to; none: every merchant's.
        #[arg(long)]
        merchant: Option<String>,
        /// The list's files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Print the version in force of every list as JSON lines: `list`, `kind`,
    /// `merchant_id` (or null), `version` (the files' SHA-256), `imported_at`, `entries`.
    Lists {
        #[command(flatten)]
        storage: StorageArgs,
    },
}

#[derive(Debug, Subcommand)]
pub enum StorageCommand {
    /// Copy every stored file to another store (e.g. the local one to S3), checking each
    /// copy against the original by its SHA-256; files already there are checked too.
    /// Safe to run while serving and to run again; then point IDV_STORAGE_URL at it.
    Migrate {
        /// The store to copy to: `file:///PATH` or `s3://BUCKET[/PREFIX]`.
        #[arg(long)]
        to: String,
        #[command(flatten)]
        storage: StorageArgs,
    },
}

/// The body of a request: inline JSON, `@FILE`, or `{}` when absent.
#[derive(Debug, Clone, Args)]
pub struct Body {
    /// JSON text, or `@path` to read it from a file (`@-`: standard input).
    #[arg(long, default_value = "{}")]
    pub data: String,
}

/// Who signs.
#[derive(Debug, Clone, Args)]
pub struct Credentials {
    #[arg(long, env = "IDV_API_KEY", hide_env_values = true)]
    pub api_key: String,
    #[arg(long, env = "IDV_API_SECRET", hide_env_values = true)]
    pub api_secret: String,
}

#[derive(Debug, Args)]
pub struct CallArgs {
    /// The operation, as in the path: `profile/get`, `quiz/create`...
    pub operation: String,
    #[command(flatten)]
    pub body: Body,
    #[command(flatten)]
    pub credentials: Credentials,
    /// The service's address.
    #[arg(long, env = "IDV_URL", default_value = "http://127.0.0.1:8080")]
    pub url: String,
}

#[derive(Debug, Args)]
pub struct SignArgs {
    /// The request path exactly as sent, e.g. `/api/v1/profile/get`.
    #[arg(long)]
    pub path: String,
    #[command(flatten)]
    pub body: Body,
    #[arg(long, env = "IDV_API_SECRET", hide_env_values = true)]
    pub api_secret: String,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Log filter, in `tracing` directive syntax.
    #[arg(long, env = "IDV_LOG", default_value = "info", global = true)]
    pub log: String,
    /// `text` for people, `json` for log collectors.
    #[arg(long, env = "IDV_LOG_FORMAT", default_value = "text", global = true)]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// Where the data lives.
#[derive(Debug, Clone, Args)]
pub struct StorageArgs {
    /// Folder for the SQLite database, the master key file and uploaded files.
    #[arg(long, env = "IDV_DATA_DIR", default_value = "./idv-data")]
    pub data_dir: PathBuf,
    /// `postgres://...` for PostgreSQL; default: an SQLite file in the data directory.
    #[arg(long, env = "IDV_DATABASE_URL")]
    pub database_url: Option<String>,
    /// 64 hex characters; encrypts API secrets at rest. Default: a key file created in
    /// the data directory. Every instance sharing a database needs the same key.
    #[arg(long, env = "IDV_MASTER_KEY", hide_env_values = true)]
    pub master_key: Option<String>,
    /// During a master key rotation only: the key rotated to (64 hex characters). New
    /// values are sealed under it; values of either key open (docs/DEPLOY.md).
    #[arg(long, env = "IDV_NEW_MASTER_KEY", hide_env_values = true)]
    pub new_master_key: Option<String>,
    /// Where uploaded files live: `file:///PATH` (default: `files/` in the data directory)
    /// or `s3://BUCKET[/PREFIX]`, configured by the standard `AWS_*` variables.
    #[arg(long, env = "IDV_STORAGE_URL")]
    pub storage_url: Option<String>,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub storage: StorageArgs,
    /// Address to listen on; port 0 picks a free port (printed at start).
    #[arg(long, env = "IDV_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Serve `/metrics` on this address instead (to whoever reaches it); unset, it is
    /// served on the main address to clients on this machine only.
    #[arg(long, env = "IDV_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,
    /// Address clients reach the service at, for quiz links. Default: http:// + bind.
    #[arg(long, env = "IDV_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Requests per minute one client address may make to the quiz pages (0: no limit).
    #[arg(long, env = "IDV_CLIENT_RATE_LIMIT", default_value_t = 120)]
    pub client_rate_limit: u32,
    /// Dashboard sign-in attempts per minute one client address may make, counted before
    /// any password is hashed (0: no limit).
    #[arg(long, env = "IDV_SIGN_IN_LIMIT", default_value_t = 10)]
    pub sign_in_limit: u32,
    /// Merchant API requests per second per API key, in bursts of twice that (0: no limit).
    #[arg(long, env = "IDV_API_RATE_LIMIT", default_value_t = 100)]
    pub api_rate_limit: u32,
    /// Failed authentications per minute per client address before 429 (0: no limit).
    #[arg(long, env = "IDV_AUTH_FAILURE_LIMIT", default_value_t = 60)]
    pub auth_failure_limit: u32,
    /// Proxies whose `X-Forwarded-For` is believed: comma-separated CIDRs.
    #[arg(
        long,
        env = "IDV_TRUSTED_PROXIES",
        value_delimiter = ',',
        default_value = ""
    )]
    pub trusted_proxies: Vec<String>,
    /// Seconds a request body other than an upload may take in all (uploads must keep
    /// 16 KiB/s on average after their first 10 s instead).
    #[arg(long, env = "IDV_BODY_DEADLINE_SECONDS", default_value_t = 60)]
    pub body_deadline_seconds: u64,
    /// Open connections one client address may hold (trusted proxies excepted; 0: no cap).
    #[arg(long, env = "IDV_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 64)]
    pub max_connections_per_address: usize,
    /// Open connections in all (0: no cap). By default what the open-file limit (raised
    /// to its hard limit at start) leaves after a reserve of 256 descriptors for the
    /// database, stored files and the analysis's children.
    #[arg(long, env = "IDV_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Documents one quiz link may add.
    #[arg(long, env = "IDV_QUIZ_MAX_DOCUMENTS", default_value_t = 20)]
    pub quiz_max_documents: u64,
    /// Bytes of files one quiz link may add.
    #[arg(long, env = "IDV_QUIZ_MAX_BYTES", default_value_t = 100 * 1024 * 1024)]
    pub quiz_max_bytes: u64,
    /// Let webhooks use http and reach loopback, private, link-local and unique-local
    /// addresses (a receiver on this machine or network). Off: https to public addresses.
    #[arg(long, env = "IDV_WEBHOOK_ALLOW_PRIVATE", value_parser = clap::builder::BoolishValueParser::new())]
    pub webhook_allow_private: bool,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// What `idv serve`'s image analysis needs.
#[derive(Debug, Args)]
pub struct AnalysisArgs {
    /// The `tesseract` command that reads passports' machine-readable zones (without it,
    /// the `mrz` check is not applicable: `ocr_unavailable`).
    #[arg(long, env = "IDV_TESSERACT", default_value = "tesseract")]
    pub tesseract: std::path::PathBuf,
    /// The directory of dlib's face models (`scripts/face_models.sh`) that match the
    /// selfie against the ID's portrait in a build with the `face-match` feature
    /// (without them, or without the feature, `face_match` is not applicable:
    /// `face_matcher_unavailable`).
    #[arg(long, env = "IDV_FACE_MODELS")]
    pub face_models: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum MerchantCommand {
    /// Create a merchant with a first API key; prints the key and its secret once.
    Create {
        #[arg(long)]
        name: String,
        /// Print one JSON object: merchant_id, api_key, api_secret, access.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// List merchants.
    List {
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Manage API keys.
    #[command(subcommand)]
    Key(KeyCommand),
    /// Manage the people who use the dashboard.
    #[command(subcommand)]
    User(UserCommand),
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Add a dashboard user to a merchant; prints a one-time password unless one is read
    /// from standard input.
    Create {
        #[arg(long)]
        merchant: String,
        /// How the user signs in; unique across the service.
        #[arg(long)]
        email: String,
        /// Read the password (12 to 256 characters) from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
        /// `reviewer` reviews clients; `admin` also manages API keys, webhooks, users and
        /// settings, and reads the audit trail.
        #[arg(long, default_value = "reviewer", value_parser = parse_role)]
        role: Role,
        /// Print one JSON object: user_id, merchant_id, email (and password if generated).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Disable a dashboard user: its sessions end, it can no longer sign in, and the API
    /// keys it made stop working.
    Disable {
        #[arg(long)]
        email: String,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Give a dashboard user a second factor: prints a new TOTP secret and its
    /// `otpauth://` address (for an authenticator app) once; signing in then also asks
    /// for the current code. Running it again replaces the secret.
    Totp {
        #[arg(long)]
        email: String,
        /// Print one JSON object: email, secret, uri.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        storage: StorageArgs,
    },
}

fn parse_role(raw: &str) -> Result<Role, String> {
    Role::parse(raw).map_err(|e| e.0)
}

#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// Add an API key to a merchant; prints the key and its secret once.
    Create {
        #[arg(long)]
        merchant: String,
        /// Also accept the replayable compatibility signature scheme for this key.
        #[arg(long)]
        compat_signature: bool,
        /// Accept this key only from these client networks (CIDR; repeatable).
        #[arg(long = "allow-ip", value_name = "CIDR")]
        allow_ip: Vec<IpNet>,
        /// Let this key call only the operations that read (`get`, `read`, `download`);
        /// any other is refused with 403 KEY_READ_ONLY.
        #[arg(long)]
        read_only: bool,
        /// Print one JSON object: merchant_id, api_key, api_secret, access.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Limit an API key to client networks, replacing its list; requests from elsewhere
    /// are refused with 403 IP_ADDRESS_DENIED. `--any` lifts the limit.
    AllowIp {
        #[arg(long)]
        key: String,
        #[arg(value_name = "CIDR", required_unless_present = "any")]
        networks: Vec<IpNet>,
        /// Accept the key from any address again.
        #[arg(long, conflicts_with = "networks")]
        any: bool,
        #[command(flatten)]
        storage: StorageArgs,
    },
    /// Disable an API key: requests signed with it are refused from now on.
    Disable {
        #[arg(long)]
        key: String,
        #[command(flatten)]
        storage: StorageArgs,
    },
}
