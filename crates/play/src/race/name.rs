//! A racer's name, read and checked.

use std::fmt;
use std::str::FromStr;

use super::RaceError;
use crate::limits::NAME_CHARS;

/// A racer's name: 1 to 24 characters once the blanks around it are
/// dropped, none of them control characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RacerName(String);

impl RacerName {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for RacerName {
    type Err = RaceError;

    fn from_str(text: &str) -> Result<RacerName, RaceError> {
        let name = text.trim();
        if name.is_empty() {
            return Err(RaceError::BadName("a racer needs a name".into()));
        }
        if name.chars().count() > NAME_CHARS {
            return Err(RaceError::BadName(format!(
                "name too long: at most {NAME_CHARS} characters"
            )));
        }
        if name.chars().any(char::is_control) {
            return Err(RaceError::BadName(
                "name must not contain control characters".into(),
            ));
        }
        Ok(RacerName(name.to_string()))
    }
}

impl fmt::Display for RacerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> RacerName {
        text.parse().unwrap()
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(name("  Ada ").as_str(), "Ada");
        assert!("".parse::<RacerName>().is_err());
        assert!("   ".parse::<RacerName>().is_err());
        assert!("a\u{7}b".parse::<RacerName>().is_err());
        assert!("x".repeat(NAME_CHARS + 1).parse::<RacerName>().is_err());
        assert!("x".repeat(NAME_CHARS).parse::<RacerName>().is_ok());
    }
}
