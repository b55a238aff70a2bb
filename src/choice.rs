//! Options spelled as words (`--mode clean`, `mode="clean"`): one spelling per option value,
//! read by one `FromStr` that the CLI's argument parser and the Python binding both call, so the
//! two surfaces accept the same words and say the same thing about a wrong one.

/// An option whose values are words: every value with its spelling and a line of help.
pub trait Choice: Sized + Copy + 'static {
    /// What the option is called in messages (`mode`, `profile`, `flavour`).
    const WHAT: &'static str;
    /// Every value: its spelling, the value, and what it means.
    const CHOICES: &'static [(&'static str, Self, &'static str)];

    /// The value's spelling.
    fn as_str(self) -> &'static str;

    /// The value spelled `word`, or a message naming the spellings there are.
    fn parse_choice(word: &str) -> Result<Self, String> {
        Self::CHOICES
            .iter()
            .find(|(name, _, _)| *name == word)
            .map(|(_, value, _)| *value)
            .ok_or_else(|| {
                let names: Vec<String> = Self::CHOICES
                    .iter()
                    .map(|(name, _, _)| format!("`{name}`"))
                    .collect();
                format!(
                    "unknown {} `{word}`: use {}",
                    Self::WHAT,
                    names.join(" or ")
                )
            })
    }
}

/// Implements [`Choice`], `FromStr` and `Display` for an enum whose values are words.
macro_rules! choice {
    ($ty:ty, $what:literal, { $($name:literal => $variant:path : $help:literal),+ $(,)? }) => {
        impl $crate::choice::Choice for $ty {
            const WHAT: &'static str = $what;
            const CHOICES: &'static [(&'static str, Self, &'static str)] =
                &[$(($name, $variant, $help)),+];

            fn as_str(self) -> &'static str {
                match self {
                    $($variant => $name),+
                }
            }
        }

        impl std::str::FromStr for $ty {
            type Err = String;

            fn from_str(word: &str) -> Result<Self, String> {
                <Self as $crate::choice::Choice>::parse_choice(word)
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::choice::Choice::as_str(*self))
            }
        }
    };
}

pub(crate) use choice;
