//! A Shisen-Sho game as every front end plays it: the engine's [`Game`]
//! plus the deal's seed, which fixes every shuffle, and the one hint
//! policy.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use shisen::{Board, Budget, Game, Move, MoveError, Path, Point, Rules, Verdict};

/// How long a game (web or terminal) lets the solver decide whether the
/// board can still be cleared — for the hint and the "no solution from
/// here" warning — before it answers "unknown". Most boards take
/// milliseconds.
pub const ANALYSIS_TIME: Duration = Duration::from_secs(3);

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Session {
    seed: u64,
    game: Game,
}

/// One thing a player does, as a replay records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Removes the pair of tiles at these cells.
    Remove(Point, Point),
    /// Shuffles the remaining tiles (see [`shuffle_seed`]).
    Shuffle,
    /// Takes the last removal or shuffle back.
    Undo,
    /// Makes the last undone turn again.
    Redo,
}

impl fmt::Display for Turn {
    /// `x1,y1-x2,y2` for a removal; `shuffle`, `undo`, `redo`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Remove(p, q) => write!(f, "{p}-{q}"),
            Turn::Shuffle => f.write_str("shuffle"),
            Turn::Undo => f.write_str("undo"),
            Turn::Redo => f.write_str("redo"),
        }
    }
}

/// Text that is not a turn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a turn: expected x1,y1-x2,y2 (a removal), shuffle, undo or redo")]
pub struct TurnError(pub String);

impl FromStr for Turn {
    type Err = TurnError;

    fn from_str(s: &str) -> Result<Turn, TurnError> {
        let bad = || TurnError(s.to_string());
        match s {
            "shuffle" => Ok(Turn::Shuffle),
            "undo" => Ok(Turn::Undo),
            "redo" => Ok(Turn::Redo),
            _ => {
                let (p, q) = s.split_once('-').ok_or_else(bad)?;
                Ok(Turn::Remove(
                    p.parse().map_err(|_| bad())?,
                    q.parse().map_err(|_| bad())?,
                ))
            }
        }
    }
}

/// A pair to suggest, and whether the board can still be cleared after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The two tiles.
    pub pair: Move,
    /// The pair is the first removal of a solution: the board stays
    /// clearable. Otherwise it is only a pair that connects now.
    pub safe: bool,
}

/// A turn that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("turn {turn}: {reason}")]
pub struct ReplayError {
    /// 1-based index of the turn in the list.
    pub turn: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// What a list of turns leads to.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the turns.
    pub session: Session,
    /// Pairs removed on the way (undone ones included, as the player made
    /// them).
    pub removals: usize,
    /// Every turn as played: the board it led to, and the path of a
    /// removal.
    pub steps: Vec<Step>,
}

/// One turn of a replay as it was played.
#[derive(Clone, Debug)]
pub struct Step {
    /// The turn.
    pub turn: Turn,
    /// The board after it.
    pub board: Board,
    /// The path that joined a removed pair.
    pub path: Option<Path>,
}

impl Replay {
    /// Whether the player saw `board` at some point: the deal or the board
    /// after any turn.
    pub fn visited(&self, deal: &Board, board: &Board) -> bool {
        deal == board || self.steps.iter().any(|step| &step.board == board)
    }
}

/// The seed of the shuffle made at `step` (the number of turns that led
/// to the current board, [`Game::step`]) of the game dealt from
/// `deal_seed`. Fixed by the deal, so a replay shuffles exactly as the
/// player saw; and the same at the same step, so undoing a shuffle and
/// shuffling again gives the same tiles, not a fresh draw.
pub fn shuffle_seed(deal_seed: u64, step: usize) -> u64 {
    deal_seed.wrapping_add((step as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Whether the game's current board can still be cleared, within `budget`.
pub fn analyse(game: &Game, budget: &mut impl Budget) -> Verdict {
    game.still_solvable(budget)
}

impl Session {
    /// A game on `board`, dealt from `seed`, under `rules`.
    pub fn new(board: Board, rules: Rules, seed: u64) -> Session {
        Session {
            seed,
            game: Game::new(board, rules),
        }
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The seed the board was dealt from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Charges hints given outside the game (a server answering hint
    /// requests for it), as the engine charges its own.
    pub fn charge_hints(&mut self, hints: u32) {
        self.game.charge_hints(hints);
    }

    /// Removes the pair at `p` and `q`, returning the path that joined
    /// them.
    pub fn remove(&mut self, p: Point, q: Point) -> Result<Path, MoveError> {
        self.game.remove(p, q)
    }

    /// Shuffles the remaining tiles with the seed of this step.
    pub fn shuffle(&mut self) {
        let seed = shuffle_seed(self.seed, self.game.step());
        self.game.shuffle(seed);
    }

    /// Steps back; `false` at the deal.
    pub fn undo(&mut self) -> bool {
        self.game.undo()
    }

    /// Steps forward again; `false` when nothing was undone.
    pub fn redo(&mut self) -> bool {
        self.game.redo()
    }

    /// The hint, given the solver's verdict on the current board: the
    /// first removal of its solution when it has one (safe), else any pair
    /// that connects now. Counted as help; `None` when stuck or cleared.
    pub fn hint(&mut self, verdict: &Verdict) -> Option<Hint> {
        if let Some(pair) = self.game.safe_hint(verdict) {
            return Some(Hint { pair, safe: true });
        }
        self.game.hint().map(|pair| Hint { pair, safe: false })
    }

    /// Plays one turn; the path of a removal.
    pub fn play(&mut self, turn: Turn) -> Result<Option<Path>, String> {
        match turn {
            Turn::Remove(p, q) => self.remove(p, q).map(Some).map_err(|e| e.to_string()),
            Turn::Shuffle if self.game.is_won() => Err("nothing left to shuffle".into()),
            Turn::Shuffle => {
                self.shuffle();
                Ok(None)
            }
            Turn::Undo => self.undo().then_some(None).ok_or("nothing to undo".into()),
            Turn::Redo => self.redo().then_some(None).ok_or("nothing to redo".into()),
        }
    }

    /// Plays `turns` from this position, stopping at the first that cannot
    /// be played.
    pub fn replay(mut self, turns: &[Turn]) -> Result<Replay, ReplayError> {
        let mut removals = 0;
        let mut steps = Vec::with_capacity(turns.len());
        for (i, &turn) in turns.iter().enumerate() {
            let path = self.play(turn).map_err(|reason| ReplayError {
                turn: i + 1,
                reason,
            })?;
            removals += usize::from(path.is_some());
            steps.push(Step {
                turn,
                board: self.game.board().clone(),
                path,
            });
        }
        Ok(Replay {
            session: self,
            removals,
            steps,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shisen::{parse_board, Matching, Nodes, Size, TileSet};

    fn session(seed: u64) -> Session {
        let board =
            shisen::Deal::random(seed, Size::new(6, 4).unwrap(), TileSet::Standard).unwrap();
        Session::new(board, Rules::STANDARD, seed)
    }

    #[test]
    fn turns_print_and_parse_back() {
        let turns = [
            Turn::Remove(Point::new(0, 3), Point::new(17, 7)),
            Turn::Shuffle,
            Turn::Undo,
            Turn::Redo,
        ];
        for turn in turns {
            assert_eq!(turn.to_string().parse::<Turn>(), Ok(turn));
        }
        assert_eq!(turns[0].to_string(), "0,3-17,7");
        for bad in ["", "0,3", "0,3-", "-1,0-2,0x", "Shuffle", "1,2-3"] {
            assert!(bad.parse::<Turn>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_shuffle_is_fixed_by_the_deal_and_the_step() {
        let mut a = session(3);
        let mut b = session(3);
        a.shuffle();
        b.shuffle();
        assert_eq!(a.game().board(), b.game().board());
        // Undo and shuffle again at the same step: the same tiles.
        let first = a.game().board().clone();
        a.undo();
        a.shuffle();
        assert_eq!(a.game().board(), &first);
        // The next step's shuffle draws from another seed.
        assert_ne!(shuffle_seed(3, 0), shuffle_seed(3, 1));
        assert_ne!(shuffle_seed(3, 0), shuffle_seed(4, 0));
    }

    #[test]
    fn the_hint_is_safe_when_a_solution_is_known() {
        // C can go at once; A and B block each other for good.
        let board = parse_board("CC\nAB\nBA\n", Matching::Standard).unwrap();
        let mut stuck = Session::new(board, Rules::STANDARD, 0);
        let verdict = analyse(stuck.game(), &mut Nodes(u64::MAX));
        assert_eq!(verdict, Verdict::Unsolvable);
        let hint = stuck.hint(&verdict).unwrap();
        assert!(!hint.safe);
        assert_eq!(hint.pair, Move::new(Point::new(0, 0), Point::new(1, 0)));
        let board = parse_board("AB\nAB\n", Matching::Standard).unwrap();
        let mut open = Session::new(board, Rules::STANDARD, 0);
        let verdict = analyse(open.game(), &mut Nodes(u64::MAX));
        let hint = open.hint(&verdict).unwrap();
        assert!(hint.safe);
        assert_eq!(open.game().stats().hints, 1, "one hint, counted once");
    }

    #[test]
    fn following_safe_hints_clears_solvable_deals() {
        for seed in 0..5 {
            let board = shisen::Deal::solvable(
                seed,
                Size::new(8, 4).unwrap(),
                TileSet::custom(8, 4).unwrap(),
                Rules::new(Matching::Standard, true),
                &mut Nodes(u64::MAX),
            )
            .unwrap()
            .unwrap()
            .board;
            let mut s = Session::new(board, Rules::new(Matching::Standard, true), seed);
            while !s.game().is_won() {
                let verdict = analyse(s.game(), &mut Nodes(u64::MAX));
                let hint = s.hint(&verdict).unwrap();
                assert!(hint.safe);
                s.remove(hint.pair.a, hint.pair.b).unwrap();
            }
        }
    }

    #[test]
    fn replays_play_every_kind_of_turn_and_name_the_bad_one() {
        let start = session(7);
        let m = start.game().board().moves()[0];
        let turns = [
            Turn::Remove(m.a, m.b),
            Turn::Undo,
            Turn::Redo,
            Turn::Shuffle,
            Turn::Undo,
        ];
        let replay = start.clone().replay(&turns).unwrap();
        assert_eq!(replay.removals, 1);
        assert_eq!(replay.steps.len(), turns.len());
        assert!(replay.steps[0].path.is_some() && replay.steps[1].path.is_none());
        assert!(replay.visited(start.game().board(), &replay.steps[3].board));
        assert_eq!(replay.session.game().step(), 1);
        let mut by_hand = start.clone();
        by_hand.remove(m.a, m.b).unwrap();
        assert_eq!(replay.session.game().board(), by_hand.game().board());
        let error = start.replay(&[Turn::Undo]).unwrap_err();
        assert_eq!(error.turn, 1);
        assert!(error.to_string().contains("nothing to undo"), "{error}");
    }
}
