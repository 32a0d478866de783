//! The key that encrypts API secrets at rest.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use adapter_db::MASTER_KEY_LEN;
use anyhow::{Context, bail};
use ring::rand::{SecureRandom, SystemRandom};

const KEY_FILE: &str = "master.key";

/// From `configured` (64 hex characters) if given; else from the data directory's key
/// file, created with mode 0600 on first use. A new key is never made for a database
/// that already holds sealed data (`sealed_under` names the key it was sealed with): that
/// data would be lost for good; the operator is told to restore the key instead.
pub fn load(
    configured: Option<&str>,
    data_dir: &Path,
    sealed_under: impl FnOnce() -> anyhow::Result<Option<String>>,
) -> anyhow::Result<[u8; MASTER_KEY_LEN]> {
    if let Some(hex) = configured {
        return decode(hex.trim()).context("IDV_MASTER_KEY must be 64 hex characters");
    }
    let path = data_dir.join(KEY_FILE);
    if path.exists() {
        let text =
            fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        return decode(text.trim())
            .with_context(|| format!("{} must hold 64 hex characters", path.display()));
    }
    if let Some(fingerprint) = sealed_under()? {
        bail!(
            "no master key: {} is missing and IDV_MASTER_KEY is not set, but the database \
             holds data sealed under the master key with fingerprint {fingerprint}. Restore \
             that key (the key file from your backup, or IDV_MASTER_KEY); a new key would \
             make the data unreadable, so none is created.",
            path.display()
        );
    }
    let mut key = [0u8; MASTER_KEY_LEN];
    SystemRandom::new()
        .fill(&mut key)
        .map_err(|_| anyhow::anyhow!("the system's random source failed"))?;
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(hex::encode(key).as_bytes())?;
    file.sync_all()?;
    tracing::info!(path = %path.display(), "created a new master key; back it up with the database");
    Ok(key)
}

/// The key a rotation goes to, from `text` read from `source` (a variable or a file):
/// 64 hex characters, and not the current key.
pub fn new_key(
    text: &str,
    source: &str,
    current: &[u8; MASTER_KEY_LEN],
) -> anyhow::Result<[u8; MASTER_KEY_LEN]> {
    let key = decode(text.trim())
        .with_context(|| format!("the new master key in {source} must be 64 hex characters"))?;
    if &key == current {
        bail!("the new master key in {source} is the current master key");
    }
    Ok(key)
}

fn decode(text: &str) -> anyhow::Result<[u8; MASTER_KEY_LEN]> {
    let mut key = [0u8; MASTER_KEY_LEN];
    if hex::decode_to_slice(text, &mut key).is_err() {
        bail!("expected {} hex characters", MASTER_KEY_LEN * 2);
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_key_file_is_created_private_and_read_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = load(None, dir.path(), nothing_sealed).expect("created");
        let mode = fs::metadata(dir.path().join(KEY_FILE))
            .expect("exists")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(load(None, dir.path(), nothing_sealed).expect("read"), first);
    }

    #[test]
    fn a_configured_key_must_be_64_hex_characters() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(
            load(Some(&"ab".repeat(32)), dir.path(), nothing_sealed).expect("valid"),
            [0xab; 32]
        );
        assert!(load(Some("abcd"), dir.path(), nothing_sealed).is_err());
        assert!(load(Some(&"zz".repeat(32)), dir.path(), nothing_sealed).is_err());
    }

    #[test]
    fn a_new_key_must_be_64_hex_characters_and_another_key() {
        let current = [0xab; MASTER_KEY_LEN];
        assert_eq!(
            new_key(&"cd".repeat(32), "F", &current).expect("valid"),
            [0xcd; 32]
        );
        let short = new_key("cdcd", "F", &current).expect_err("too short");
        assert!(
            format!("{short:#}").contains("64 hex characters"),
            "{short:#}"
        );
        let same = new_key(&"ab".repeat(32), "F", &current).expect_err("the same key");
        assert!(same.to_string().contains("is the current"), "{same}");
    }

    fn nothing_sealed() -> anyhow::Result<Option<String>> {
        Ok(None)
    }

    #[test]
    fn no_new_key_is_made_for_a_database_that_holds_sealed_data() {
        let dir = tempfile::tempdir().expect("tempdir");
        let err =
            load(None, dir.path(), || Ok(Some("0123456789abcdef".into()))).expect_err("refused");
        assert!(err.to_string().contains("0123456789abcdef"), "{err}");
        assert!(!dir.path().join(KEY_FILE).exists(), "no key file made");
    }
}
