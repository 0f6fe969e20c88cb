//! The vector environment's per-board random streams, in Rust: NumPy's
//! `SeedSequence` and `PCG64`, as Gymnasium's `seeding.np_random(seed)`
//! makes them for each copy of the single environment. A copy's unseeded
//! reset deals `Position.random(size, generator.integers(0, 2**63))`;
//! drawing that for thousands of boards through Python generators, one
//! call each, cost more than stepping them.
//!
//! A stream is four `uint64` words: the 128-bit state and increment,
//! high word first.

use crate::value_error;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;

pub fn register_private(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(vector_seed, m)?)?;
    m.add_function(wrap_pyfunction!(vector_deal, m)?)?;
    Ok(())
}

// NumPy's SeedSequence constants (numpy/random/bit_generator.pyx).
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const POOL: usize = 4;

/// PCG's 128-bit LCG multiplier.
const PCG_MULTIPLIER: u128 = 0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645;

fn mix(x: u32, y: u32) -> u32 {
    let r = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    r ^ (r >> 16)
}

/// `SeedSequence(seed).pool`.
fn pool(seed: u64) -> [u32; POOL] {
    // The seed as 32-bit words, least significant first; 0 is one word.
    let entropy: Vec<u32> = if seed >> 32 == 0 {
        vec![seed as u32]
    } else {
        vec![seed as u32, (seed >> 32) as u32]
    };
    let mut hash_const = INIT_A;
    let mut hashmix = |value: u32| {
        let mut value = value ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_A);
        value = value.wrapping_mul(hash_const);
        value ^ (value >> 16)
    };
    let mut mixer = [0u32; POOL];
    for (i, slot) in mixer.iter_mut().enumerate() {
        *slot = hashmix(entropy.get(i).copied().unwrap_or(0));
    }
    for source in 0..POOL {
        for target in 0..POOL {
            if source != target {
                let hashed = hashmix(mixer[source]);
                mixer[target] = mix(mixer[target], hashed);
            }
        }
    }
    mixer
}

/// `PCG64(SeedSequence(seed))`'s state and increment.
fn pcg64_of(seed: u64) -> (u128, u128) {
    let pool = pool(seed);
    // generate_state(4, uint64): eight 32-bit words, read in pairs,
    // little-endian.
    let mut hash_const = INIT_B;
    let mut words = [0u64; 4];
    for i in 0..8 {
        let mut value = pool[i % POOL] ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_B);
        value = value.wrapping_mul(hash_const);
        value ^= value >> 16;
        words[i / 2] |= u64::from(value) << (32 * (i % 2));
    }
    let initial = (u128::from(words[0]) << 64) | u128::from(words[1]);
    let sequence = (u128::from(words[2]) << 64) | u128::from(words[3]);
    // pcg_setseq_128_srandom_r.
    let increment = (sequence << 1) | 1;
    let mut state = increment;
    state = state.wrapping_add(initial);
    state = state.wrapping_mul(PCG_MULTIPLIER).wrapping_add(increment);
    (state, increment)
}

/// The next 64 bits of a PCG64 stream (XSL-RR output of the stepped
/// state).
fn next_u64(stream: &mut [u64]) -> u64 {
    let increment = (u128::from(stream[2]) << 64) | u128::from(stream[3]);
    let mut state = (u128::from(stream[0]) << 64) | u128::from(stream[1]);
    state = state.wrapping_mul(PCG_MULTIPLIER).wrapping_add(increment);
    stream[0] = (state >> 64) as u64;
    stream[1] = state as u64;
    let folded = ((state >> 64) as u64) ^ (state as u64);
    folded.rotate_right((state >> 122) as u32)
}

/// A contiguous view of the `(N, 4)` streams.
fn streams_slice<'a>(
    streams: &'a mut numpy::PyReadwriteArray<'_, u64, numpy::Ix2>,
) -> PyResult<&'a mut [u64]> {
    streams
        .as_slice_mut()
        .map_err(|_| value_error("streams must be contiguous"))
}

/// Seeds the streams of `rows` as `seeding.np_random(seeds[i])` would.
#[pyfunction]
fn vector_seed(
    streams: &Bound<'_, PyArray2<u64>>,
    rows: Vec<usize>,
    seeds: Vec<u64>,
) -> PyResult<()> {
    let mut streams = streams.readwrite();
    let streams = streams_slice(&mut streams)?;
    if rows.len() != seeds.len() || rows.iter().any(|&row| 4 * row + 4 > streams.len()) {
        return Err(value_error("rows and seeds disagree with the streams"));
    }
    for (&row, &seed) in rows.iter().zip(&seeds) {
        let (state, increment) = pcg64_of(seed);
        streams[4 * row..4 * row + 4].copy_from_slice(&[
            (state >> 64) as u64,
            state as u64,
            (increment >> 64) as u64,
            increment as u64,
        ]);
    }
    Ok(())
}

/// Deals a new puzzle to every row of `states` flagged in `ended`: the
/// puzzle `Position.random(size, seed, goal, scramble)` gives, `seed`
/// drawn from the row's stream as `generator.integers(0, 2**63)` draws it
/// (for that range NumPy's bounded draw is the next 64 bits shifted right
/// once).
#[pyfunction]
fn vector_deal(
    py: Python<'_>,
    states: &Bound<'_, PyArray2<u8>>,
    ended: &Bound<'_, PyArray1<bool>>,
    streams: &Bound<'_, PyArray2<u64>>,
    size: &Bound<'_, PyAny>,
    goal: &str,
    scramble: &str,
) -> PyResult<()> {
    let size = crate::slide_module::size_of(size)?;
    let (scramble, goal_position) = crate::batch::dealer(size, goal, scramble)?;
    let cells = size.cells();
    let ended = ended.readonly();
    let ended = ended
        .as_slice()
        .map_err(|_| value_error("ended must be contiguous"))?;
    let mut states = states.readwrite();
    let states = states
        .as_slice_mut()
        .map_err(|_| value_error("states must be contiguous"))?;
    let mut streams = streams.readwrite();
    let streams = streams_slice(&mut streams)?;
    if states.len() != ended.len() * cells || streams.len() != ended.len() * 4 {
        return Err(value_error(
            "states, ended and streams disagree on the number of boards",
        ));
    }
    py.detach(|| {
        states
            .par_chunks_mut(cells)
            .zip(streams.par_chunks_mut(4))
            .zip(ended.par_iter())
            .with_min_len(256)
            .filter(|(_, &ended)| ended)
            .for_each(|((row, stream), _)| {
                let seed = next_u64(stream) >> 1;
                let position = scramble.generate(&goal_position, seed);
                for (cell, &tile) in row.iter_mut().zip(position.tiles()) {
                    *cell = tile as u8;
                }
            });
    });
    Ok(())
}
