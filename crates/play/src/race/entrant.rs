//! Who asks for a seat in a race.

use super::RacerName;

/// A player asking to join a race: the key the front end vouches for
/// (the same key is the same racer, coming back), the name they race
/// under, and their account's id when signed in (a room for signed-in
/// players only seats those).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The player's key: their cookie, as the front end vouches for it.
    pub key: String,
    /// The name shown beside their board.
    pub name: RacerName,
    /// The account's id, when signed in.
    pub account: Option<String>,
}

impl Entrant {
    /// A guest: no account.
    pub fn guest(key: &str, name: RacerName) -> Entrant {
        Entrant {
            key: key.to_string(),
            name,
            account: None,
        }
    }
}
