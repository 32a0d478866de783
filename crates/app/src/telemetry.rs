use tracing_subscriber::EnvFilter;

use crate::cli::{LogArgs, LogFormat};

/// Logs go to stderr; stdout is for command output (credentials, the bound address).
pub fn init(args: &LogArgs) {
    let filter = EnvFilter::try_new(&args.log).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match args.log_format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .init(),
    }
}
