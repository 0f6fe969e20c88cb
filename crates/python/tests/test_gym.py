"""tessera.gym: the environments pass Gymnasium's checks, deal what the
command line deals, and the native vector environment steps as copies
of the single one do."""

import struct
import zlib

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tessera.gym
from tessera.gym import ACTIONS, ShisenShoEnv, SlidingPuzzleEnv, SlidingPuzzleVectorEnv
from tessera.shisen import Board
from tessera.slide import Position
from tessera.slide import frame as frame_of


def test_the_sliding_puzzle_passes_gymnasiums_checks():
    check_env(gym.make("tessera/SlidingPuzzle-v0", render_mode="rgb_array").unwrapped)
    spiral = gym.make("tessera/SlidingPuzzle-v0", size="4x3", goal="spiral", scramble="walk:20", reward="sparse", render_mode="rgb_array")
    check_env(spiral.unwrapped)


def test_shisen_sho_passes_gymnasiums_checks():
    env = gym.make("tessera/ShisenSho-v0", size="6x4", tiles="6x4", render_mode="rgb_array")
    check_env(env.unwrapped)
    chinese = gym.make("tessera/ShisenSho-v0", size="6x4", gravity=True, chinese=True, render_mode="rgb_array")
    check_env(chinese.unwrapped)


@pytest.mark.parametrize("size, goal, scramble", [("4x4", "row-major", "uniform"), ("5x3", "spiral", "walk:30"), ("3x3", "snake", "uniform")])
def test_a_seeded_reset_deals_what_the_command_line_deals(cli, size, goal, scramble):
    env = gym.make("tessera/SlidingPuzzle-v0", size=size, goal=goal, scramble=scramble)
    printed = cli("slide", "new", "--size", size, "--goal", goal, "--scramble", scramble, "--seed", "3", "--count", "3")
    for seed, line in zip(range(3, 6), printed.split("\n")):
        obs, info = env.reset(seed=seed)
        assert str(Position.parse(" ".join(map(str, obs)), size=size)) == line
    first, _ = env.reset(seed=9)
    again, _ = env.reset(seed=9)
    assert (first == again).all()
    drawn = [env.reset()[0] for _ in range(3)]
    env.reset(seed=9)
    assert all((a == env.reset()[0]).all() for a in drawn)


def test_steps_move_the_tile_named_and_count_illegal_moves():
    env = SlidingPuzzleEnv(size="3x3", max_steps=3)
    obs, info = env.reset(seed=1)
    position = Position.random("3x3", seed=1)
    assert list(obs) == position.tiles
    for letter in "RRD":
        legal = True
        try:
            position = position.apply(letter)
        except ValueError:
            legal = False
        assert info["action_mask"][ACTIONS.index(letter)] == legal
        obs, reward, terminated, truncated, info = env.step(ACTIONS.index(letter))
        assert list(obs) == position.tiles and reward == -1.0 and not terminated
    assert truncated
    # One move from the goal, the sparse reward pays on solving.
    env = SlidingPuzzleEnv(size="3x3", reward="sparse")
    env._tiles = np.array(Position.parse("1 2 3/4 5 6/7 0 8").tiles, dtype=np.uint8)
    env._blank = 7
    assert env.step(ACTIONS.index("L"))[1:4] == (1.0, True, False)


def test_bad_input_raises_naming_the_problem():
    env = SlidingPuzzleEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action 4 is outside the action space Discrete\(4\)"):
        env.step(4)
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(-1)
    with pytest.raises(ValueError, match="unknown reward"):
        SlidingPuzzleEnv(reward="dense")
    with pytest.raises(ValueError, match="max_steps must be a positive integer"):
        SlidingPuzzleEnv(max_steps=0)
    with pytest.raises(ValueError, match="unknown scramble"):
        SlidingPuzzleEnv(scramble="shuffle")
    with pytest.raises(ValueError):
        SlidingPuzzleEnv(goal="no-such-goal")
    with pytest.raises(ValueError, match="num_envs must be a positive integer, not 0"):
        SlidingPuzzleVectorEnv(num_envs=0)
    vector = SlidingPuzzleVectorEnv(num_envs=2)
    vector.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions\[1\] is 7: outside the action space"):
        vector.step(np.array([0, 7]))
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        vector.step(np.array([0, 1, 2]))
    shisen = ShisenShoEnv(size="4x2", tiles="2x4", solvable=False)
    shisen.reset(seed=1)
    with pytest.raises(ValueError, match="outside the action space"):
        shisen.step(shisen.action_space.n)


def test_make_vec_gives_the_native_vector_environment():
    envs = gym.make_vec("tessera/SlidingPuzzle-v0", num_envs=4, vectorization_mode="vector_entry_point", size="4x4")
    assert isinstance(envs.unwrapped, SlidingPuzzleVectorEnv)
    obs, info = envs.reset(seed=5)
    assert obs.shape == (4, 16) and obs.dtype == np.uint8
    assert [list(row) for row in obs] == [Position.random("4x4", seed=5 + i).tiles for i in range(4)]
    assert info["action_mask"].shape == (4, 4)


@pytest.mark.parametrize(
    "n, kwargs",
    [
        (6, dict(size="3x3", scramble="walk:4", reward="step", max_steps=12)),
        (6, dict(size="4x3", goal="spiral", scramble="walk:3", reward="sparse", max_steps=9)),
        (6, dict(size="2x2", scramble="uniform", reward="sparse", max_steps=5)),
        # Past the batch a step takes with the GIL held: released, and the
        # arrays borrowed as usual.
        (300, dict(size="3x3", scramble="walk:4", reward="step", max_steps=12)),
    ],
)
def test_the_vector_environment_steps_as_copies_of_the_single_one(n, kwargs):
    native = SlidingPuzzleVectorEnv(num_envs=n, **kwargs)
    sync = gym.make_vec("tessera/SlidingPuzzle-v0", num_envs=n, vectorization_mode="sync", **kwargs)
    rng = np.random.default_rng(3)
    ended = 0
    for episode_seed in (10, None):
        a, a_info = native.reset(seed=episode_seed)
        b, b_info = sync.reset(seed=episode_seed)
        if episode_seed is None:
            # Unseeded resets draw from the generators the seeded one made.
            native.reset(seed=4)
            sync.reset(seed=4)
            a, a_info = native.reset()
            b, b_info = sync.reset()
        assert (a == b).all() and (a_info["action_mask"] == b_info["action_mask"]).all()
        for _ in range(150):
            actions = rng.integers(0, 4, size=n)
            a_out, b_out = native.step(actions), sync.step(actions)
            for x, y in zip(a_out[:4], b_out[:4]):
                assert x.dtype == y.dtype and (x == y).all()
            assert (a_out[4]["action_mask"] == b_out[4]["action_mask"]).all()
            ended += int(a_out[2].sum() + a_out[3].sum())
    assert ended > 10


def test_the_vector_boards_refuse_arrays_that_share_memory():
    from tessera._native import VectorBoards

    n, goal = 2, bytes([1, 2, 3, 0])
    shared = np.zeros(n, dtype=bool)
    arrays = dict(
        states=np.zeros((n, 4), dtype=np.uint8),
        steps=np.zeros(n, dtype=np.int64),
        ended=np.zeros(n, dtype=bool),
        rewards=np.zeros(n, dtype=np.float64),
        terminated=shared,
        truncated=shared,
        masks=np.zeros((n, 4), dtype=np.int8),
    )
    with pytest.raises(ValueError, match="terminated and truncated share memory"):
        VectorBoards(arrays["states"], arrays["steps"], arrays["ended"], goal, 2, 10, False,
                     arrays["rewards"], arrays["terminated"], arrays["truncated"], arrays["masks"])
    arrays["truncated"] = np.zeros(n, dtype=bool)
    read_only = np.zeros(n, dtype=np.float64)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="rewards must be writable"):
        VectorBoards(arrays["states"], arrays["steps"], arrays["ended"], goal, 2, 10, False,
                     read_only, arrays["terminated"], arrays["truncated"], arrays["masks"])


def test_the_vector_environment_without_copies_reuses_its_arrays():
    envs = SlidingPuzzleVectorEnv(num_envs=3, copy=False)
    obs, _ = envs.reset(seed=0)
    after = envs.step(np.array([0, 1, 2]))[0]
    assert after is obs


def _png_rgb(data: bytes) -> np.ndarray:
    """An 8-bit RGBA PNG (what the command line writes) as an RGB array."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        chunks[kind] = chunks.get(kind, b"") + data[at + 8 : at + 8 + length]
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour) == (8, 6), "RGBA, 8 bits a channel"
    raw, stride = zlib.decompress(chunks[b"IDAT"]), 4 * width
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - 4] if i >= 4 else 0
            up, corner = previous[i], previous[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(height, width, 4)[:, :, :3]


def test_frames_are_the_command_lines_pictures(cli, tmp_path):
    env = SlidingPuzzleEnv(size="4x3", goal="spiral", render_mode="rgb_array")
    obs, _ = env.reset(seed=1)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    text = str(Position.parse(" ".join(map(str, obs)), size="4x3"))
    cli("slide", "render", "--goal", "spiral", text, "-o", str(tmp_path / "board.png"))
    assert (frame == _png_rgb((tmp_path / "board.png").read_bytes())).all()
    text = SlidingPuzzleEnv(size="3x3", render_mode="ansi")
    text.reset(seed=1)
    assert text.render() == str(Position.random("3x3", seed=1))
    vector = SlidingPuzzleVectorEnv(num_envs=2, render_mode="rgb_array")
    states, _ = vector.reset(seed=0)
    frames = vector.render()
    assert len(frames) == 2 and (frames[1] == frame_of(states[1])).all()
    shisen = ShisenShoEnv(size="6x4", render_mode="rgb_array")
    shisen.reset(seed=0)
    board = shisen.unwrapped._board
    (tmp_path / "deal.txt").write_text(str(board))
    cli("shisen", "render", "@" + str(tmp_path / "deal.txt"), "-o", str(tmp_path / "deal.png"))
    assert (shisen.render() == _png_rgb((tmp_path / "deal.png").read_bytes())).all()
    with pytest.raises(ValueError, match="scheme"):
        frame_of(states[0], scheme="stripes")


def test_shisen_sho_deals_what_the_command_line_deals_and_plays_to_the_end(cli):
    env = gym.make("tessera/ShisenSho-v0", preset="14x6")
    obs, info = env.reset(seed=3)
    assert str(env.unwrapped.board) == cli("shisen", "new", "--preset", "14x6", "--seed", "3", "--solvable")
    assert obs.shape == (6, 14) and (obs > 0).all()
    env = ShisenShoEnv(size="6x4", tiles="6x4", gravity=True)
    obs, info = env.reset(seed=2)
    assert env.board == Board.deal(size="6x4", tiles="6x4", gravity=True, seed=2)
    # The solver's removals, played as action indices, clear the board.
    for pair in env.board.solve().moves:
        action = env.board.moves().index(pair)
        assert info["action_mask"][action] == 1
        obs, reward, terminated, truncated, info = env.step(action)
        assert reward == 1.0
    assert terminated and info["cleared"] and (obs == 0).all()
    # An index past the pairs that connect changes nothing.
    env.reset(seed=2)
    before = env.board
    obs, reward, terminated, truncated, info = env.step(len(before.moves()))
    assert env.board == before and reward == 0.0


def test_record_video_writes_one_frame_a_step(tmp_path):
    import imageio_ffmpeg
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(
        gym.make("tessera/SlidingPuzzle-v0", size="3x3", scramble="walk:40", max_steps=12, render_mode="rgb_array"),
        video_folder=str(tmp_path / "videos"),
        episode_trigger=lambda episode: True,
        disable_logger=True,
    )
    _, info = env.reset(seed=3)
    truncated = terminated = False
    steps = 0
    while not (terminated or truncated):
        # The first legal move: a walk that never solves, cut at max_steps.
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
    env.close()
    (video,) = (tmp_path / "videos").glob("*.mp4")
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(video))
    assert frames == steps + 1


def test_unseeded_resets_draw_what_gymnasiums_generators_draw():
    # The vector environment draws in Rust from NumPy's SeedSequence and
    # PCG64, one stream a board: seeds of one and two 32-bit words and
    # the largest a puzzle seed can be.
    from gymnasium.utils import seeding

    seeds = [0, 1, 2**32 + 5, 2**64 - 1]
    envs = SlidingPuzzleVectorEnv(num_envs=len(seeds), size="3x3")
    envs.reset(seed=seeds)
    generators = [seeding.np_random(s)[0] for s in seeds]
    for _ in range(3):
        obs, _ = envs.reset()
        expected = [Position.random("3x3", seed=int(g.integers(0, 2**63))).tiles for g in generators]
        assert [list(row) for row in obs] == expected
