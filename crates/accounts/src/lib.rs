//! Accounts: the rules of who a player is, whatever front end asks.
//!
//! * A [`Handle`] is 3–20 characters of `A–Z a–z 0–9 _ -`: no look-alike
//!   scripts, no markup, nothing to escape. Two handles are the same
//!   account when they differ only in case ([`Handle::key`]); some names
//!   are reserved because they would deceive ([`RESERVED`]).
//! * A password is 10–128 characters and must be strong by the `zxcvbn`
//!   estimator (score 3 or more: over 10¹⁰ guesses); a weak one is refused
//!   with the estimator's own feedback ([`check_password`]).
//! * Only an argon2id hash is kept, in PHC string form, with the OWASP
//!   parameters ([`hash_password`], [`verify_password`]). A sign-in for a
//!   handle that does not exist verifies against a dummy hash
//!   ([`verify_unknown`]) so that it costs the same time as a wrong
//!   password.
//! * A session is a random 256-bit token ([`SessionToken`]); only its
//!   SHA-256 is stored, so a copy of the database signs no one in.
//! * Password guessing is throttled ([`throttle_wait`]): after
//!   [`MAX_FAILURES`] failures within [`FAILURE_WINDOW_MS`], every attempt
//!   waits, the right password included.
//!
//! Hashing takes tens of milliseconds of one core on purpose: callers on
//! an async runtime run it on a blocking pool.

use std::fmt;
use std::sync::OnceLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use sha2::{Digest, Sha256};

/// The shortest handle.
pub const HANDLE_MIN: usize = 3;
/// The longest handle.
pub const HANDLE_MAX: usize = 20;
/// Handles no one may take, compared without regard to case: they would
/// pass for the site or its staff, or for no one in particular.
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "api",
    "guest",
    "mod",
    "moderator",
    "null",
    "operator",
    "root",
    "staff",
    "support",
    "system",
    "tessera",
    "undefined",
];

/// The shortest password.
pub const PASSWORD_MIN: usize = 10;
/// The longest password (argon2 takes any length; this bounds the work).
pub const PASSWORD_MAX: usize = 128;
/// The lowest `zxcvbn` score accepted: 3 is "over 10¹⁰ guesses".
pub const MIN_SCORE: u8 = 3;

/// argon2id memory in KiB: 19 MiB, the OWASP cheat sheet's first choice.
pub const ARGON2_MEMORY_KIB: u32 = 19 * 1024;
/// argon2id passes over memory.
pub const ARGON2_ITERATIONS: u32 = 2;
/// argon2id lanes.
pub const ARGON2_PARALLELISM: u32 = 1;

/// How long a session lasts without use, in milliseconds (30 days); each
/// use renews it.
pub const SESSION_MILLIS: i64 = 30 * 24 * 3_600_000;
/// A session is renewed when less than this is left of it (a day used), so
/// that a busy player does not cost a database write per request.
pub const RENEW_AFTER_MILLIS: i64 = 24 * 3_600_000;

/// Failed sign-ins (per handle, or per client) before attempts wait.
pub const MAX_FAILURES: usize = 10;
/// The window the failures are counted in: 15 minutes.
pub const FAILURE_WINDOW_MS: i64 = 15 * 60_000;

/// A handle, as its owner typed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handle(String);

/// Why a text is not a handle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandleError {
    /// Too short or too long.
    #[error("a handle has {HANDLE_MIN} to {HANDLE_MAX} characters, not {0}")]
    Length(usize),
    /// A character outside `A–Z a–z 0–9 _ -`.
    #[error("a handle has only letters A-Z and a-z, digits, '_' and '-': {0:?} is not allowed")]
    Character(char),
    /// A reserved name.
    #[error("the handle {0:?} is reserved")]
    Reserved(String),
}

impl Handle {
    /// Checks `text` against the handle rules.
    pub fn parse(text: &str) -> Result<Handle, HandleError> {
        if let Some(c) = text
            .chars()
            .find(|&c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        {
            return Err(HandleError::Character(c));
        }
        if !(HANDLE_MIN..=HANDLE_MAX).contains(&text.len()) {
            return Err(HandleError::Length(text.len()));
        }
        let handle = Handle(text.to_string());
        if RESERVED.contains(&handle.key().as_str()) {
            return Err(HandleError::Reserved(text.to_string()));
        }
        Ok(handle)
    }

    /// The handle as its owner typed it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What makes handles the same: the handle in lower case.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a password is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Fewer than [`PASSWORD_MIN`] characters.
    #[error("a password has at least {PASSWORD_MIN} characters, this one {0}")]
    TooShort(usize),
    /// More than [`PASSWORD_MAX`] characters.
    #[error("a password has at most {PASSWORD_MAX} characters, this one {0}")]
    TooLong(usize),
    /// Guessable: the estimator's score and its advice.
    #[error("this password is too easy to guess (strength {score} of 4, at least {MIN_SCORE} needed): {advice}")]
    Weak {
        /// The `zxcvbn` score, 0–4.
        score: u8,
        /// What the estimator says is wrong and how to do better.
        advice: String,
    },
}

/// Checks a new password for the account `handle` (a password built from
/// the handle is weak).
pub fn check_password(password: &str, handle: &Handle) -> Result<(), PasswordError> {
    let length = password.chars().count();
    if length < PASSWORD_MIN {
        return Err(PasswordError::TooShort(length));
    }
    if length > PASSWORD_MAX {
        return Err(PasswordError::TooLong(length));
    }
    let entropy = zxcvbn::zxcvbn(password, &[handle.as_str(), "tessera"]);
    let score = u8::from(entropy.score());
    if score >= MIN_SCORE {
        return Ok(());
    }
    let advice = entropy
        .feedback()
        .map(|f| f.to_string().trim().to_string())
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| "add another word or two; uncommon words are better".to_string());
    Err(PasswordError::Weak { score, advice })
}

fn hasher() -> Argon2<'static> {
    let params = Params::new(
        ARGON2_MEMORY_KIB,
        ARGON2_ITERATIONS,
        ARGON2_PARALLELISM,
        None,
    )
    .expect("the OWASP parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A password's argon2id hash as it is kept, a PHC string
/// (`$argon2id$v=19$m=19456,t=2,p=1$…`). A type of its own so that a
/// password and a hash cannot take each other's place in a call.
#[derive(Clone, PartialEq, Eq)]
pub struct StoredHash(String);

impl StoredHash {
    /// A hash read back from where it was kept. It is not checked here: a
    /// hash that does not parse verifies no password.
    pub fn from_stored(text: String) -> Self {
        StoredHash(text)
    }

    /// The PHC string, to be kept.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for StoredHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StoredHash(…)")
    }
}

/// The argon2id hash of `password` with a fresh random salt. Slow on
/// purpose.
pub fn hash_password(password: &str) -> StoredHash {
    let mut salt = [0u8; 16];
    play::seed::random_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).expect("16 bytes make a valid salt");
    let hash = hasher()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashes any password of bounded length")
        .to_string();
    StoredHash(hash)
}

/// Whether `password` matches the PHC string `hash` (false for a hash that
/// does not parse). The parameters are the hash's own, so hashes made
/// under older parameters still verify.
pub fn verify_password(password: &str, hash: &StoredHash) -> bool {
    let Ok(parsed) = PasswordHash::new(hash.as_str()) else {
        return false;
    };
    hasher()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok()
}

/// Whether the hash was made with other parameters than today's: it is
/// worth rehashing at the next sign-in.
pub fn needs_rehash(hash: &StoredHash) -> bool {
    let Ok(parsed) = PasswordHash::new(hash.as_str()) else {
        return true;
    };
    let want = format!("m={ARGON2_MEMORY_KIB},t={ARGON2_ITERATIONS},p={ARGON2_PARALLELISM}");
    parsed.algorithm.as_str() != "argon2id" || parsed.params.to_string() != want
}

/// A sign-in for a handle no one has: does the same work as a wrong
/// password (verifying against a dummy hash) and fails.
pub fn verify_unknown(password: &str) -> bool {
    static DUMMY: OnceLock<StoredHash> = OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash_password(&play::seed::random_id()));
    let _ = verify_password(password, dummy);
    false
}

/// The letters of a one-time password: no look-alikes (0/O, 1/l/I).
const ONE_TIME_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// A password an operator hands to an account's owner (there is no mail
/// server): 20 random letters (99 bits) in groups of five, for its owner
/// to replace in the settings.
pub fn one_time_password() -> String {
    let n = ONE_TIME_ALPHABET.len();
    // Bytes past the last whole multiple of the alphabet would favour its
    // first letters: they are drawn again.
    let fair = 256 - 256 % n;
    let mut letters = Vec::with_capacity(20);
    while letters.len() < 20 {
        let mut byte = [0u8; 1];
        play::seed::random_bytes(&mut byte);
        if usize::from(byte[0]) < fair {
            letters.push(char::from(ONE_TIME_ALPHABET[usize::from(byte[0]) % n]));
        }
    }
    letters
        .chunks(5)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// A session's secret: 256 random bits, as 64 lowercase hex digits in the
/// cookie.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(String);

impl SessionToken {
    /// A fresh token from the operating system's random source.
    pub fn generate() -> SessionToken {
        let mut bytes = [0u8; 32];
        play::seed::random_bytes(&mut bytes);
        SessionToken(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// A token read back from a cookie: 64 hex digits, else `None`.
    pub fn parse(text: &str) -> Option<SessionToken> {
        (text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| SessionToken(text.to_ascii_lowercase()))
    }

    /// The token as the cookie carries it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What the database keeps: the SHA-256 of the token, in hex. A token
    /// has 256 random bits, so no salt or slow hash is needed.
    pub fn digest(&self) -> String {
        Sha256::digest(self.0.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl fmt::Debug for SessionToken {
    /// Never the secret itself, even in a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SessionToken(…)")
    }
}

/// How long a sign-in must wait, in milliseconds, given the times of the
/// recent failures (of one handle or one client): `None` when it may go
/// ahead. With [`MAX_FAILURES`] or more inside the window ending at `now`,
/// it waits until enough of them have left the window.
pub fn throttle_wait(failures: &[i64], now: i64) -> Option<i64> {
    let mut recent: Vec<i64> = failures
        .iter()
        .copied()
        .filter(|&at| at > now - FAILURE_WINDOW_MS)
        .collect();
    if recent.len() < MAX_FAILURES {
        return None;
    }
    recent.sort_unstable();
    // One attempt is allowed again when the failure that makes the count
    // reach the limit leaves the window.
    let deciding = recent[recent.len() - MAX_FAILURES];
    Some((deciding + FAILURE_WINDOW_MS - now).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_follow_the_charset_and_length() {
        for ok in ["ada", "Ada_Lovelace-1815", "x_y", "ABCDEFGHIJKLMNOPQRST"] {
            assert_eq!(Handle::parse(ok).unwrap().as_str(), ok);
        }
        assert_eq!(Handle::parse("ab"), Err(HandleError::Length(2)));
        assert_eq!(
            Handle::parse("abcdefghijklmnopqrstu"),
            Err(HandleError::Length(21))
        );
        // Markup, spaces and look-alike scripts (a Cyrillic а) are refused.
        assert_eq!(Handle::parse("<b>x</b>"), Err(HandleError::Character('<')));
        assert_eq!(Handle::parse("ad a"), Err(HandleError::Character(' ')));
        assert_eq!(
            Handle::parse("\u{430}da"),
            Err(HandleError::Character('\u{430}'))
        );
        assert_eq!(Handle::parse("é"), Err(HandleError::Character('é')));
    }

    #[test]
    fn handles_are_one_account_whatever_the_case() {
        let a = Handle::parse("AdaL").unwrap();
        let b = Handle::parse("adal").unwrap();
        assert_ne!(a, b);
        assert_eq!(a.key(), b.key());
        assert_eq!(a.to_string(), "AdaL");
    }

    #[test]
    fn reserved_names_are_refused_in_any_case() {
        for name in [
            "admin",
            "ADMIN",
            "Anonymous",
            "root",
            "System",
            "tessera",
            "guest",
        ] {
            assert!(
                matches!(Handle::parse(name), Err(HandleError::Reserved(_))),
                "{name}"
            );
        }
        assert!(Handle::parse("admin2").is_ok());
    }

    #[test]
    fn passwords_need_length_and_strength() {
        let h = Handle::parse("ada").unwrap();
        assert_eq!(check_password("short", &h), Err(PasswordError::TooShort(5)));
        let long = "x".repeat(129);
        assert_eq!(check_password(&long, &h), Err(PasswordError::TooLong(129)));
        let weak = check_password("password123", &h).unwrap_err();
        let text = weak.to_string();
        assert!(matches!(weak, PasswordError::Weak { score, .. } if score < MIN_SCORE));
        assert!(text.contains("too easy to guess"), "{text}");
        // The handle itself makes a password weak.
        let mine = Handle::parse("zebracornflakes").unwrap();
        assert!(check_password("zebracornflakes1", &mine).is_err());
        assert_eq!(check_password("correct horse battery staple", &h), Ok(()));
    }

    #[test]
    fn hashes_are_argon2id_phc_and_verify() {
        let hash = hash_password("correct horse battery staple");
        assert!(
            hash.as_str().starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{}",
            hash.as_str()
        );
        assert!(!hash.as_str().contains("horse"));
        assert!(verify_password("correct horse battery staple", &hash));
        assert!(!verify_password("correct horse battery stapler", &hash));
        let garbage = StoredHash::from_stored("not a hash".to_string());
        assert!(!verify_password("anything", &garbage));
        assert!(needs_rehash(&garbage));
        assert!(!needs_rehash(&hash));
        // Salted: the same password hashes differently each time.
        assert_ne!(hash, hash_password("correct horse battery staple"));
        assert!(!verify_unknown("correct horse battery staple"));
    }

    #[test]
    fn tokens_are_256_bits_and_stored_hashed() {
        let a = SessionToken::generate();
        let b = SessionToken::generate();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 64);
        assert_eq!(SessionToken::parse(a.as_str()), Some(a.clone()));
        assert_eq!(SessionToken::parse("abc"), None);
        assert_eq!(SessionToken::parse(&"g".repeat(64)), None);
        let digest = a.digest();
        assert_eq!(digest.len(), 64);
        assert_ne!(digest, a.as_str());
        assert!(!format!("{a:?}").contains(a.as_str()));
    }

    #[test]
    fn ten_failures_in_the_window_make_attempts_wait() {
        let now = 100 * FAILURE_WINDOW_MS;
        let nine: Vec<i64> = (0..9).map(|i| now - 60_000 + i * 1_000).collect();
        assert_eq!(throttle_wait(&nine, now), None);
        let mut ten = nine.clone();
        ten.push(now - 1);
        // The first of the ten left the window 15 minutes after it came.
        assert_eq!(
            throttle_wait(&ten, now),
            Some(nine[0] + FAILURE_WINDOW_MS - now)
        );
        // Failures older than the window do not count.
        let old: Vec<i64> = (0..20).map(|i| now - FAILURE_WINDOW_MS - i).collect();
        assert_eq!(throttle_wait(&old, now), None);
    }

    #[test]
    fn one_time_passwords_differ_and_pass_the_policy() {
        let handle = Handle::parse("Ada_L").unwrap();
        let first = one_time_password();
        assert_eq!(first.len(), 23, "{first}");
        assert_eq!(first.split('-').count(), 4, "{first}");
        assert!(check_password(&first, &handle).is_ok(), "{first}");
        assert_ne!(first, one_time_password());
    }
}
