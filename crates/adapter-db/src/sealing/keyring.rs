//! The master keys a vault holds at once: the current one, which seals everything new,
//! and during a rotation (`idv rekey`) the previous one, which still opens what it sealed
//! until every value and file has been re-sealed. Each sealed value names the key that
//! sealed it by a [`KeyId`], so the opener picks the key and the rotation finds what is
//! left to re-seal.

/// Which master key sealed a value: the 8 bytes of that key's fingerprint, or `Legacy`
/// for values sealed before key ids named keys (`k1:` fields, untagged secrets, version-1
/// files). A legacy value was sealed by the key in use before the first rotation, which
/// is the oldest key a vault holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyId {
    Legacy,
    Fingerprint([u8; KeyId::LEN]),
}

/// What a legacy personal field starts with (before `:`).
const LEGACY_TEXT: &str = "k1";

impl KeyId {
    pub(crate) const LEN: usize = 8;

    /// How a sealed field names it: `k1` for legacy, else `k` and 16 hex characters.
    pub(crate) fn text(&self) -> String {
        match self {
            Self::Legacy => LEGACY_TEXT.to_owned(),
            Self::Fingerprint(bytes) => format!("k{}", hex::encode(bytes)),
        }
    }

    /// The id a sealed field's prefix names, if it names one.
    pub(crate) fn from_text(text: &str) -> Option<Self> {
        if text == LEGACY_TEXT {
            return Some(Self::Legacy);
        }
        let hex = text
            .strip_prefix('k')
            .filter(|h| h.len() == 2 * Self::LEN)?;
        let mut bytes = [0u8; Self::LEN];
        hex::decode_to_slice(hex, &mut bytes).ok()?;
        Some(Self::Fingerprint(bytes))
    }
}

/// The current key set and, during a rotation, the previous one.
#[derive(Debug)]
pub(crate) struct Ring<T> {
    current: (KeyId, T),
    previous: Option<(KeyId, T)>,
}

impl<T> Ring<T> {
    pub(crate) fn new(current: (KeyId, T), previous: Option<(KeyId, T)>) -> Self {
        Self { current, previous }
    }

    /// The key everything new is sealed with, and its id.
    pub(crate) fn current(&self) -> (KeyId, &T) {
        (self.current.0, &self.current.1)
    }

    /// Whether `id` names the current key: a value under any other is left to re-seal.
    pub(crate) fn is_current(&self, id: KeyId) -> bool {
        id == self.current.0
    }

    /// The key that sealed a value of this id: legacy values belong to the oldest key.
    pub(crate) fn find(&self, id: KeyId) -> Option<&T> {
        if id == KeyId::Legacy {
            return Some(self.previous.as_ref().map_or(&self.current.1, |(_, k)| k));
        }
        [Some(&self.current), self.previous.as_ref()]
            .into_iter()
            .flatten()
            .find(|(own, _)| *own == id)
            .map(|(_, key)| key)
    }

    /// Every key held, the current one first: what lookups by keyed hash must try while
    /// a rotation is under way.
    pub(crate) fn all(&self) -> impl Iterator<Item = &T> {
        [Some(&self.current), self.previous.as_ref()]
            .into_iter()
            .flatten()
            .map(|(_, key)| key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: KeyId = KeyId::Fingerprint([1; KeyId::LEN]);
    const NEW: KeyId = KeyId::Fingerprint([2; KeyId::LEN]);

    #[test]
    fn a_key_id_reads_back_from_its_text() {
        for id in [KeyId::Legacy, OLD, NEW] {
            assert_eq!(KeyId::from_text(&id.text()), Some(id), "{}", id.text());
        }
        assert_eq!(NEW.text(), "k0202020202020202");
        for other in [
            "",
            "k",
            "k2",
            "x0202020202020202",
            "k02020202020202zz",
            "k020202",
        ] {
            assert_eq!(KeyId::from_text(other), None, "{other}");
        }
    }

    #[test]
    fn a_ring_finds_each_key_by_its_id_and_legacy_values_under_the_oldest() {
        let single = Ring::new((OLD, "old"), None);
        assert_eq!(single.find(OLD), Some(&"old"));
        assert_eq!(single.find(KeyId::Legacy), Some(&"old"));
        assert_eq!(single.find(NEW), None, "a key it does not hold");
        assert!(single.is_current(OLD));

        let rotating = Ring::new((NEW, "new"), Some((OLD, "old")));
        assert_eq!(rotating.current(), (NEW, &"new"));
        assert_eq!(rotating.find(NEW), Some(&"new"));
        assert_eq!(rotating.find(OLD), Some(&"old"));
        assert_eq!(rotating.find(KeyId::Legacy), Some(&"old"));
        assert!(rotating.is_current(NEW) && !rotating.is_current(OLD));
        assert!(!rotating.is_current(KeyId::Legacy));
        assert_eq!(rotating.all().collect::<Vec<_>>(), [&"new", &"old"]);
    }
}
