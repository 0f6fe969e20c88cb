//! The depth-first search over removals: safe removals, branching on a pair
//! or banning it, and the table of failed positions.

use super::*;

/// Random keys per cell: a position without gravity is the set of removed
/// tiles, hashed as the XOR of their keys.
pub(super) struct Zobrist {
    pub(super) keys: Vec<u64>,
    pub(super) hash: u64,
    pub(super) width: usize,
}

impl Zobrist {
    pub(super) fn new(board: &Board) -> Zobrist {
        let mut rng = Rng::new(0x5A0B_8157);
        let keys = (0..board.width() * board.height())
            .map(|_| rng.next_u64())
            .collect();
        Zobrist {
            keys,
            hash: 0,
            width: board.width(),
        }
    }

    pub(super) fn toggle(&mut self, m: Move) {
        for p in [m.a, m.b] {
            self.hash ^= self.keys[p.y as usize * self.width + p.x as usize];
        }
    }
}

pub(super) struct Search<'b, B: Budget> {
    pub(super) meter: Meter<'b, B>,
    pub(super) nodes: u64,
    /// The node count that ends this attempt.
    pub(super) limit: u64,
    /// The move order of this attempt: as found, or shuffled.
    pub(super) shuffle: Option<Rng>,
    /// Pairs no solution below the current node uses: from probing the
    /// pairings at the root, and from the branches already refuted.
    pub(super) bans: Bans,
    /// Whether nodes probe the pairings of their classes of four.
    pub(super) probing: bool,
    /// Whether this attempt orders moves by mobility (else by burden under
    /// gravity, as found without); attempts alternate, the two orders
    /// failing on different deals.
    pub(super) mobility: bool,
    /// Hashes of positions known to be unsolvable.
    pub(super) failed: HashSet<u64>,
    /// The removals made so far on the current line, with the kind removed.
    pub(super) played: Vec<(Move, Kind)>,
}

impl<B: Budget> Search<'_, B> {
    pub(super) fn tick(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(B::INTERVAL) && !self.meter.budget.allows(self.nodes) {
            return Err(Stop::Budget);
        }
        if self.nodes >= self.limit {
            return Err(Stop::Restart);
        }
        Ok(())
    }

    /// The moves of `board` in this attempt's order.
    pub(super) fn ordered(&mut self, board: &Board) -> Vec<Move> {
        let mut moves = board.moves();
        if let Some(rng) = &mut self.shuffle {
            rng.shuffle(&mut moves);
        }
        moves
    }

    /// Removes `m` without gravity, recording it.
    pub(super) fn take(&mut self, board: &mut Board, zobrist: &mut Zobrist, m: Move) {
        let kind = board.get(m.a).expect("moves name tiles");
        board.remove_pair(m.a, m.b, false);
        zobrist.toggle(m);
        self.played.push((m, kind));
    }

    /// Undoes removals back to `mark` played moves.
    pub(super) fn untake(&mut self, board: &mut Board, zobrist: &mut Zobrist, mark: usize) {
        while self.played.len() > mark {
            let (m, kind) = self.played.pop().expect("above the mark");
            board.put_back(m.a, kind);
            board.put_back(m.b, kind);
            zobrist.toggle(m);
        }
    }

    /// Makes safe removals until none is left: every class whose tiles can
    /// all be paired by open connections (taking one class's pairs only
    /// opens connections, so every class found open in a round can be
    /// taken), and every open pair whose tiles the bans leave no other
    /// partner (every solution pairs them; taking them now is never wrong).
    /// Returns the open pairs left, none of them banned.
    pub(super) fn take_safe(&mut self, board: &mut Board, zobrist: &mut Zobrist) -> Vec<Move> {
        loop {
            let moves = board.open_pairings();
            if !moves.is_empty() {
                for m in moves {
                    self.take(board, zobrist, m);
                }
                continue;
            }
            let moves: Vec<Move> = self
                .ordered(board)
                .into_iter()
                .filter(|&m| !self.bans.contains(m))
                .collect();
            let forced: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    self.bans.only_partner(board, m.a) || self.bans.only_partner(board, m.b)
                })
                .collect();
            if forced.is_empty() {
                return moves;
            }
            // Two forced pairs can share a tile only on a dead board (two
            // tiles whose one partner is the same): take the first, and
            // the relaxation will find the other tile stranded.
            for m in forced {
                if board.get(m.a).is_some() && board.get(m.b).is_some() {
                    self.take(board, zobrist, m);
                }
            }
        }
    }

    /// The search without gravity. A node branches on one open pair (a, b)
    /// only: either a solution pairs a with b — then one takes (a, b) now,
    /// removals never block anything — or none does, and the pair is banned
    /// for the rest of that branch (with, in a class of four, the pair of
    /// the two other tiles). Refuted alternatives are thus never retried
    /// below a sibling, and bans sharpen the relaxation.
    pub(super) fn free(&mut self, board: &mut Board, zobrist: &mut Zobrist) -> Step {
        self.tick()?;
        let mark = self.played.len();
        let moves = self.take_safe(board, zobrist);
        if board.is_cleared() {
            return Ok(true);
        }
        let key = zobrist.hash ^ self.bans.hash;
        let refuted = self.failed.contains(&key)
            || self.failed.contains(&zobrist.hash)
            || moves.is_empty()
            || self.hopeless(board)?;
        if !refuted && self.probe_and_branch(board, zobrist, &moves)? {
            return Ok(true);
        }
        self.failed.insert(key);
        self.untake(board, zobrist, mark);
        Ok(false)
    }

    /// Branches on the first open pair left after probing (if this attempt
    /// probes), with the pairs probing rules out banned meanwhile: they
    /// follow from the position and the line's bans, so they stay out of
    /// the table's keys.
    pub(super) fn probe_and_branch(
        &mut self,
        board: &mut Board,
        zobrist: &mut Zobrist,
        moves: &[Move],
    ) -> Step {
        if !self.probing {
            return self.branch(board, zobrist, moves[0]);
        }
        let nodes = self.nodes;
        let mut spend = |units| self.meter.spend(units, nodes);
        let Some(found) = probe(board, &mut self.bans, &mut spend)? else {
            return Ok(false);
        };
        let left: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| !self.bans.contains(m))
            .collect();
        let result = if left.is_empty() {
            Ok(false)
        } else {
            let m = if self.mobility {
                self.free_mobility(board, &left)?
            } else {
                left[0]
            };
            self.branch(board, zobrist, m)
        };
        for &m in &found {
            self.bans.unban(m, false);
        }
        result
    }

    /// Both sides of the choice on the open pair `m`: taken, or banned.
    pub(super) fn branch(&mut self, board: &mut Board, zobrist: &mut Zobrist, m: Move) -> Step {
        let before = self.played.len();
        self.take(board, zobrist, m);
        if self.free(board, zobrist)? {
            return Ok(true);
        }
        self.untake(board, zobrist, before);
        let banned = self.bans.ban_pairing(board, m);
        let found = self.free(board, zobrist);
        for &b in &banned {
            self.bans.unban(b, true);
        }
        found
    }

    /// The search with gravity, on copies of the board.
    pub(super) fn gravity(&mut self, board: &Board) -> Step {
        self.tick()?;
        let mark = self.played.len();
        let mut board = board.clone();
        self.take_safe_gravity(&mut board);
        if board.is_cleared() {
            return Ok(true);
        }
        let hash = position_hash(&board);
        if !self.failed.contains(&hash) {
            let mut moves = self.ordered(&board);
            if self.mobility {
                moves = self.by_mobility(&board, moves)?;
            } else {
                // Tiles with little above them disturb the least.
                moves.sort_by_key(|m| burden(&board, m));
            }
            for m in moves {
                let kind = board.get(m.a).expect("moves name tiles");
                let mut next = board.clone();
                next.remove_pair(m.a, m.b, true);
                self.played.push((m, kind));
                if self.gravity(&next)? {
                    return Ok(true);
                }
                self.played.pop();
            }
            self.failed.insert(hash);
        }
        self.played.truncate(mark);
        Ok(false)
    }

    /// Safe removals under gravity: a class paired by open connections
    /// whose tiles all have nothing above them, so that nothing falls.
    pub(super) fn take_safe_gravity(&mut self, board: &mut Board) {
        loop {
            // Every class found is taken: removing top tiles moves nothing,
            // so the other classes' pairs stay open and on top.
            let moves = board.open_pairings_where(|t| board.is_top(t));
            if moves.is_empty() {
                return;
            }
            for m in moves {
                let kind = board.get(m.a).expect("moves name tiles");
                board.remove_pair(m.a, m.b, true);
                self.played.push((m, kind));
            }
        }
    }
    /// Whether the board cannot be cleared without gravity, by a relaxation:
    /// let any tile go as soon as it connects to the cell of any tile of its
    /// class it may still pair with (not banned), still there or gone, and
    /// repeat. Every real solution removes its tiles no sooner than this does
    /// (by induction on its moves: their paths run through cells this has
    /// emptied too), so if this leaves a tile, no solution exists.
    pub(super) fn hopeless(&mut self, board: &Board) -> Result<bool, Stop> {
        let (tiles, ranges) = flat_classes(board);
        self.meter.spend(tiles.len() as u64, self.nodes)?;
        let order = outside_in(board, &tiles);
        Ok(!relaxation_clears(
            board,
            &tiles,
            &ranges,
            not_banned(&self.bans, &tiles),
            &[],
            &order,
            None,
        ))
    }

    /// Without gravity: the move whose removal leaves the most moves open
    /// (the last of equals). A removal only opens connections, so this takes
    /// the pair that frees the most; on hard boards it finds solutions, and
    /// short refutations, where the plain order wanders.
    pub(super) fn free_mobility(&mut self, board: &Board, moves: &[Move]) -> Result<Move, Stop> {
        let mut best = (0, moves[0]);
        for &m in moves {
            self.meter.spend(board.tiles_left() as u64, self.nodes)?;
            let mut next = board.clone();
            next.remove_pair(m.a, m.b, false);
            let open = next.count_moves();
            if open >= best.0 {
                best = (open, m);
            }
        }
        Ok(best.1)
    }

    /// `moves` ordered by the moves their removal leaves, most first (ties
    /// in the given order): under gravity, keeping many pairs open keeps
    /// the options that a falling column can take away.
    pub(super) fn by_mobility(
        &mut self,
        board: &Board,
        moves: Vec<Move>,
    ) -> Result<Vec<Move>, Stop> {
        let mut scored = Vec::with_capacity(moves.len());
        for m in moves {
            self.meter.spend(board.tiles_left() as u64, self.nodes)?;
            let mut next = board.clone();
            next.remove_pair(m.a, m.b, true);
            scored.push((next.count_moves(), m));
        }
        scored.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
        Ok(scored.into_iter().map(|(_, m)| m).collect())
    }
}

/// The tiles of the classes still on the board, class after class, and
/// for each tile the index range of its class.
pub(super) fn flat_classes(board: &Board) -> (Vec<Point>, Vec<Range<usize>>) {
    let mut tiles = Vec::with_capacity(board.tiles_left());
    let mut ranges = Vec::with_capacity(board.tiles_left());
    for group in board.groups().filter(|g| g.len() >= 2) {
        let range = tiles.len()..tiles.len() + group.len();
        tiles.extend(
            group
                .iter()
                .map(|&c| Point::new((c & 0xFFFF) as i32, (c >> 16) as i32)),
        );
        ranges.extend(std::iter::repeat_n(range, group.len()));
    }
    (tiles, ranges)
}

/// The indices of `tiles`, nearest the board's edge first: the order in
/// which a relaxation tends to let them go, so that its first sweep
/// already lets most go.
pub(super) fn outside_in(board: &Board, tiles: &[Point]) -> Vec<usize> {
    let (w, h) = (board.width() as i32, board.height() as i32);
    let depth = |p: Point| p.x.min(w - 1 - p.x).min(p.y).min(h - 1 - p.y);
    let mut order: Vec<usize> = (0..tiles.len()).collect();
    order.sort_by_key(|&i| depth(tiles[i]));
    order
}

/// The number of tiles above a move's two tiles.
pub(super) fn burden(board: &Board, m: &Move) -> usize {
    [m.a, m.b]
        .iter()
        .map(|p| {
            (0..p.y)
                .filter(|&y| board.get(Point::new(p.x, y)).is_some())
                .count()
        })
        .sum()
}

/// A hash of a whole position (for gravity, where tiles move).
pub(super) fn position_hash(board: &Board) -> u64 {
    board.position_key()
}
