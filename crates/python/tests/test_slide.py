"""tessera.slide: positions, solvers and errors, checked against the
command line and against searches written here."""

import subprocess

import pytest
from conftest import _cli

from tessera.slide import Position, Solution, fast_solve, solve


def test_parse_str_and_repr_round_trip():
    p = Position.parse("8 6 7\n2 5 4\n3 0 1")
    assert str(p) == "8 6 7/2 5 4/3 0 1"
    assert repr(p) == "Position('8 6 7/2 5 4/3 0 1')"
    assert Position.parse(str(p)) == p
    assert hash(Position.parse(str(p))) == hash(p)
    assert (p.width, p.height, p.size, p.blank) == (3, 3, "3x3", 7)
    assert p.tiles == [8, 6, 7, 2, 5, 4, 3, 0, 1]
    import pickle

    assert pickle.loads(pickle.dumps(p)) == p
    flat = Position.parse("1 2 3 4 5 6 7 8 9 10 11 0", size="4x3")
    assert (flat.width, flat.height) == (4, 3)


@pytest.mark.parametrize(
    "text, size, message",
    [
        ("1 2 3/4 5 6/7 8 8", None, "tile 8 appears twice"),
        ("1 2 3/4 5 6/7 8 9", None, "no blank"),
        ("1 2 3 4 5 0", None, "give the size"),
        ("1 2 3/4 5", None, ""),
        ("1 2 3/4 5 6/7 8 0", "4x4", ""),
        ("1 2 3/4 x 6/7 8 0", None, ""),
    ],
)
def test_bad_positions_raise_value_error_with_the_engines_message(cli, text, size, message):
    with pytest.raises(ValueError) as raised:
        Position.parse(text, size=size)
    assert message in str(raised.value)
    # The same words the command line prints for the same input.
    args = ["slide", "check", text] + (["--size", size] if size else [])
    done = subprocess.run([str(_cli()), *args], capture_output=True, text=True)
    assert done.returncode == 2
    assert str(raised.value) in done.stderr


@pytest.mark.parametrize("size, goal", [("3x3", "row-major"), ("4x4", "row-major"), ("5x3", "spiral"), ("4x4", "blank-first")])
def test_random_matches_the_command_lines_slide_new(cli, size, goal):
    seeds = range(1, 6)
    printed = cli("slide", "new", "--size", size, "--goal", goal, "--seed", "1", "--count", "5").split("\n")
    for seed, line in zip(seeds, printed):
        p = Position.random(size, seed=seed, goal=goal)
        assert str(p) == line
        assert p.is_solvable(goal)
    walks = cli("slide", "new", "--size", size, "--goal", goal, "--scramble", "walk:30", "--seed", "1", "--count", "5").split("\n")
    for seed, line in zip(seeds, walks):
        assert str(Position.random(size, seed=seed, goal=goal, scramble="walk:30")) == line
    assert Position.random(3, seed=1) == Position.random("3x3", seed=1)
    with pytest.raises(ValueError, match="unknown scramble"):
        Position.random(3, seed=1, scramble="shuffle")
    assert Position.random(3, seed=1) != Position.random(3, seed=2)


def test_solvable_manhattan_and_apply():
    start = Position.parse("1 2 3/4 5 6/0 7 8")
    assert start.is_solvable() and start.manhattan() == 2
    assert not Position.parse("1 2 3/4 5 6/8 7 0").is_solvable()
    goal = Position.parse("1 2 3/4 5 6/7 8 0")
    assert start.apply("LL") == goal == start.apply("L2")
    assert start.manhattan(goal) == 2 and start.manhattan("snake") != 2
    assert start.apply("") == start
    with pytest.raises(ValueError, match=r"move 3 \(L\) is illegal"):
        start.apply("LLL")
    with pytest.raises(ValueError):
        start.apply("LX")
    with pytest.raises(ValueError):
        start.is_solvable("no-such-goal")
    with pytest.raises(ValueError):
        start.manhattan(Position.parse("1 2 3/4 5 6/7 8 9 10 11 12/13 14 15 0"))


def _neighbours(tiles, width, height):
    """The positions one single-tile move away (any tile next to the blank)."""
    blank = tiles.index(0)
    x, y = blank % width, blank // width
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < width and 0 <= y + dy < height:
            other = blank + dx + dy * width
            moved = list(tiles)
            moved[blank], moved[other] = moved[other], 0
            yield tuple(moved)


def _replays(start, moves, goal):
    return start.apply(moves) == goal


def test_solve_is_shortest_against_a_breadth_first_search_of_3x4():
    # A breadth-first search from a few positions (its layers give the
    # exact distance) against the optimal solver on a board that uses
    # pattern databases (3x4 is beyond the complete tables).
    goal = Position.parse("1 2 3 4/5 6 7 8/9 10 11 0")
    for seed in range(3):
        # A position near the goal (the last moves of a fast solution,
        # played backwards from the goal) keeps the search small.
        walk = fast_solve(Position.random("4x3", seed=seed)).moves[-14:]
        near = goal.apply(_inverse(walk))
        distance = _bfs_distance(tuple(near.tiles), tuple(goal.tiles), 4, 3)
        found = solve(near)
        assert found.optimal and found.stm == distance
        assert _replays(near, found.moves, goal)


def _inverse(moves):
    flip = {"U": "D", "D": "U", "L": "R", "R": "L"}
    return "".join(flip[m] for m in reversed(moves))


def _bfs_distance(start, goal, width, height):
    frontier, seen, depth = {start}, {start}, 0
    while goal not in frontier:
        frontier = {n for t in frontier for n in _neighbours(t, width, height) if n not in seen}
        seen |= frontier
        depth += 1
    return depth


def test_solution_fields_and_metrics():
    p = Position.parse("8 6 7/2 5 4/3 0 1")
    stm = solve(p)
    assert isinstance(stm, Solution)
    assert (stm.stm, stm.optimal, stm.lower_bound) == (31, True, 31)
    assert len(stm) == stm.stm == len(stm.moves)
    mtm = solve(p, metric="mtm")
    assert mtm.optimal and mtm.mtm <= stm.mtm and mtm.stm >= stm.stm
    assert _replays(p, mtm.moves, Position.parse("1 2 3/4 5 6/7 8 0"))
    assert "LDDRUU" in repr(stm) and "optimal=True" in repr(stm)


def test_solve_agrees_with_the_command_line(cli):
    for seed in range(1, 4):
        p = Position.random("4x3", seed=seed)
        assert solve(p).moves == cli("slide", "solve", "--size", "4x3", str(p)).strip()


def test_solve_towards_other_goals():
    p = Position.random("3x3", seed=4, goal="spiral")
    found = solve(p, goal="spiral")
    assert p.apply(found.moves) == Position.parse("1 2 3/8 0 4/7 6 5")
    # A goal given as a Position, here the blank-first layout.
    custom = Position.parse("0 1 2/3 4 5/6 7 8")
    start = Position.random("3x3", seed=4, goal="blank-first")
    found = solve(start, goal=custom)
    assert found.optimal and start.apply(found.moves) == custom
    assert found == solve(start, goal="blank-first")


def test_fast_solve_reaches_the_goal_on_a_large_board():
    p = Position.random("12x12", seed=9)
    found = fast_solve(p)
    assert not found.optimal and found.nodes == 0
    assert found.lower_bound == p.manhattan() <= found.stm
    assert p.apply(found.moves) == Position.random("12x12", seed=9).apply(found.moves)
    assert p.apply(found.moves).manhattan() == 0
    assert solve(p, optimal=False) == found


def test_solver_errors_raise_value_error():
    with pytest.raises(ValueError, match="unsolvable"):
        solve(Position.parse("1 2 3/4 5 6/8 7 0"))
    with pytest.raises(ValueError, match="unsolvable"):
        fast_solve(Position.parse("1 2 3/4 5 6/8 7 0"))
    with pytest.raises(ValueError, match="too large"):
        solve(Position.random("6x6", seed=1))
    with pytest.raises(ValueError, match="unknown metric"):
        solve(Position.random("3x3", seed=1), metric="qtm")
    with pytest.raises(ValueError, match="unknown heuristic"):
        solve(Position.random("3x3", seed=1), heuristic="huge")
    with pytest.raises(ValueError, match="mtm"):
        solve(Position.random("3x3", seed=1), optimal=False, metric="mtm")
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="time_limit"):
            solve(Position.random("3x3", seed=1), time_limit=bad)
    with pytest.raises(ValueError):
        Position.random("0x3", seed=1)
    with pytest.raises(TypeError):
        Position.random(3.5, seed=1)


def test_a_time_limit_returns_the_best_solution_found():
    import time

    hard = Position.parse("15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0")
    began = time.monotonic()
    found = solve(hard, time_limit=0.5, heuristic="manhattan")
    assert time.monotonic() - began < 5
    assert hard.apply(found.moves) == Position.parse("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0")
    assert found.lower_bound <= found.stm
    assert not found.optimal


def test_korf_instances_reach_their_listed_optima(korf100):
    # The easiest instances (optima 41 and 42), towards Korf's goal with
    # the blank first.
    easy = sorted(korf100, key=lambda instance: instance[1])[:3]
    goal = Position.parse(" ".join(map(str, range(16))))
    for number, optimum, tiles in easy:
        start = Position.parse(" ".join(map(str, tiles)))
        found = solve(start, goal="blank-first")
        assert (number, found.stm, found.optimal) == (number, optimum, True)
        assert start.apply(found.moves) == goal


def test_ctrl_c_stops_a_long_solve():
    import os
    import signal
    import threading
    import time

    hard = Position.parse("15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0")
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    began = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solve(hard, heuristic="manhattan")
    assert time.monotonic() - began < 5, "stopped at once, not after the search"


def test_ctrl_c_stops_a_fast_solve_of_a_large_board():
    import os
    import signal
    import threading
    import time

    big = Position.random("300x300", seed=4)
    began = time.monotonic()
    whole = fast_solve(big)
    uninterrupted = time.monotonic() - began
    assert whole.stm > 10_000_000
    # Interrupted a tenth of the way in, it stops long before the end:
    # measured against the whole solve of this run, not against a clock.
    timer = threading.Timer(uninterrupted / 10, os.kill, (os.getpid(), signal.SIGINT))
    began = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        fast_solve(big)
    stopped = time.monotonic() - began
    assert stopped < uninterrupted / 2, (stopped, uninterrupted)
    # Nothing is left behind: the next call solves as before.
    assert fast_solve(Position.random("30x30", seed=4)).stm > 0


def test_ctrl_c_stops_a_table_build_and_caches_nothing_half_built(tmp_path):
    import signal
    import sys
    import time

    # In a fresh interpreter: this one may hold the large 4x4 set already,
    # and then has nothing to build. That set builds for about two minutes.
    script = (
        "import sys\n"
        "from tessera.slide import tables\n"
        "try:\n"
        "    tables.build('4x4', heuristic='large', cache_dir=sys.argv[1])\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
        "    sys.exit(3)\n"
        "print('built')\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        # The lock file appears as the first table starts building.
        for _ in range(600):
            if any(p.name.endswith(".lock") for p in tmp_path.iterdir()):
                break
            time.sleep(0.1)
        else:
            pytest.fail("the build never started")
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    assert (out, child.returncode) == ("interrupted\n", 3)
    assert [p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")] == []
