"""Benchmarks of the Python package (scripts/bench-python runs this):

1. Korf's 100 15-puzzle instances solved from Python against the command
   line, whole processes, best of several runs;
2. ``distances`` throughput on random 4x4 positions, on 1 and 2 threads;
3. a pure-Python IDA* with the Manhattan distance (written here, the
   textbook algorithm) against ``solve`` on the same 20 positions;
4. how soon Ctrl-C (a SIGINT to the process) stops ``fast_solve`` on
   1000x1000 and the build of the large 4x4 tables;
5. steps per second of tessera.gym's native vector environment on 4x4 at
   several batch sizes, beside a plain batched NumPy step written here
   and, when they can be imported, Jumanji's SlidingTilePuzzle (JAX) and
   puzzle15gym (pure Python);
6. data-set positions per second: ``random_walks`` (labelled by their walk
   depths) beside a batched NumPy walk written here, and ``dataset``
   (exact optimal labels) on 1 and 2 threads.

Every solution length is checked (against Korf's listed optima, or
between the solvers); a mismatch aborts.
"""

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

from tessera.slide import Position, dataset, distances, fast_solve, random_walks, solve, tables

# Whole process: import, tables loaded from the cache, 100 solves, each
# checked against the listed optimum.
KORF_FROM_PYTHON = """
import sys
from tessera.slide import Position, solve
for line in open(sys.argv[1]):
    if line.startswith("#") or not line.strip():
        continue
    number, optimum, *tiles = line.split()
    found = solve(Position.parse(" ".join(tiles)), goal="blank-first", heuristic="large")
    assert found.optimal and found.stm == int(optimum), (number, found.stm, optimum)
"""


def best_of(runs, work):
    """The shortest wall time and the shortest CPU time (this process's
    threads and its finished children) of `runs` runs of `work`: on a
    shared machine the CPU time is the steadier measure."""
    walls, cpus = [], []
    for _ in range(runs):
        began, cpu = time.perf_counter(), _cpu()
        work()
        walls.append(time.perf_counter() - began)
        cpus.append(_cpu() - cpu)
    return min(walls), min(cpus)


def _cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def korf(cli, data, runs):
    lines = [l for l in open(data) if l.strip() and not l.startswith("#")]
    optima = [int(l.split()[1]) for l in lines]
    positions = "".join(" ".join(l.split()[2:]) + "\n" for l in lines)

    def command_line():
        done = subprocess.run(
            [cli, "slide", "solve", "--goal", "blank-first", "--heuristic", "large", "--count-only", "-"],
            input=positions, capture_output=True, text=True, check=True,
        )
        assert list(map(int, done.stdout.split())) == optima

    def python():
        subprocess.run([sys.executable, "-c", KORF_FROM_PYTHON, data], check=True)

    # Warm the page cache for the tables, then alternate.
    command_line()
    python()
    cli_wall, cli_cpu = best_of(runs, command_line)
    python_wall, python_cpu = best_of(runs, python)
    print("## Korf 100 (whole processes, tables from the cache, best of %d)" % runs)
    print("| | wall | CPU |")
    print("|---|---:|---:|")
    print("| `tessera slide solve --heuristic large` | %.3f s | %.3f s |" % (cli_wall, cli_cpu))
    print("| Python `solve(..., heuristic=\"large\")` | %.3f s | %.3f s |" % (python_wall, python_cpu))
    print("| Python against the command line | %+.1f %% | %+.1f %% |"
          % (100 * (python_wall / cli_wall - 1), 100 * (python_cpu / cli_cpu - 1)))
    print()


def throughput(count, runs):
    array = np.array([Position.random(4, seed=s).tiles for s in range(1, count + 1)], dtype=np.uint8)
    distances(array[:10], heuristic="large")  # tables loaded
    results = {}
    for threads in (1, 2):
        found = []
        results[threads] = best_of(runs, lambda: found.append(distances(array, heuristic="large", threads=threads)))
        assert all((f == found[0]).all() for f in found)
    print("## `distances` on %d random 4x4 positions (large tables, best of %d)" % (count, runs))
    print("| threads | wall | CPU | positions/s (wall) | speed-up (wall) |")
    print("|---:|---:|---:|---:|---:|")
    for threads, (wall, cpu) in results.items():
        print("| %d | %.2f s | %.2f s | %.0f | %.2f× |" % (threads, wall, cpu, count / wall, results[1][0] / wall))
    print()


def _neighbours(width, height):
    moves = []
    for cell in range(width * height):
        x, y = cell % width, cell // width
        moves.append([cell + dx + dy * width for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                      if 0 <= x + dx < width and 0 <= y + dy < height])
    return moves


def ida_star_manhattan(tiles, width=4, height=4):
    """The textbook IDA* with the Manhattan distance, incrementally
    updated, goal row-major with the blank last: the optimal length."""
    n = width * height
    home = {t: ((t - 1) % width, (t - 1) // width) for t in range(1, n)}
    cost = [[0] * n for _ in range(n)]
    for t in range(1, n):
        for cell in range(n):
            cost[t][cell] = abs(cell % width - home[t][0]) + abs(cell // width - home[t][1])
    board = list(tiles)
    moves = _neighbours(width, height)
    estimate = sum(cost[t][c] for c, t in enumerate(board) if t)
    bound = estimate

    def search(blank, g, h, bound, previous):
        f = g + h
        if f > bound:
            return f
        if h == 0:
            return -1
        least = 1 << 30
        for cell in moves[blank]:
            if cell == previous:
                continue
            tile = board[cell]
            delta = cost[tile][blank] - cost[tile][cell]
            board[blank], board[cell] = tile, 0
            found = search(cell, g + 1, h + delta, bound, blank)
            board[cell], board[blank] = tile, 0
            if found == -1:
                return -1
            least = min(least, found)
        return least

    sys.setrecursionlimit(10_000)
    while True:
        found = search(board.index(0), 0, estimate, bound, -1)
        if found == -1:
            return bound
        bound = found


def against_pure_python(walk, count):
    positions = [Position.random(4, seed=s, scramble="walk:%d" % walk) for s in range(1, count + 1)]
    python_time, ours_time, manhattan_time = 0.0, 0.0, 0.0
    python, ours, manhattan = [], [], []
    solve(positions[0])  # tables loaded
    # CPU time of the process (the solver's thread included), position by
    # position, alternating the solvers so the machine's load hits all alike.
    for p in positions:
        cpu = time.process_time()
        python.append(ida_star_manhattan(p.tiles))
        python_time += time.process_time() - cpu
        cpu = time.process_time()
        manhattan.append(solve(p, heuristic="manhattan").stm)
        manhattan_time += time.process_time() - cpu
        cpu = time.process_time()
        ours.append(solve(p).stm)
        ours_time += time.process_time() - cpu
    assert python == ours == manhattan, (python, ours, manhattan)
    print("## %d 4x4 positions, %d-move random walks (optimal %d–%d moves)" % (count, walk, min(ours), max(ours)))
    print("| solver | CPU, all %d | ratio to pure Python |" % count)
    print("|---|---:|---:|")
    print("| pure-Python IDA*, Manhattan | %.2f s | 1 |" % python_time)
    print("| `solve(p, heuristic=\"manhattan\")` | %.4f s | %.0f× faster |" % (manhattan_time, python_time / manhattan_time))
    print("| `solve(p)` (pattern databases) | %.4f s | %.0f× faster |" % (ours_time, python_time / ours_time))
    print()


def _interrupted_after(delay, work):
    """Seconds from a SIGINT sent `delay` seconds into `work` to the
    KeyboardInterrupt it raises."""
    sent = []

    def send():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(delay, send)
    timer.start()
    try:
        work()
    except KeyboardInterrupt:
        return time.perf_counter() - sent[0]
    finally:
        timer.join()
    raise AssertionError("the work ended before the signal")


def interrupt_latency():
    big = Position.random("1000x1000", seed=1)
    print("## Ctrl-C: from the SIGINT to the KeyboardInterrupt")
    print("| call | signal after | stopped within |")
    print("|---|---:|---:|")
    for delay in (0.5, 5.0):
        took = _interrupted_after(delay, lambda: fast_solve(big))
        print("| `fast_solve` 1000x1000 | %.1f s | %.3f s |" % (delay, took))
    for delay in (1.0, 2.0, 4.0, 20.0):
        # The spiral goal's tables (blank in the middle): none of the other
        # parts has them in memory, and the cache is empty.
        with tempfile.TemporaryDirectory() as cache:
            build = lambda: tables.build("4x4", goal="spiral", heuristic="large", cache_dir=cache)
            took = _interrupted_after(delay, build)
        print("| `tables.build` 4x4 large | %.1f s | %.3f s |" % (delay, took))
    print()


def _numpy_step(states, steps, actions, goal, width, height, max_steps):
    """One step of every board, in NumPy array operations: the move (an
    illegal one leaves the board), the step count, reward, termination,
    truncation and the next action masks. No autoreset."""
    rows = np.arange(len(states))
    blank = np.argmin(states, axis=1)
    x, y = blank % width, blank // width
    legal = np.stack([y + 1 < height, y > 0, x + 1 < width, x > 0], axis=1)
    offset = np.array([width, -width, 1, -1])[actions]
    source = np.where(legal[rows, actions], blank + offset, blank)
    states[rows, blank] = states[rows, source]
    states[rows, source] = 0
    steps += 1
    terminated = (states == goal).all(axis=1)
    truncated = ~terminated & (steps >= max_steps)
    rewards = np.full(len(states), -1.0)
    x, y = source % width, source // width
    masks = np.stack([y + 1 < height, y > 0, x + 1 < width, x > 0], axis=1).astype(np.int8)
    return states, rewards, terminated, truncated, masks


def _peers():
    """The peers of the vector part that can be imported: Jumanji's
    SlidingTilePuzzle (JAX, on the CPU) and puzzle15gym's Puzzle15Env
    (pure Python), each with None or the reason it was skipped. Neither
    is a dependency of the package or its tests: `scripts/bench-python
    --peers` makes a separate virtualenv with them."""
    jumanji = puzzle15gym = None
    why = {}
    try:
        os.environ.setdefault("JAX_PLATFORMS", "cpu")
        import jax
        import jumanji as jumanji_package
        from jumanji.environments import SlidingTilePuzzle
        from jumanji.environments.logic.sliding_tile_puzzle.generator import RandomWalkGenerator

        jumanji = (jax, SlidingTilePuzzle, RandomWalkGenerator)
        why["Jumanji"] = "jax %s, jumanji %s, on %s" % (
            jax.__version__, jumanji_package.__version__, jax.devices()[0].platform)
    except Exception as error:  # ImportError, or a failure while importing
        why["Jumanji"] = "skipped (%s: %s)" % (type(error).__name__, error)
    try:
        from importlib.metadata import version

        from puzzle15Gym import Puzzle15Env

        puzzle15gym = Puzzle15Env
        why["puzzle15gym"] = "puzzle15gym %s" % version("puzzle15gym")
    except Exception as error:
        why["puzzle15gym"] = "skipped (%s: %s)" % (type(error).__name__, error)
    return jumanji, puzzle15gym, why


def _jumanji_runs(jumanji, n, actions):
    """Two measures of Jumanji's SlidingTilePuzzle on n 4x4 boards, both
    `jax.vmap` over the boards under `jax.jit`, compiled before they are
    timed: a reset then one call a step from Python with the step's
    actions (as the native environment is stepped), and the same steps
    in one compiled `lax.scan`. No autoreset (the plain step, as in the
    NumPy column); the last state and time step are waited for."""
    jax, SlidingTilePuzzle, RandomWalkGenerator = jumanji
    env = SlidingTilePuzzle(generator=RandomWalkGenerator(grid_size=4, num_random_moves=100), time_limit=200)
    reset, step = jax.jit(jax.vmap(env.reset)), jax.jit(jax.vmap(env.step))
    keys = jax.random.split(jax.random.PRNGKey(0), n)
    actions = actions.astype(np.int32)

    @jax.jit
    def rollout(keys, actions):
        state, _ = jax.vmap(env.reset)(keys)
        first = jax.vmap(env.step)(state, actions[0])

        def body(carry, action):
            return jax.vmap(env.step)(carry[0], action), None

        # The time step is carried so that none of its parts is dropped.
        return jax.lax.scan(body, first, actions[1:])[0]

    def stepped():
        state, timestep = reset(keys)
        for a in actions:
            state, timestep = step(state, a)
        jax.block_until_ready((state, timestep))

    def scanned():
        jax.block_until_ready(rollout(keys, jax.numpy.asarray(actions)))

    jax.block_until_ready(step(step(reset(keys)[0], actions[0])[0], actions[1]))  # compiled
    scanned()
    return stepped, scanned


def _puzzle15gym_runs(Puzzle15Env, n, actions):
    """puzzle15gym's Puzzle15Env on 4x4 with Gymnasium's TimeLimit at 200
    moves: a single environment stepped in a loop and reset when it ends
    (n = 1), and a SyncVectorEnv of n copies. The environment sets no
    observation_space attribute, which SyncVectorEnv needs: it is given
    the one the environment builds."""
    from gymnasium.vector import SyncVectorEnv
    from gymnasium.wrappers import TimeLimit

    def make():
        env = Puzzle15Env(4, 4)
        env.observation_space = env._observation_space
        return TimeLimit(env, 200)

    def single():
        env = make()
        env.reset(seed=0)
        for a in actions[:, 0].tolist():
            _, _, terminated, truncated, _ = env.step(a)
            if terminated or truncated:
                env.reset()

    def vector():
        envs = SyncVectorEnv([make] * n)
        envs.reset(seed=0)
        for a in actions:
            envs.step(a)

    return (single if n == 1 else None), vector


def _rate(value):
    return f"{value:,.0f}" if value else "—"


def _ratio(ours, theirs):
    if not theirs:
        return "—"
    return f"{ours / theirs:,.1f}x" if ours >= theirs else f"{ours / theirs:.3f}x"


def vector_env(sizes, board_steps, peer_limit):
    """Board-steps per second of SlidingPuzzleVectorEnv (4x4, uniform
    puzzles, -1 a move, truncated after 200 moves and reset on the next
    step, arrays not copied) against _numpy_step and, when they can be
    imported, Jumanji and puzzle15gym; the same random actions (0-3,
    legal or not, one array drawn for each N) and the same number of
    board-steps for all, each measure from a reset, best of 3."""
    from tessera.gym import SlidingPuzzleVectorEnv

    jumanji, puzzle15gym, why = _peers()
    goal = np.array(list(range(1, 16)) + [0], dtype=np.uint8)
    print(f"vector environment, 4x4, about {board_steps:,} board-steps a measure, best of 3")
    for name, said in why.items():
        print(f"{name}: {said}")
    print(f"puzzle15gym measured up to N = {peer_limit} (a Python loop over the copies: beyond, too long)")
    print()
    print("| N | tessera native | NumPy | Jumanji (step calls) | Jumanji (lax.scan) | puzzle15gym "
          "| tessera / Jumanji (step calls) | tessera / Jumanji (lax.scan) | tessera / puzzle15gym |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    single_rate = None
    for n in sizes:
        steps = max(board_steps // n, 20)
        actions = np.random.default_rng(0).integers(0, 4, size=(steps, n))
        env = SlidingPuzzleVectorEnv(num_envs=n, size="4x4", copy=False)

        def native():
            env.reset(seed=0)
            for a in actions:
                env.step(a)

        states0 = np.array([Position.random(4, seed=s).tiles for s in range(min(n, 4096))], dtype=np.uint8)
        states0 = np.resize(states0, (n, 16))

        def plain():
            states, counts = states0.copy(), np.zeros(n, dtype=np.int64)
            for a in actions:
                _numpy_step(states, counts, a, goal, 4, 4, 200)

        rate = lambda work: n * steps / best_of(3, work)[0]
        ours, numpy_rate = rate(native), rate(plain)
        stepped = scanned = puzzle = None
        if jumanji:
            stepped, scanned = map(rate, _jumanji_runs(jumanji, n, actions))
        if puzzle15gym and n <= peer_limit:
            single, vector = _puzzle15gym_runs(puzzle15gym, n, actions)
            if single:
                single_rate = rate(single)
            puzzle = rate(vector)
        print(f"| {n:,} | {ours:,.0f} | {numpy_rate:,.0f} | {_rate(stepped)} | {_rate(scanned)} | {_rate(puzzle)} "
              f"| {_ratio(ours, stepped)} | {_ratio(ours, scanned)} | {_ratio(ours, puzzle)} |", flush=True)
    if single_rate:
        print(f"\npuzzle15gym, one environment stepped in a loop (no vector wrapper): {single_rate:,.0f} steps/s")
    print()


def _numpy_walks(n, depth, width, height, rng):
    """n random walks from the row-major goal in NumPy array operations, as
    random_walks draws them: a length uniform in 0..=depth, each move a
    legal one that does not undo the one before. Returns (positions,
    depths)."""
    cells = width * height
    states = np.tile(np.array(list(range(1, cells)) + [0], dtype=np.uint8), (n, 1))
    lengths = rng.integers(0, depth + 1, size=n)
    rows = np.arange(n)
    blank = np.full(n, cells - 1)
    previous = np.full(n, -1)
    offsets = np.array([width, -width, 1, -1])
    for step in range(depth):
        x, y = blank % width, blank // width
        legal = np.stack([y + 1 < height, y > 0, x + 1 < width, x > 0], axis=1)
        legal[rows, previous ^ 1] &= previous < 0  # not the inverse (U D L R: a ^ 1)
        scores = np.where(legal, rng.random((n, 4)), -1.0)
        action = np.argmax(scores, axis=1)
        walking = step < lengths
        source = np.where(walking, blank + offsets[action], blank)
        states[rows, blank] = states[rows, source]
        states[rows, source] = 0
        blank = source
        previous = np.where(walking, action, previous)
    return states, lengths.astype(np.int32)


def datasets(runs):
    """Data-set positions per second, best of `runs` (wall): depth-labelled
    random walks on 4x4 (tessera's `random_walks` against `_numpy_walks`)
    and exact optimal labels (`dataset`: every 3x3 position of 1,000, and
    4x4 positions, uniform and 40-move walks) on 1 thread and on 2."""
    print("## Data sets: positions per second (best of %d, wall)" % runs)
    print("| data set | n | tessera | baseline | tessera / baseline |")
    print("|---|---:|---:|---:|---:|")
    for n, depth in ((100_000, 60), (1_000_000, 60)):
        walked = []
        ours = best_of(runs, lambda: walked.append(random_walks(n, depth, "4x4", seed=1)))[0]
        positions, depths = walked[0]
        assert positions.shape == (n, 16) and depths.max() <= depth
        plain = best_of(runs, lambda: _numpy_walks(n, depth, 4, 4, np.random.default_rng(1)))[0]
        print("| 4x4 random walks, depths 0-%d (baseline: NumPy walk) | %s | %s | %s | %s |"
              % (depth, f"{n:,}", _rate(n / ours), _rate(n / plain), _ratio(plain, ours)))
    distances(np.array([Position.random(4, seed=1).tiles], dtype=np.uint8))  # tables loaded
    for label, n, size, scramble in (
        ("3x3 uniform, optimal", 100_000, "3x3", "uniform"),
        ("4x4 40-move walks, optimal", 2_000, "4x4", "walk:40"),
        ("4x4 uniform, optimal (small tables)", 40, "4x4", "uniform"),
    ):
        found = {}
        times = {}
        for threads in (1, 2):
            out = []
            times[threads] = best_of(runs, lambda: out.append(dataset(n, size, scramble=scramble, seed=1, threads=threads)))[0]
            found[threads] = out[0]
        assert all((a == b).all() for a, b in zip(found[1], found[2])) and found[2][2].all()
        print("| %s (baseline: 1 thread) | %s | %s | %s | %s |"
              % (label, f"{n:,}", _rate(n / times[2]), _rate(n / times[1]), _ratio(times[1], times[2])))
    print()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli")
    parser.add_argument("--korf")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--walk", type=int, default=60)
    parser.add_argument("--only", choices=["korf", "distances", "python", "interrupt", "vector", "datasets"])
    parser.add_argument("--board-steps", type=int, default=2_000_000)
    # puzzle15gym steps its copies one after the other in Python.
    parser.add_argument("--peer-limit", type=int, default=64, help="largest N for puzzle15gym")
    args = parser.parse_args()
    print("load average before: %.2f %.2f %.2f\n" % os.getloadavg())
    if args.only in (None, "korf"):
        assert args.cli and args.korf, "--cli and --korf are needed"
        korf(args.cli, args.korf, args.runs)
    if args.only in (None, "distances"):
        throughput(args.count, args.runs)
    if args.only in (None, "python"):
        against_pure_python(args.walk, 20)
    if args.only in (None, "interrupt"):
        interrupt_latency()
    if args.only in (None, "vector"):
        vector_env([1, 64, 4096, 65536], args.board_steps, args.peer_limit)
    if args.only in (None, "datasets"):
        datasets(args.runs)


if __name__ == "__main__":
    main()
