//! Averages as speedsolvers keep them: the mean of the latest `n` results
//! with the best and the worst 5% (rounded up, at least one each) dropped,
//! so one lucky or one botched solve does not make the average. Ao5 and
//! Ao12 drop the single best and worst, Ao50 three of each (5 % of 50 is
//! 2.5, rounded up) and Ao100 five.
//!
//! An unfinished solve (DNF) counts as worse than any time, so it is
//! among the dropped worst; when more solves are unfinished than are
//! dropped, one of them would count, and the average itself is DNF.
//!
//! Blindfold is the exception, as slidysim keeps it: a DNF resets the
//! session, so no average runs through one ([`DnfRule::EndsAverages`]).

/// How many results are dropped at each end of an average of `n`: 5%
/// rounded up, at least one.
pub fn trimmed_each_side(n: usize) -> usize {
    n.div_ceil(20).max(1)
}

/// The averages records keep, by the number of solves in each.
pub const AVERAGES: [usize; 4] = [5, 12, 50, 100];

/// One solve in an average: a time (or a move count), or unfinished.
/// Ordered best first: any finished solve is better than a DNF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Attempt {
    /// Finished, in this many milliseconds (or moves).
    Finished(i64),
    /// Did not finish.
    Dnf,
}

/// An average over a window of attempts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Average {
    /// The trimmed mean.
    Mean(f64),
    /// More unfinished solves than the average drops.
    Dnf,
}

/// What an unfinished solve does to the averages whose window holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DnfRule {
    /// It counts as the worst attempt (every format but blindfold).
    Worst,
    /// It ends every average: there is none over a window that holds it
    /// (blindfold, where slidysim resets the session on a DNF).
    EndsAverages,
}

/// The trimmed mean of the latest `n` of `latest_first`, DNFs counted as
/// the worst; `None` with fewer than `n` attempts, or too few to keep any
/// after trimming.
pub fn average(latest_first: &[Attempt], n: usize) -> Option<Average> {
    average_by(latest_first, n, DnfRule::Worst)
}

/// [`average`] with DNFs treated by `rule`: `None` as well under
/// [`DnfRule::EndsAverages`] when the window holds a DNF.
pub fn average_by(latest_first: &[Attempt], n: usize, rule: DnfRule) -> Option<Average> {
    let trim = trimmed_each_side(n);
    if latest_first.len() < n || n <= 2 * trim {
        return None;
    }
    if rule == DnfRule::EndsAverages && latest_first[..n].contains(&Attempt::Dnf) {
        return None;
    }
    let mut window = latest_first[..n].to_vec();
    window.sort_unstable();
    let mut sum = 0;
    for attempt in &window[trim..n - trim] {
        match attempt {
            Attempt::Finished(value) => sum += value,
            Attempt::Dnf => return Some(Average::Dnf),
        }
    }
    Some(Average::Mean(sum as f64 / (n - 2 * trim) as f64))
}

/// The trimmed mean of the latest `n` of `latest_first`, all finished;
/// `None` with fewer than `n` results, or too few to keep any after
/// trimming.
pub fn average_of(latest_first: &[i64], n: usize) -> Option<f64> {
    let attempts: Vec<Attempt> = latest_first
        .iter()
        .take(n)
        .map(|&v| Attempt::Finished(v))
        .collect();
    match average(&attempts, n)? {
        Average::Mean(mean) => Some(mean),
        Average::Dnf => unreachable!("finished solves average to a time"),
    }
}

/// The best average of `n` consecutive attempts of `latest_first`: where
/// its window starts (an index into `latest_first`) and its mean; a window
/// whose average is DNF is never best. Of equal averages the oldest wins:
/// a record stands until it is beaten, so keeping the best as attempts
/// arrive gives the same window.
pub fn best_window(latest_first: &[Attempt], n: usize) -> Option<(usize, f64)> {
    best_window_by(latest_first, n, DnfRule::Worst)
}

/// [`best_window`] with DNFs treated by `rule`.
pub fn best_window_by(latest_first: &[Attempt], n: usize, rule: DnfRule) -> Option<(usize, f64)> {
    improvements_by(latest_first, n, rule).pop()
}

/// Every time the best average of `n` improved as the attempts of
/// `latest_first` arrived, oldest first: where each new best window starts
/// (an index into `latest_first`) and its mean. The last is
/// [`best_window_by`]'s.
pub fn improvements_by(latest_first: &[Attempt], n: usize, rule: DnfRule) -> Vec<(usize, f64)> {
    let mut bests: Vec<(usize, f64)> = Vec::new();
    let Some(last) = latest_first.len().checked_sub(n) else {
        return bests;
    };
    for at in (0..=last).rev() {
        let Some(Average::Mean(mean)) = average_by(&latest_first[at..], n, rule) else {
            continue;
        };
        if bests.last().is_none_or(|&(_, b)| mean < b) {
            bests.push((at, mean));
        }
    }
    bests
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_window_is_the_best_of_every_window_the_oldest_of_equals() {
        // Latest first: windows of three drop the best and the worst, so
        // each is its median: [9 5 1] 5, [5 1 3] 3, [1 3 3] 3, [3 3 7] 3.
        let times = [9, 5, 1, 3, 3, 7];
        let attempts: Vec<Attempt> = times.iter().map(|&t| Attempt::Finished(t)).collect();
        assert_eq!(best_window(&attempts, 3), Some((3, 3.0)));
        assert_eq!(best_window(&attempts[..2], 3), None);
        // Kept as results arrive: each new window replaces the best only
        // when strictly better, which picks the same window.
        let mut kept: Option<(usize, f64)> = None;
        for arrived in (0..times.len()).rev() {
            let window = average_of(&times[arrived..], 3);
            if let Some(mean) = window.filter(|m| kept.is_none_or(|(_, b)| *m < b)) {
                kept = Some((arrived, mean));
            }
        }
        assert_eq!(kept, best_window(&attempts, 3));
    }

    #[test]
    fn improvements_are_each_strictly_better_best_so_far_oldest_first() {
        // Latest first; windows of three oldest first: [3 3 7] 3, [1 3 3]
        // 3 (not better), [5 1 3] 3, [9 5 1] 5, [2 9 5] 5, [1 2 9] 2.
        let times = [1, 2, 9, 5, 1, 3, 3, 7];
        let attempts: Vec<Attempt> = times.iter().map(|&t| Attempt::Finished(t)).collect();
        let got = improvements_by(&attempts, 3, DnfRule::Worst);
        assert_eq!(got, vec![(5, 3.0), (0, 2.0)]);
        assert_eq!(got.last().copied(), best_window(&attempts, 3));
        assert!(improvements_by(&attempts[..2], 3, DnfRule::Worst).is_empty());
    }

    #[test]
    fn a_window_that_averages_to_dnf_is_never_best() {
        // Latest first: 4, DNF, DNF, 6, 8. Of threes, [4 DNF DNF] and
        // [DNF DNF 6] keep a DNF: DNF; [DNF 6 8] drops the DNF and 6: 8.
        let attempts = [
            Attempt::Finished(4),
            Attempt::Dnf,
            Attempt::Dnf,
            Attempt::Finished(6),
            Attempt::Finished(8),
        ];
        assert_eq!(best_window(&attempts, 3), Some((2, 8.0)));
        assert_eq!(best_window(&attempts[..4], 3), None);
    }

    #[test]
    fn five_percent_rounded_up_at_least_one() {
        assert_eq!(trimmed_each_side(5), 1);
        assert_eq!(trimmed_each_side(12), 1);
        assert_eq!(trimmed_each_side(20), 1);
        assert_eq!(trimmed_each_side(21), 2);
        assert_eq!(trimmed_each_side(100), 5);
    }

    #[test]
    fn average_of_5_drops_one_each_side_of_the_latest_five() {
        // Latest five: 5 1 9 3 4; drop 1 and 9: (5 + 3 + 4) / 3.
        assert_eq!(average_of(&[5, 1, 9, 3, 4, 100], 5), Some(4.0));
        assert_eq!(average_of(&[1, 2, 3, 4], 5), None);
    }

    #[test]
    fn average_of_12_drops_one_each_side() {
        let times = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 1];
        // Drop 1 and 110: (10 + … + 100) / 10 = 550 / 10.
        assert_eq!(average_of(&times, 12), Some(55.0));
    }

    #[test]
    fn average_of_100_drops_five_each_side() {
        // 1..=100 shuffled by reversal: drop 1–5 and 96–100, the mean of
        // 6..=95 is 50.5.
        let times: Vec<i64> = (1..=100).rev().collect();
        assert_eq!(average_of(&times, 100), Some(50.5));
        // Five awful solves are all dropped; a sixth is not.
        let mut times: Vec<i64> = vec![1000; 100];
        times[..5].copy_from_slice(&[9_999_999; 5]);
        assert_eq!(average_of(&times, 100), Some(1000.0));
        times[5] = 1000 + 90 * 10;
        assert_eq!(average_of(&times, 100), Some(1010.0));
        assert_eq!(average_of(&times[..99], 100), None);
    }

    fn attempts(values: &[Option<i64>]) -> Vec<Attempt> {
        values
            .iter()
            .map(|v| v.map_or(Attempt::Dnf, Attempt::Finished))
            .collect()
    }

    #[test]
    fn a_dnf_in_an_average_of_5_is_the_dropped_worst() {
        // 12.0 DNF 9.0 15.0 11.0: drop 9.0 and the DNF, (12 + 15 + 11) / 3.
        let window = attempts(&[Some(12_000), None, Some(9_000), Some(15_000), Some(11_000)]);
        assert_eq!(average(&window, 5), Some(Average::Mean(38_000.0 / 3.0)));
        // A second DNF would count: the average is DNF.
        let window = attempts(&[Some(12_000), None, Some(9_000), None, Some(11_000)]);
        assert_eq!(average(&window, 5), Some(Average::Dnf));
        // Only the latest five count: a DNF sixth back does not.
        let window = attempts(&[Some(5), Some(1), Some(9), Some(3), Some(4), None]);
        assert_eq!(average(&window, 5), Some(Average::Mean(4.0)));
        assert_eq!(average(&window[..4], 5), None);
    }

    #[test]
    fn an_average_of_12_drops_one_dnf_not_two() {
        // 1..=11 seconds and a DNF: drop 1 and the DNF, the mean of 2..=11.
        let mut values: Vec<Option<i64>> = (1..=11).map(|s| Some(s * 1000)).collect();
        values.insert(4, None);
        assert_eq!(
            average(&attempts(&values), 12),
            Some(Average::Mean(6_500.0))
        );
        values[0] = None;
        assert_eq!(average(&attempts(&values), 12), Some(Average::Dnf));
    }

    #[test]
    fn an_average_of_50_drops_three_each_side() {
        // 1..=50 with the three slowest unfinished: drop 1, 2, 3 and the
        // three DNFs; the mean of 4..=47 is 25.5.
        let mut values: Vec<Option<i64>> = (1..=50).map(Some).collect();
        values[47..].fill(None);
        values.reverse();
        assert_eq!(average(&attempts(&values), 50), Some(Average::Mean(25.5)));
        // A fourth DNF counts.
        values[10] = None;
        assert_eq!(average(&attempts(&values), 50), Some(Average::Dnf));
    }

    #[test]
    fn an_average_of_100_drops_five_dnfs_not_six() {
        let mut values: Vec<Option<i64>> = vec![Some(2_000); 100];
        values[..5].fill(None);
        values[50] = Some(1_000);
        values[60] = Some(2_900);
        // Dropped: the 1000 and four 2000s below, the five DNFs above;
        // kept: 89 × 2000 and the 2900, (178000 + 2900) / 90.
        assert_eq!(
            average(&attempts(&values), 100),
            Some(Average::Mean(2_010.0))
        );
        values[99] = None;
        assert_eq!(average(&attempts(&values), 100), Some(Average::Dnf));
    }

    #[test]
    fn a_blindfold_dnf_ends_every_average_through_it() {
        // Latest first: 6 7 DNF 5 5 5 5 5. A DNF counted worst lets the
        // window [6 7 DNF 5 5] average (7 + 5 + 6) / 3; ending averages, no
        // window through the DNF counts, and the best is the five 5s
        // before it.
        let window = attempts(&[
            Some(6),
            Some(7),
            None,
            Some(5),
            Some(5),
            Some(5),
            Some(5),
            Some(5),
        ]);
        assert_eq!(average(&window, 5), Some(Average::Mean(6.0)));
        assert_eq!(average_by(&window, 5, DnfRule::EndsAverages), None);
        assert_eq!(best_window(&window, 5), Some((3, 5.0)));
        assert_eq!(
            best_window_by(&window, 5, DnfRule::EndsAverages),
            Some((3, 5.0))
        );
        // Four finished solves since the DNF: no average of 5 yet, and none
        // at all without five finished in a row. (The standard rule's best
        // window is the first: 1, 2, 2 counted against 2, 2, 2.)
        let window = attempts(&[Some(1), Some(1), None, Some(2), Some(2), Some(2), Some(2)]);
        assert_eq!(best_window(&window, 5).map(|(at, _)| at), Some(0));
        assert_eq!(best_window_by(&window, 5, DnfRule::EndsAverages), None);
    }

    #[test]
    fn the_averages_records_keep() {
        let trims: Vec<usize> = AVERAGES.iter().map(|&n| trimmed_each_side(n)).collect();
        assert_eq!(trims, [1, 1, 3, 5]);
    }
}
