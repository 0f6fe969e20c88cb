//! Where a command's puzzles come from: a seed given, today's (the daily
//! puzzle of the web game), or a random one — and how many.

use clap::Args;
use play::seed::{daily_seed, random_seed};

/// The seed of the first puzzle.
#[derive(Args)]
pub struct FirstSeed {
    /// Seed of the first puzzle; puzzle i uses seed + i. Random if omitted
    /// (and printed to stderr so the puzzles can be made again).
    #[arg(long, conflicts_with = "daily")]
    seed: Option<u64>,
    /// Today's puzzle (UTC): the seed is the date, as in the web game.
    #[arg(long)]
    daily: bool,
}

/// Seeds of several puzzles in a row.
#[derive(Args)]
pub struct Seeds {
    #[command(flatten)]
    first: FirstSeed,
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    count: u64,
}

impl FirstSeed {
    /// The seed: given, today's, or random (and then printed).
    pub fn get(&self) -> u64 {
        match (self.seed, self.daily) {
            (Some(seed), _) => seed,
            (None, true) => daily_seed(now_millis()),
            (None, false) => {
                let seed = random_seed();
                eprintln!("seed: {seed}");
                seed
            }
        }
    }
}

impl Seeds {
    /// The first seed and how many follow it (seed + 1, seed + 2, …).
    pub fn first_and_count(&self) -> (u64, u64) {
        (self.first.get(), self.count)
    }

    /// Every seed in order.
    pub fn all(&self) -> impl Iterator<Item = u64> {
        let (first, count) = self.first_and_count();
        (0..count).map(move |i| first.wrapping_add(i))
    }
}

/// Milliseconds since the Unix epoch, by the system clock.
fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
