"""tessera.slide.distances: batch optimal distances for NumPy arrays,
against a breadth-first search written here, with the GIL released and
bad rows named by index."""

import random
import threading
import time

import numpy as np
import pytest

from tessera.slide import Position, distances, solve

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def _bfs_3x3(goal):
    """Every position reachable from `goal` with its distance: a plain
    breadth-first search over the 181,440 positions."""
    moves = {
        cell: [cell + d for d in (-3, 3) if 0 <= cell + d < 9]
        + [cell + d for d in (-1, 1) if 0 <= cell % 3 + d < 3]
        for cell in range(9)
    }
    distance = {goal: 0}
    frontier = [goal]
    while frontier:
        following = []
        for tiles in frontier:
            blank = tiles.index(0)
            for other in moves[blank]:
                moved = list(tiles)
                moved[blank], moved[other] = moved[other], 0
                moved = tuple(moved)
                if moved not in distance:
                    distance[moved] = distance[tiles] + 1
                    following.append(moved)
        frontier = following
    return distance


@pytest.fixture(scope="module")
def bfs():
    return _bfs_3x3(GOAL)


def test_3x3_distances_match_a_breadth_first_search(bfs):
    assert len(bfs) == 181_440 and max(bfs.values()) == 31
    rng = random.Random(36)
    sample = rng.sample(sorted(bfs), 20_000)
    # Every distance from 0 to 31 is in the batch, the two 31s included.
    sample += [t for t, d in bfs.items() if d == 31]
    sample += [min(t for t, d in bfs.items() if d == depth) for depth in range(31)]
    array = np.array(sample, dtype=np.uint8)
    found = distances(array)
    assert found.dtype == np.int32 and found.shape == (len(sample),)
    expected = np.array([bfs[t] for t in sample], dtype=np.int32)
    np.testing.assert_array_equal(found, expected)
    assert set(found.tolist()) == set(range(32))


def test_one_thread_and_all_threads_agree(bfs):
    sample = random.Random(7).sample(sorted(bfs), 2_000)
    array = np.array(sample, dtype=np.uint8)
    np.testing.assert_array_equal(distances(array, threads=1), distances(array))


def test_larger_boards_goals_and_metrics_agree_with_solve():
    starts = [Position.random("4x3", seed=s, goal="spiral") for s in range(12)]
    array = np.array([p.tiles for p in starts], dtype=np.uint8)
    found = distances(array, goal="spiral", size="4x3")
    assert found.tolist() == [solve(p, goal="spiral").stm for p in starts]
    starts = [Position.random(3, seed=s) for s in range(12)]
    array = np.array([p.tiles for p in starts], dtype=np.uint8)
    assert distances(array, metric="mtm").tolist() == [solve(p, metric="mtm").mtm for p in starts]


def test_a_non_contiguous_view_and_an_empty_batch():
    starts = [Position.random(3, seed=s).tiles for s in range(10)]
    array = np.array(starts, dtype=np.uint8)
    view = array[::2]
    assert not view.flags["C_CONTIGUOUS"] or view.shape[0] == 5
    assert distances(view).tolist() == distances(np.ascontiguousarray(view)).tolist()
    assert distances(np.zeros((0, 9), dtype=np.uint8)).shape == (0,)


@pytest.mark.parametrize(
    "row, message",
    [
        ([1, 2, 3, 4, 5, 6, 7, 7, 0], "tile 7 appears twice"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9], "no blank"),
        ([1, 2, 3, 4, 5, 6, 7, 99, 0], "tile 99"),
        ([1, 2, 3, 4, 5, 6, 8, 7, 0], "unsolvable"),
    ],
)
def test_a_bad_row_raises_with_its_index(row, message):
    rows = [list(GOAL)] * 5
    rows[3] = row
    with pytest.raises(ValueError) as raised:
        distances(np.array(rows, dtype=np.uint8))
    assert str(raised.value).startswith("row 3: ")
    assert message in str(raised.value)


def test_bad_shapes_and_types_raise():
    with pytest.raises(ValueError, match="give the size"):
        distances(np.zeros((2, 12), dtype=np.uint8))
    with pytest.raises(ValueError, match="cells"):
        distances(np.zeros((2, 12), dtype=np.uint8), size="4x4")
    with pytest.raises(ValueError, match="too large"):
        distances(np.zeros((2, 36), dtype=np.uint8))
    with pytest.raises(TypeError):
        distances(np.array([GOAL], dtype=np.int64))
    with pytest.raises(TypeError):
        distances(np.array(GOAL, dtype=np.uint8))


def test_the_gil_is_released_while_distances_works():
    # 4x3 positions take the optimal solver milliseconds each: long enough
    # to watch a Python thread run meanwhile.
    starts = [Position.random("4x3", seed=s).tiles for s in range(1000)]
    array = np.array(starts, dtype=np.uint8)
    ticks = 0
    running = True

    def count():
        nonlocal ticks
        while running:
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    try:
        before = ticks
        began = time.monotonic()
        distances(array, size="4x3", threads=1)
        took = time.monotonic() - began
        during = ticks - before
    finally:
        running = False
        counter.join()
    assert took > 0.05, "the batch is too quick to tell"
    # Holding the GIL, the call would freeze the counter for its whole run
    # (the switch interval is 5 ms); released, it keeps counting.
    assert during > 10_000, (during, took)


def test_ctrl_c_stops_a_batch():
    import os
    import signal

    hard = [Position.parse("15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0").tiles] * 4
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    began = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        distances(np.array(hard, dtype=np.uint8), heuristic="manhattan")
    assert time.monotonic() - began < 5, "stopped at once, not after the search"
