//! `idv call` and `idv sign`: the API from a shell, signed exactly as `docs/api.md` says.

use std::io::Read;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use adapter_http::auth::sign_v1;
use anyhow::{Context, bail};

use crate::cli::{Body, CallArgs, SignArgs};

/// The body's bytes, exactly as they will be signed and sent.
fn body_bytes(body: &Body) -> anyhow::Result<Vec<u8>> {
    let bytes = match body.data.strip_prefix('@') {
        Some("-") => {
            let mut all = Vec::new();
            std::io::stdin().read_to_end(&mut all)?;
            all
        }
        Some(path) => std::fs::read(path).with_context(|| format!("reading {path}"))?,
        None => body.data.clone().into_bytes(),
    };
    serde_json::from_slice::<serde_json::Value>(&bytes).context("--data must be JSON")?;
    Ok(bytes)
}

fn now() -> anyhow::Result<i64> {
    Ok(i64::try_from(
        SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs(),
    )?)
}

pub fn sign(args: SignArgs) -> anyhow::Result<()> {
    let body = body_bytes(&args.body)?;
    println!(
        "{}",
        sign_v1(args.api_secret.as_bytes(), now()?, &args.path, &body)
    );
    Ok(())
}

pub async fn call(args: CallArgs) -> anyhow::Result<()> {
    let body = body_bytes(&args.body)?;
    let path = format!("/api/v1/{}", args.operation.trim_matches('/'));
    let signature = sign_v1(args.credentials.api_secret.as_bytes(), now()?, &path, &body);
    let url = format!("{}{path}", args.url.trim_end_matches('/'));
    // The process's rustls provider is ring, the one this build carries.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let answer = client
        .post(&url)
        .header("Api-Key", &args.credentials.api_key)
        .header("Signature", &signature)
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .with_context(|| url.clone())?;
    let status = answer.status();
    let text = answer.text().await?;
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(json) => println!("{}", serde_json::to_string_pretty(&json)?),
        Err(_) => println!("{text}"),
    }
    if !status.is_success() {
        bail!("the service answered {status}");
    }
    Ok(())
}
