//! Glicko-2: a rating, its deviation (how sure the system is of it) and
//! its volatility (how erratic the player is), updated from a rating
//! period's games.

use std::f64::consts::PI;

/// The factor between the Glicko scale (1500-centred, as shown) and the
/// Glicko-2 scale the update works on: 400 / ln 10.
const SCALE: f64 = 173.7178;

/// Milliseconds in a day, for [`Rating::idle`].
const MILLIS_A_DAY: f64 = 86_400_000.0;

/// When the volatility's iteration stops: Glickman's convergence
/// tolerance.
const EPSILON: f64 = 0.000_001;

/// The constants of a rating system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// τ: how far the volatility may move in one period. Glickman advises
    /// 0.3 to 1.2; smaller keeps ratings steadier.
    pub tau: f64,
    /// A new player's rating.
    pub start_rating: f64,
    /// A new player's deviation, also the most a deviation may grow to.
    pub start_rd: f64,
    /// A new player's volatility.
    pub start_volatility: f64,
    /// A rating is provisional while its deviation is at least this.
    pub provisional_rd: f64,
    /// Rating periods a day away: how fast the deviation of a player who
    /// does not race widens ([`Rating::idle`]).
    pub periods_per_day: f64,
}

impl Params {
    /// lichess's values, which its players know and compare against:
    ///
    /// - τ = 0.75: at the upper middle of Glickman's range, because racers
    ///   improve quickly (a speedsolver's times fall for months) and a
    ///   rating that trails their real strength is the most common
    ///   complaint; lichess chose it for the same reason;
    /// - 1500: the middle of the Glicko scale, so a new player is expected
    ///   to beat half the field;
    /// - RD 500: far wider than Glickman's 350, so a newcomer's first few
    ///   races move the rating by hundreds of points and it reaches the
    ///   player's level in a handful of races instead of dozens;
    /// - volatility 0.09: a little above Glickman's 0.06, matching the
    ///   wider start and the faster τ (a new player's level is unknown,
    ///   and is expected to change);
    /// - provisional while RD ≥ 110: until then the rating is a guess
    ///   (shown with a question mark on lichess) and stays off the
    ///   leaderboards, so a lucky first few races cannot top them;
    /// - 0.21436 rating periods a day away: a settled player (RD 60,
    ///   volatility 0.06) who stops racing is provisional again after
    ///   about a year, so a return is rated as the guess it is.
    pub const LICHESS: Params = Params {
        tau: 0.75,
        start_rating: 1500.0,
        start_rd: 500.0,
        start_volatility: 0.09,
        provisional_rd: 110.0,
        periods_per_day: 0.21436,
    };
}

impl Default for Params {
    fn default() -> Params {
        Params::LICHESS
    }
}

/// A player's rating in one pool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating, on the 1500-centred scale.
    pub rating: f64,
    /// The rating deviation: about a 95 % chance the player's strength is
    /// within two of these of the rating.
    pub rd: f64,
    /// The volatility: how erratic the player's results are.
    pub volatility: f64,
}

/// One game of a rating period, as the player saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// 1 for a win, ½ for a draw, 0 for a loss.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// A new player's rating under `params`.
    pub fn new(params: &Params) -> Rating {
        Rating {
            rating: params.start_rating,
            rd: params.start_rd,
            volatility: params.start_volatility,
        }
    }

    /// Whether the rating is still provisional: the system is not yet sure
    /// enough of it to rank it.
    pub fn provisional(&self, params: &Params) -> bool {
        self.rd >= params.provisional_rd
    }

    /// The rating after `idle_millis` without rated races: the deviation
    /// widened as by that many days' rating periods without games
    /// (Glickman's step 6 alone), never past `params.start_rd`. The rating
    /// itself does not move: nothing was learnt of the player meanwhile.
    pub fn idle(&self, idle_millis: i64, params: &Params) -> Rating {
        if idle_millis <= 0 {
            return *self;
        }
        let periods = idle_millis as f64 / MILLIS_A_DAY * params.periods_per_day;
        let phi = self.rd / SCALE;
        let widened = (phi * phi + self.volatility * self.volatility * periods).sqrt();
        Rating {
            rd: (widened * SCALE).min(params.start_rd),
            ..*self
        }
    }

    /// How fast an idle deviation's square grows on the shown scale, per
    /// millisecond and per unit of volatility squared: `rd² + σ² · this ·
    /// idle_millis` is the square of [`Rating::idle`]'s deviation (before
    /// its cap), for a store that must tell provisional ratings in a query.
    pub fn idle_growth_per_milli(params: &Params) -> f64 {
        SCALE * SCALE * params.periods_per_day / MILLIS_A_DAY
    }

    /// The rating after one rating period with these `games`, all against
    /// opponents' ratings from before the period (Glickman's steps 2–8).
    /// A period without games only widens the deviation by the
    /// volatility. The deviation never grows past `params.start_rd`.
    pub fn update(&self, games: &[Game], params: &Params) -> Rating {
        // Step 2: to the Glicko-2 scale.
        let mu = (self.rating - params.start_rating) / SCALE;
        let phi = self.rd / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let rd = ((phi * phi + sigma * sigma).sqrt() * SCALE).min(params.start_rd);
            return Rating { rd, ..*self };
        }
        // Steps 3 and 4: the estimated variance from the games alone, and
        // the improvement they show.
        let mut inverse_v = 0.0;
        let mut improvement = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - params.start_rating) / SCALE;
            let phi_j = game.opponent.rd / SCALE;
            let e = expected(mu, mu_j, phi_j);
            inverse_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
            improvement += g(phi_j) * (game.score - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * improvement;
        // Step 5: the new volatility.
        let sigma = new_volatility(phi, sigma, v, delta, params.tau);
        // Steps 6 and 7: the deviation widened by the volatility, then
        // narrowed by the games; the rating moved by the improvement.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * improvement;
        // Step 8: back to the shown scale.
        Rating {
            rating: SCALE * mu + params.start_rating,
            rd: (SCALE * phi).min(params.start_rd),
            volatility: sigma,
        }
    }
}

/// Step 5: σ′ as the root of Glickman's f by the Illinois algorithm.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > EPSILON {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}
