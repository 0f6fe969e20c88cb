//! Quick match: who plays whom among the players waiting for a rated race
//! in one pool.
//!
//! Each waiting player accepts opponents within a rating window that
//! widens the longer they wait, as lichess's lobby does: at first a
//! player is paired only with someone close, and after a while with
//! anyone rather than no one. Two players are a match only when each is
//! within the other's window, so a newcomer's wide window never drags a
//! player who has just arrived into a lopsided game.
//!
//! Nobody starves: a window only widens, so whoever waits is eventually
//! paired with anyone in the pool who also waits. Pure: the front end
//! holds the queue and calls [`pair`] whenever it changes and on a tick,
//! so that windows widen.

/// The rating difference a player accepts after waiting `waited`
/// milliseconds.
pub fn window(waited: i64) -> f64 {
    let seconds = waited.max(0) as f64 / 1_000.0;
    (FIRST_WINDOW + WIDENING_PER_SECOND * seconds).min(WIDEST_WINDOW)
}

/// A player waiting to be paired.
#[derive(Clone, Debug, PartialEq)]
pub struct Seeker {
    /// Whoever the front end pairs (an account's key).
    pub who: String,
    /// Their rating in the pool they wait for.
    pub rating: f64,
    /// When they began to wait, in milliseconds.
    pub since: i64,
}

/// The fewest players in a match: a race needs two.
pub const FEWEST_IN_A_MATCH: usize = 2;
/// The most players in a match. Beyond four, a race's every pair scores
/// as a game and one race moves a rating as much as a long session would.
pub const MOST_IN_A_MATCH: usize = 4;
/// The window at first: a rating difference of 100 gives the weaker
/// player about a one-in-three chance, a game still worth playing.
pub const FIRST_WINDOW: f64 = 100.0;
/// How fast the window widens: 50 points a second, so that after 10 s a
/// player takes anyone within 600 and after 30 s anyone at all in a small
/// pool (the widest window).
pub const WIDENING_PER_SECOND: f64 = 50.0;
/// The widest window: 1,000 points, past which a game tells nothing.
pub const WIDEST_WINDOW: f64 = 1_000.0;

impl Seeker {
    /// The rating difference this player accepts after waiting until
    /// `now`.
    pub fn window(&self, now: i64) -> f64 {
        window(now - self.since)
    }

    /// Whether this player and `other` accept each other at `now`.
    pub fn accepts(&self, other: &Seeker, now: i64) -> bool {
        let gap = (self.rating - other.rating).abs();
        gap <= self.window(now) && gap <= other.window(now)
    }
}

/// The matches to make now among `waiting`: groups of indexes into it,
/// each of 2 to [`MOST_IN_A_MATCH`] players who all accept each other.
/// Nobody is in two groups; whoever is in none waits on.
///
/// The closest pairs are made first, so that nobody is matched far away
/// while someone nearer waits; a group then takes in the next closest
/// player who accepts, and is accepted by, everyone in it. Ties go by the
/// players' keys, so that every instance pairs one queue the same way.
pub fn pair(waiting: &[Seeker], now: i64) -> Vec<Vec<usize>> {
    let gap = |a: usize, b: usize| (waiting[a].rating - waiting[b].rating).abs();
    let mut edges: Vec<(usize, usize)> = (0..waiting.len())
        .flat_map(|a| (a + 1..waiting.len()).map(move |b| (a, b)))
        .filter(|&(a, b)| waiting[a].accepts(&waiting[b], now))
        .collect();
    edges.sort_by(|&(a, b), &(c, d)| {
        gap(a, b).total_cmp(&gap(c, d)).then_with(|| {
            (&waiting[a].who, &waiting[b].who).cmp(&(&waiting[c].who, &waiting[d].who))
        })
    });
    let mut group_of: Vec<Option<usize>> = vec![None; waiting.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (a, b) in edges {
        match (group_of[a], group_of[b]) {
            (None, None) => {
                group_of[a] = Some(groups.len());
                group_of[b] = Some(groups.len());
                groups.push(vec![a, b]);
            }
            (Some(g), None) | (None, Some(g)) => {
                let newcomer = if group_of[a].is_none() { a } else { b };
                let group = &mut groups[g];
                let welcome = group.len() < MOST_IN_A_MATCH
                    && group
                        .iter()
                        .all(|&i| waiting[i].accepts(&waiting[newcomer], now));
                if welcome {
                    group.push(newcomer);
                    group_of[newcomer] = Some(g);
                }
            }
            (Some(_), Some(_)) => {}
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeker(who: &str, rating: f64, since: i64) -> Seeker {
        Seeker {
            who: who.into(),
            rating,
            since,
        }
    }

    #[test]
    fn two_close_players_are_paired_at_once() {
        let waiting = [seeker("a", 1500.0, 0), seeker("b", 1540.0, 10)];
        assert_eq!(pair(&waiting, 10), vec![vec![0, 1]]);
    }

    #[test]
    fn a_distant_player_is_not_taken_while_a_close_one_waits() {
        // 1500 and 2300 have waited long enough to accept each other, but
        // 1550 is closer: 1500 plays 1550, and 2300 waits on.
        let waiting = [
            seeker("low", 1500.0, 0),
            seeker("high", 2300.0, 0),
            seeker("near", 1550.0, 30_000),
        ];
        assert_eq!(pair(&waiting, 30_000), vec![vec![0, 2]]);
    }

    #[test]
    fn a_wide_gap_waits_until_both_windows_reach_it() {
        let waiting = [seeker("a", 1500.0, 0), seeker("b", 1900.0, 0)];
        // 400 apart: the window reaches 400 after 6 s of waiting.
        assert!(pair(&waiting, 5_000).is_empty());
        assert_eq!(pair(&waiting, 6_000), vec![vec![0, 1]]);
        // A newcomer's narrow window is respected, however long the other
        // has waited.
        let waiting = [seeker("a", 1500.0, 0), seeker("b", 1900.0, 60_000)];
        assert!(pair(&waiting, 60_000).is_empty());
    }

    #[test]
    fn the_window_widens_to_a_limit() {
        let s = seeker("a", 1500.0, 1_000);
        assert_eq!(s.window(0), FIRST_WINDOW);
        assert_eq!(s.window(3_000), FIRST_WINDOW + 2.0 * WIDENING_PER_SECOND);
        assert_eq!(s.window(1_000_000), WIDEST_WINDOW);
    }

    #[test]
    fn groups_hold_at_most_four_who_all_accept_each_other() {
        let waiting: Vec<Seeker> = (0..6)
            .map(|i| seeker(&format!("p{i}"), 1500.0 + 10.0 * i as f64, 0))
            .collect();
        let matches = pair(&waiting, 0);
        assert_eq!(matches.len(), 1 + 1);
        assert_eq!(matches[0].len(), MOST_IN_A_MATCH);
        assert_eq!(matches[1].len(), 2);
        let mut everyone: Vec<usize> = matches.concat();
        everyone.sort_unstable();
        assert_eq!(everyone, (0..6).collect::<Vec<_>>());
    }

    #[test]
    fn every_match_is_mutually_acceptable_and_nobody_plays_twice() {
        // An independent check over many queues: every pair in a group
        // accepts each other, groups are disjoint, and nobody left waiting
        // could have been paired with another who is left.
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        for _ in 0..500 {
            let n = (next() % 9) as usize;
            let waiting: Vec<Seeker> = (0..n)
                .map(|i| {
                    seeker(
                        &format!("p{i}"),
                        1000.0 + (next() % 1500) as f64,
                        -((next() % 20_000) as i64),
                    )
                })
                .collect();
            let matches = pair(&waiting, 0);
            let mut seen = vec![false; n];
            for group in &matches {
                assert!((FEWEST_IN_A_MATCH..=MOST_IN_A_MATCH).contains(&group.len()));
                for &a in group {
                    assert!(!seen[a]);
                    seen[a] = true;
                    for &b in group {
                        assert!(waiting[a].accepts(&waiting[b], 0));
                    }
                }
            }
            for a in (0..n).filter(|&a| !seen[a]) {
                for b in (0..n).filter(|&b| b != a && !seen[b]) {
                    assert!(
                        !waiting[a].accepts(&waiting[b], 0),
                        "{a} and {b} left unpaired"
                    );
                }
            }
        }
    }
}
