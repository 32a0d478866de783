//! Device marks (`domain::ports::DeviceMarks`) signed by the vault: `{user}.{unix
//! seconds}.{tag}`, the tag the base64url HMAC-SHA256 of the first two parts under the
//! device key derived from the master key. Nothing is stored: a mark proves itself, on
//! every instance that holds the key, and during a rotation under either key.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use domain::ids::UserId;
use domain::ports::DeviceMarks;
use time::OffsetDateTime;

use super::vault::Vault;

/// What a mark signs: the user and the second it signed in at.
fn signed_text(user: &UserId, at: OffsetDateTime) -> String {
    format!("{user}.{}", at.unix_timestamp())
}

impl DeviceMarks for Vault {
    fn mark(&self, user: &UserId, at: OffsetDateTime) -> String {
        let text = signed_text(user, at);
        let tag = URL_SAFE_NO_PAD.encode(self.device_tag(&text));
        format!("{text}.{tag}")
    }

    fn read(&self, mark: &str) -> Option<(UserId, OffsetDateTime)> {
        let (text, tag) = mark.rsplit_once('.')?;
        let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
        if !self.device_tag_matches(text, &tag) {
            return None;
        }
        let (user, seconds) = text.rsplit_once('.')?;
        let at = OffsetDateTime::from_unix_timestamp(seconds.parse().ok()?).ok()?;
        Some((UserId::from(user), at))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::sealing::vault::MASTER_KEY_LEN;
    use domain::contract::devices::run_all;
    use time::macros::datetime;

    #[test]
    fn the_vaults_marks_keep_the_contract() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        run_all(
            || Arc::new(Vault::new(&[7; MASTER_KEY_LEN])),
            |check| runtime.block_on(check),
        );
    }

    #[test]
    fn a_mark_reads_only_under_its_master_key_and_outlives_a_rotation() {
        let (old, new) = ([7; MASTER_KEY_LEN], [8; MASTER_KEY_LEN]);
        let at = datetime!(2026-11-01 08:00 UTC);
        let mark = Vault::new(&old).mark(&UserId::from("u-ada"), at);
        assert_eq!(Vault::new(&new).read(&mark), None, "another key's mark");
        let rotating = Vault::rotating(&old, &new);
        assert_eq!(rotating.read(&mark), Some((UserId::from("u-ada"), at)));
        let after = rotating.mark(&UserId::from("u-ada"), at);
        assert_eq!(
            Vault::new(&new).read(&after),
            Some((UserId::from("u-ada"), at))
        );
        // The user and the time are signed: neither can be changed.
        let (_, tag) = mark.rsplit_once('.').expect("a tag");
        for forged in [
            format!("u-bob.1793520000.{tag}"),
            format!("u-ada.1793520001.{tag}"),
        ] {
            assert_eq!(Vault::new(&old).read(&forged), None, "{forged}");
        }
    }
}
