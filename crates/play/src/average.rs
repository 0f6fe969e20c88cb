//! Averages as speedsolvers keep them: the mean of the latest `n` results
//! with the best and the worst 5% (rounded up, at least one each) dropped,
//! so one lucky or one botched solve does not make the average. Results
//! here are finished solves only: there is no DNF to count as worst.

/// How many results are dropped at each end of an average of `n`: 5%
/// rounded up, at least one.
pub fn trimmed_each_side(n: usize) -> usize {
    n.div_ceil(20).max(1)
}

/// The trimmed mean of the latest `n` of `latest_first`; `None` with fewer
/// than `n` results, or too few to keep any after trimming.
pub fn average_of(latest_first: &[i64], n: usize) -> Option<f64> {
    let trim = trimmed_each_side(n);
    if latest_first.len() < n || n <= 2 * trim {
        return None;
    }
    let mut window = latest_first[..n].to_vec();
    window.sort_unstable();
    let middle = &window[trim..n - trim];
    Some(middle.iter().sum::<i64>() as f64 / middle.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
