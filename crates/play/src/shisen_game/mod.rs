//! Shisen-Sho sessions: what a deal is ([`ShisenSpec`]), how a seed deals
//! it, and how a game goes on ([`Session`]): shuffles, hints, and the
//! replay of a list of turns, and where a game was lost ([`where_lost`]).

mod loss;
mod session;
mod spec;

pub use loss::{where_lost, Continuation, Loss, LossAnalysis, Solvability};
pub use session::{
    analyse, shuffle_seed, Hint, Replay, ReplayError, Session, Step, Turn, TurnError, ANALYSIS_TIME,
};
pub use spec::{DealError, ShisenSpec, SpecError};
