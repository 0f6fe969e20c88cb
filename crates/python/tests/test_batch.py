"""Batched moves on (N, cells) uint8 arrays, against Position.apply, and
labelled data sets, against the optimal solver and the command line."""

import numpy as np
import pytest

from tessera.slide import (
    Position,
    dataset,
    distances,
    expand,
    fast_solve,
    is_goal,
    next_states,
    random_walks,
    solve,
)

LETTERS = "UDLR"


def _positions(size, count, seed):
    """`count` positions of `size`: uniform ones and short walks (blanks
    on the edges, where moves are illegal, come up often)."""
    uniform = [Position.random(size, seed=seed + i).tiles for i in range(count // 2)]
    walks, _ = random_walks(count - count // 2, 6, size, seed=seed)
    return np.vstack([np.array(uniform, dtype=np.uint8).reshape(-1, walks.shape[1]), walks])


@pytest.mark.parametrize("size, count", [("3x3", 10_000), ("4x4", 10_000), ("5x3", 3_000), ("2x2", 2_000)])
def test_next_states_and_expand_agree_with_position_apply(size, count):
    """25,000 positions by 4 actions: 100,000 (state, action) pairs, the
    illegal moves among them."""
    states = _positions(size, count, seed=7)
    children, mask = expand(states, size=size)
    rng = np.random.default_rng(1)
    actions = rng.integers(0, 4, size=len(states))
    after, legal = next_states(states, actions, size=size)
    assert after.dtype == np.uint8 and legal.dtype == bool
    illegal = 0
    for i, row in enumerate(states):
        position = Position.parse(" ".join(map(str, row)), size=size)
        for action, letter in enumerate(LETTERS):
            try:
                expected = position.apply(letter).tiles
            except ValueError:
                illegal += 1
                assert not mask[i, action]
                assert list(children[i, action]) == list(row)
                continue
            assert mask[i, action]
            assert list(children[i, action]) == expected
        assert legal[i] == mask[i, actions[i]]
        assert (after[i] == children[i, actions[i]]).all()
    assert illegal > 0


def test_is_goal_on_every_goal_name():
    for size, goal in [("3x3", "row-major"), ("4x4", "blank-first"), ("4x3", "snake"), ("5x5", "spiral")]:
        target = Position.random(size, 0, goal=goal, scramble="walk:0")
        near, _ = random_walks(50, 3, size, goal=goal, seed=2)
        states = np.vstack([near, np.array([target.tiles], dtype=np.uint8)])
        expected = [row.tolist() == target.tiles for row in states]
        assert is_goal(states, goal=goal, size=size).tolist() == expected
        assert expected[-1] and not all(expected)


def test_random_walks_are_seeded_with_depths_bounding_the_distance():
    positions, depths = random_walks(300, 12, "3x3", seed=5)
    again, same = random_walks(300, 12, "3x3", seed=5)
    assert (positions == again).all() and (depths == same).all()
    other, _ = random_walks(300, 12, "3x3", seed=6)
    assert (positions != other).any()
    assert depths.dtype == np.int32 and depths.min() == 0 and depths.max() == 12
    assert (distances(positions) <= depths).all()
    # A walk never undoes its last move: depths 1 and 2 are exact.
    short = depths <= 2
    assert (distances(positions[short]) == depths[short]).all()
    walks, _ = random_walks(10, 40, "6x5", goal="spiral", seed=1)
    assert all(Position.parse(" ".join(map(str, row)), size="6x5").is_solvable("spiral") for row in walks)


def test_bad_arrays_raise_naming_the_shape_expected():
    good = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=np.uint8)
    with pytest.raises(ValueError, match=r"uint8 array of shape \(N, cells\), not int64 of shape \(1, 9\)"):
        next_states(good.astype(np.int64), np.array([0]))
    with pytest.raises(ValueError, match=r"shape \(N, cells\), not uint8 of shape \(9,\)"):
        expand(good[0])
    with pytest.raises(TypeError, match="NumPy uint8 array"):
        is_goal([[1, 2, 3, 4, 5, 6, 7, 8, 0]])
    with pytest.raises(ValueError, match=r"actions must be an integer array of shape \(1,\)"):
        next_states(good, np.array([0, 1]))
    with pytest.raises(ValueError, match=r"actions must be an integer array"):
        next_states(good, np.array([0.0]))
    with pytest.raises(ValueError, match=r"actions\[0\] is 4: an action is 0, 1, 2 or 3"):
        next_states(good, np.array([4]))
    with pytest.raises(ValueError, match=r"actions\[0\] is -1"):
        next_states(good, np.array([-1]))
    with pytest.raises(ValueError, match="row 1: tile 1 appears twice"):
        expand(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 1, 3, 4, 5, 6, 7, 8, 0]], dtype=np.uint8))
    with pytest.raises(ValueError, match="row 0: no blank"):
        expand(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 9]], dtype=np.uint8))
    with pytest.raises(ValueError, match="give the size"):
        expand(np.zeros((1, 6), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"shape \(N, 12\) for 4x3"):
        expand(good, size="4x3")
    # Empty batches and non-contiguous views are fine.
    assert expand(np.zeros((0, 9), dtype=np.uint8))[0].shape == (0, 4, 9)
    wide = np.hstack([good, good])[:, ::2]
    assert (next_states(np.ascontiguousarray(wide), np.array([2]))[0] == next_states(wide, np.array([2]))[0]).all()


def test_dataset_matches_the_command_line_and_the_optimal_solver(cli):
    positions, labels, optimal = dataset(40, "3x3", seed=11)
    assert positions.shape == (40, 9) and positions.dtype == np.uint8
    assert labels.dtype == np.int32 and optimal.all()
    printed = cli("slide", "new", "--size", "3x3", "--seed", "11", "--count", "40").split("\n")
    for row, line, label in zip(positions, printed, labels):
        position = Position.parse(" ".join(map(str, row)))
        assert str(position) == line
    for row, label in list(zip(positions, labels))[:8]:
        assert solve(Position.parse(" ".join(map(str, row)))).stm == label
    walked, near, _ = dataset(20, "4x3", goal="snake", scramble="walk:10", seed=3, metric="mtm")
    for row, label in list(zip(walked, near))[:5]:
        position = Position.parse(" ".join(map(str, row)), size="4x3")
        assert position == Position.random("4x3", seed=3 + list(map(tuple, walked)).index(tuple(row)), goal="snake", scramble="walk:10")
        assert solve(position, goal="snake", metric="mtm").mtm == label


def test_dataset_past_the_optimal_solver_gives_marked_upper_bounds():
    with pytest.raises(ValueError, match="5x5 is too large to solve optimally.*exact=False"):
        dataset(2, "5x5")
    positions, labels, optimal = dataset(3, "5x5", seed=2, exact=False)
    assert not optimal.any()
    for row, label in zip(positions, labels):
        position = Position.parse(" ".join(map(str, row)))
        assert position == Position.random(5, seed=2 + positions.tolist().index(row.tolist()))
        assert fast_solve(position).stm == label
        assert position.manhattan() <= label
    with pytest.raises(ValueError, match="single-tile"):
        dataset(2, "5x5", exact=False, metric="mtm")
    with pytest.raises(ValueError, match="unknown scramble"):
        dataset(2, "3x3", scramble="shuffle")


def test_dataset_command_writes_the_same_arrays_as_dataset(cli, tmp_path):
    for args, kwargs in [
        (["--size", "3x3", "--count", "50", "--seed", "7", "--first-moves"], dict(n=50, size="3x3", seed=7, first_moves=True)),
        (
            ["--size", "4x3", "--goal", "snake", "--scramble", "walk:12", "--metric", "mtm", "--count", "20", "--seed", "3"],
            dict(n=20, size="4x3", goal="snake", scramble="walk:12", metric="mtm", seed=3),
        ),
        (["--size", "6x6", "--count", "5", "--seed", "2", "--inexact"], dict(n=5, size="6x6", seed=2, exact=False)),
    ]:
        path = tmp_path / "set.npz"
        cli("slide", "dataset", *args, "-o", str(path))
        written = np.load(path)
        arrays = dataset(**kwargs)
        names = ["positions", "distances", "optimal", "first_moves"][: len(arrays)]
        assert sorted(written.files) == sorted(names)
        for name, array in zip(names, arrays):
            assert written[name].dtype == array.dtype, name
            assert (written[name] == array).all(), name


def test_dataset_first_moves_lead_one_move_closer():
    positions, labels, optimal, firsts = dataset(30, "3x3", seed=5, first_moves=True)
    assert firsts.dtype == np.int8 and optimal.all()
    after, legal = next_states(positions, firsts.astype(np.int64))
    assert legal.all()
    assert (distances(after) == labels - 1).all()
    solved, zero, _, none = dataset(1, "2x2", scramble="walk:0", first_moves=True)
    assert zero[0] == 0 and none[0] == -1
