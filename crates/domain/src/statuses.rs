//! Review statuses share one shape: a closed set of names, matched in any letter case,
//! stored and shown in their canonical spelling.

/// Declares a status enum whose variants are spelled as their names (`Approved`).
macro_rules! review_status {
    ($(#[$doc:meta])* $name:ident, $refusal:literal, [$($variant:ident),+]) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[doc = concat!("The status `", stringify!($variant), "`.")] $variant),+
        }

        impl $name {
            /// Every status.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The canonical spelling (`Approved`).
            pub fn as_str(&self) -> &'static str {
                match self {
                    $($name::$variant => stringify!($variant)),+
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::validation::Invalid;

            fn from_str(raw: &str) -> Result<Self, Self::Err> {
                let raw = raw.trim();
                Self::ALL
                    .iter()
                    .copied()
                    .find(|s| s.as_str().eq_ignore_ascii_case(raw))
                    .ok_or_else(|| $crate::validation::Invalid::new($refusal))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use review_status;
