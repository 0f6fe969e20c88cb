//! What several integration tests share. Each test crate uses a part, so
//! the rest is dead code there.
#![allow(dead_code)]

pub mod cli;
pub mod load;
pub mod person;
pub mod race;
pub mod server;
pub mod tmux;
