"""Gymnasium environments for the sliding puzzle and Shisen-Sho
(``pip install tessera[gym]``).

Importing this module registers them:

- ``tessera/SlidingPuzzle-v0``: :class:`SlidingPuzzleEnv`, and with
  ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` the
  native :class:`SlidingPuzzleVectorEnv`, which steps every board in one
  call into Rust;
- ``tessera/ShisenSho-v0``: :class:`ShisenShoEnv`.

>>> import gymnasium as gym
>>> import tessera.gym
>>> env = gym.make("tessera/SlidingPuzzle-v0", size="3x3")
>>> obs, info = env.reset(seed=1)
>>> obs
array([4, 2, 8, 7, 3, 6, 1, 5, 0], dtype=uint8)
>>> info["action_mask"]
array([0, 1, 0, 1], dtype=int8)
>>> obs, reward, terminated, truncated, info = env.step(tessera.gym.ACTIONS.index("R"))
>>> obs, reward, terminated, truncated
(array([4, 2, 8, 7, 3, 6, 1, 0, 5], dtype=uint8), -1.0, False, False)
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tessera._native import random_positions as _random_positions
from tessera._native import vector_check_actions as _vector_check_actions
from tessera._native import vector_deal as _vector_deal
from tessera._native import vector_seed as _vector_seed
from tessera._native import VectorBoards as _VectorBoards
from tessera.shisen import Board
from tessera.slide import Position
from tessera.slide import frame as _frame

__all__ = ["ACTIONS", "ShisenShoEnv", "SlidingPuzzleEnv", "SlidingPuzzleVectorEnv"]

ACTIONS = ("U", "D", "L", "R")
"""The sliding puzzle's actions by index: the direction the tile slides
(the blank goes the other way), as in the move notation."""

_SEED_BOUND = 2**63
"""Puzzle seeds drawn by an unseeded reset lie below this."""


def _stream_words(generator: np.random.Generator) -> list[int]:
    """A PCG64 generator's state and increment as the vector environment's
    four uint64 words, high first."""
    state = generator.bit_generator.state["state"]
    mask = 2**64 - 1
    return [state["state"] >> 64, state["state"] & mask, state["inc"] >> 64, state["inc"] & mask]


def _check_positive(name: str, value: Any) -> None:
    """A ValueError unless ``value`` is a positive integer (a bool is not)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, not {value!r}")


def _check_render_mode(render_mode: Optional[str], modes: Sequence[str]) -> None:
    """A ValueError naming ``modes`` unless ``render_mode`` is ``None`` or one of them."""
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"unknown render_mode {render_mode!r}: use {' or '.join(map(repr, modes))}")


class _SlideRules:
    """What both sliding-puzzle environments share: the board, its goal,
    the scramble, the reward and the step limit, checked once."""

    def __init__(self, size: Union[str, int], goal: str, scramble: str, reward: str, max_steps: int):
        # A walk of no moves is the goal: this also checks size and goal.
        goal_position = Position.random(size, 0, goal=goal, scramble="walk:0")
        Position.random(size, 0, goal=goal, scramble=scramble)  # checks the scramble
        if max(goal_position.tiles) > 255:
            raise ValueError(f"{goal_position.size} has labels past 255, too many for uint8 observations")
        if reward not in ("step", "sparse"):
            raise ValueError(f"unknown reward {reward!r}: use 'step' (-1 per move) or 'sparse' (1 on solving)")
        _check_positive("max_steps", max_steps)
        self.size = goal_position.size
        self.width = goal_position.width
        self.height = goal_position.height
        self.cells = self.width * self.height
        self.goal_name = goal
        self.goal = np.array(goal_position.tiles, dtype=np.uint8)
        self.scramble = scramble
        self.sparse = reward == "sparse"
        self.max_steps = int(max_steps)
        self.observation_space = spaces.Box(0, int(self.goal.max()), shape=(self.cells,), dtype=np.uint8)

    def mask(self, blank: int) -> np.ndarray:
        x, y = blank % self.width, blank // self.width
        return np.array([y + 1 < self.height, y > 0, x + 1 < self.width, x > 0], dtype=np.int8)

    def source(self, blank: int, action: int) -> Optional[int]:
        """The cell of the tile that slides into the blank, if any."""
        if not self.mask(blank)[action]:
            return None
        return blank + (self.width, -self.width, 1, -1)[action]


class SlidingPuzzleEnv(gymnasium.Env):
    """The sliding puzzle on a ``size`` board (``"4x3"``, or a side),
    solved towards ``goal`` (``"row-major"``, ``"blank-first"``,
    ``"snake"``, ``"spiral"``, ``"missing:K"``, ...).

    - ``reset(seed=s)`` deals ``Position.random(size, s, goal, scramble)``,
      the puzzle ``tessera slide new --seed s`` prints; an unseeded reset
      draws the puzzle's seed from the environment's generator.
      ``scramble`` is ``"uniform"`` or ``"walk:K"`` (K random moves).
    - Observations: the tiles in row-major order, a ``uint8`` array of
      ``width * height`` cells, 0 the blank.
    - Actions: ``Discrete(4)``, ``U D L R`` (:data:`ACTIONS`), the direction
      the tile slides. A move with no tile on that side leaves the board as
      it is and still counts; ``info["action_mask"]`` (``int8``, 4 entries)
      says which moves are legal.
    - Reward: with ``reward="step"`` -1 per move; with ``"sparse"`` 1 on
      the move that solves and 0 otherwise.
    - Terminated on reaching the goal; truncated after ``max_steps`` moves.
    - ``render()``: an RGB frame (``render_mode="rgb_array"``, so
      ``RecordVideo`` works) or the position's text (``"ansi"``).
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(
        self,
        size: Union[str, int] = "3x3",
        goal: str = "row-major",
        scramble: str = "uniform",
        reward: str = "step",
        max_steps: int = 200,
        render_mode: Optional[str] = None,
    ):
        self._rules = _SlideRules(size, goal, scramble, reward, max_steps)
        _check_render_mode(render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.observation_space = self._rules.observation_space
        self.action_space = spaces.Discrete(4)
        self._tiles = self._rules.goal.copy()
        self._blank = int(np.flatnonzero(self._tiles == 0)[0])
        self._steps = 0

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None):
        super().reset(seed=seed)
        puzzle_seed = seed if seed is not None else int(self.np_random.integers(0, _SEED_BOUND))
        rules = self._rules
        position = Position.random(rules.size, puzzle_seed, goal=rules.goal_name, scramble=rules.scramble)
        self._tiles = np.array(position.tiles, dtype=np.uint8)
        self._blank = position.blank
        self._steps = 0
        return self._tiles.copy(), {"action_mask": rules.mask(self._blank)}

    def step(self, action):
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is outside the action space Discrete(4): 0 1 2 3 are U D L R")
        rules = self._rules
        source = rules.source(self._blank, int(action))
        if source is not None:
            self._tiles[self._blank], self._tiles[source] = self._tiles[source], 0
            self._blank = source
        self._steps += 1
        solved = bool(np.array_equal(self._tiles, rules.goal))
        if rules.sparse:
            reward = 1.0 if solved else 0.0
        else:
            reward = -1.0
        truncated = not solved and self._steps >= rules.max_steps
        return self._tiles.copy(), reward, solved, truncated, {"action_mask": rules.mask(self._blank)}

    def render(self):
        if self.render_mode == "ansi":
            return str(Position.parse(" ".join(map(str, self._tiles)), size=self._rules.size))
        if self.render_mode == "rgb_array":
            return _slide_frame(self._tiles, self._rules)
        return None

    @property
    def position(self) -> Position:
        """The board as a :class:`tessera.slide.Position`."""
        return Position.parse(" ".join(map(str, self._tiles)), size=self._rules.size)


class SlidingPuzzleVectorEnv(VectorEnv):
    """``num_envs`` sliding puzzles (the parameters of
    :class:`SlidingPuzzleEnv`) stepped together in one call into Rust
    (without the GIL past 256 boards: below, releasing it costs more than
    the step); states, rewards, endings and action masks are written into
    arrays allocated once, so ``copy=False`` is the fast path.

    It behaves as ``num_envs`` copies of :class:`SlidingPuzzleEnv` in a
    ``SyncVectorEnv``: ``reset(seed=s)`` seeds copy ``i`` with ``s + i``,
    and a copy that ended is reset on the following ``step``, whose action
    it ignores (next-step autoreset, Gymnasium's default), with reward 0.
    ``info["action_mask"]`` is a ``(num_envs, 4)`` ``int8`` array.
    With ``copy=False`` the arrays returned are the environment's own,
    overwritten by the next step.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        size: Union[str, int] = "3x3",
        goal: str = "row-major",
        scramble: str = "uniform",
        reward: str = "step",
        max_steps: int = 200,
        render_mode: Optional[str] = None,
        copy: bool = True,
    ):
        _check_positive("num_envs", num_envs)
        _check_render_mode(render_mode, self.metadata["render_modes"])
        self._rules = rules = _SlideRules(size, goal, scramble, reward, max_steps)
        self.num_envs = n = int(num_envs)
        self.render_mode = render_mode
        self.copy = copy
        self.single_observation_space = rules.observation_space
        self.single_action_space = spaces.Discrete(4)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._states = np.tile(rules.goal, (n, 1))
        self._steps = np.zeros(n, dtype=np.int64)
        self._ended = np.zeros(n, dtype=bool)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._masks = np.zeros((n, 4), dtype=np.int8)
        # Every board has a mask on every step (Gymnasium's "_key" array).
        self._present = np.ones(n, dtype=bool)
        # Boards that ended on the last step, reset before the next one.
        self._ending = 0
        self._goal = rules.goal.tobytes()
        # Each copy's generator, as SlidingPuzzleEnv.np_random would be:
        # its PCG64 state, drawn from in Rust ("streams"), seeded when the
        # copy is; False where a copy has never been seeded.
        self._streams = np.zeros((n, 4), dtype=np.uint64)
        self._seeded = np.zeros(n, dtype=bool)
        # The arrays a step writes, bound once in Rust: a step then costs
        # one call with one argument, which is most of a small batch's step.
        self._boards = _VectorBoards(
            self._states,
            self._steps,
            self._ended,
            self._goal,
            rules.width,
            rules.max_steps,
            rules.sparse,
            self._rewards,
            self._terminated,
            self._truncated,
            self._masks,
        )

    def _seed(self, rows: list[int], seeds: list[int]) -> None:
        """Seeds the streams of ``rows`` as ``seeding.np_random(seed)``."""
        try:
            _vector_seed(self._streams, rows, seeds)
        except OverflowError:
            # A negative seed: Gymnasium's own error says why.
            for row, given in zip(rows, seeds):
                self._streams[row] = _stream_words(seeding.np_random(given)[0])
        self._seeded[rows] = True

    def _deal(self) -> None:
        """New puzzles for the boards flagged in ``_ended``, from seeds
        their streams draw."""
        unseeded = np.flatnonzero(self._ended & ~self._seeded)
        for row in unseeded:
            # Seeded from the operating system, as np_random(None).
            self._streams[row] = _stream_words(seeding.np_random(None)[0])
        self._seeded[unseeded] = True
        rules = self._rules
        _vector_deal(self._states, self._ended, self._streams, rules.size, rules.goal_name, rules.scramble)

    def reset(self, *, seed: Optional[Union[int, Sequence[Optional[int]]]] = None, options: Optional[dict[str, Any]] = None):
        # The environment's own generator takes an int seed only; a list
        # seeds the copies.
        super().reset(seed=seed if isinstance(seed, (int, np.integer)) else None)
        n = self.num_envs
        if seed is None:
            seeds: list[Optional[int]] = [None] * n
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"reset got {len(seeds)} seeds for {n} environments")
        given = [i for i, s in enumerate(seeds) if s is not None]
        rules = self._rules
        if given:
            # A seeded copy deals the seed's own puzzle.
            puzzle_seeds = [int(seeds[i]) for i in given]  # type: ignore[arg-type]
            self._seed(given, puzzle_seeds)
            self._states[given] = _random_positions(puzzle_seeds, rules.size, rules.goal_name, rules.scramble)
        self._ended[:] = [s is None for s in seeds]
        self._deal()
        # A step in which every board is fresh: counts and masks, no move.
        self._ended[:] = True
        self._ending = self._step(np.zeros(n, dtype=np.int64))
        return self._out(self._states), {"action_mask": self._out(self._masks), "_action_mask": self._out(self._present)}

    def step(self, actions):
        if type(actions) is not np.ndarray:
            actions = np.asarray(actions)
        if self._ending:
            # Boards that ended on the last step are dealt new puzzles
            # first; the actions are checked before any board changes.
            _vector_check_actions(actions, self.num_envs)
            self._deal()
        # Checks the actions (dtype, shape, range) as it reads them.
        self._ending = self._boards.step(actions)
        info = {"action_mask": self._masks, "_action_mask": self._present}
        if self.copy:
            info = {key: value.copy() for key, value in info.items()}
            return self._states.copy(), self._rewards.copy(), self._terminated.copy(), self._truncated.copy(), info
        return self._states, self._rewards, self._terminated, self._truncated, info

    def _step(self, actions: np.ndarray) -> int:
        """Steps every board in Rust; the number that ended."""
        return self._boards.step(actions)

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def render(self):
        if self.render_mode == "rgb_array":
            return tuple(_slide_frame(row, self._rules) for row in self._states)
        return None


def _slide_frame(tiles: np.ndarray, rules: _SlideRules) -> np.ndarray:
    """The board as ``tessera slide render`` draws it, an RGB array."""
    return _frame(tiles, goal=rules.goal_name, size=rules.size)


class ShisenShoEnv(gymnasium.Env):
    """Shisen-Sho: remove matching pairs until the board is clear.

    - ``reset(seed=s)`` deals ``Board.deal(preset, s, solvable, gravity,
      chinese=chinese, size=size, tiles=tiles)``, the board ``tessera
      shisen new --preset PRESET --seed s`` deals; an unseeded reset draws
      the seed from the environment's generator.
    - Observations: a ``(height, width)`` ``int32`` array of tile classes,
      0 for an empty cell; tiles that match share a class (under
      ``chinese``, all flowers one class and all seasons another), and a
      class is numbered by its symbol's place among the deal's symbols.
    - Actions: ``Discrete(K)``, ``K`` the number of matching pairs the full
      deal holds (a bound on the pairs that connect). Action ``i`` removes
      the ``i``-th pair of ``board.moves()`` (reading order);
      ``info["action_mask"]`` (``int8``, ``K`` entries) marks the pairs that
      exist. An action naming no pair leaves the board as it is.
    - Reward 1 per pair removed. Terminated when the board is cleared or
      no pair connects (``info["cleared"]`` says which); truncated after
      ``max_steps`` actions.
    - ``render()``: an RGB frame (``"rgb_array"``) or the board's text
      (``"ansi"``).
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(
        self,
        preset: str = "14x6",
        gravity: bool = False,
        chinese: bool = False,
        solvable: bool = True,
        size: Optional[str] = None,
        tiles: Optional[str] = None,
        max_steps: int = 1000,
        render_mode: Optional[str] = None,
    ):
        _check_render_mode(render_mode, self.metadata["render_modes"])
        _check_positive("max_steps", max_steps)
        self._deal_args = dict(preset=preset, solvable=solvable, gravity=gravity, chinese=chinese, size=size, tiles=tiles)
        # Every seed deals the same tiles, shuffled: one unchecked deal
        # fixes the classes and the bound on pairs.
        board = Board.deal(**{**self._deal_args, "solvable": False}, seed=0)
        symbols = [c for c in str(board) if c not in ".\n"]
        groups = sorted({self._group(symbol, chinese) for symbol in symbols})
        number = {group: index + 1 for index, group in enumerate(groups)}
        self._classes = {symbol: number[self._group(symbol, chinese)] for symbol in set(symbols)}
        counts: dict[int, int] = {}
        for symbol in symbols:
            counts[self._classes[symbol]] = counts.get(self._classes[symbol], 0) + 1
        self._pairs = sum(c * (c - 1) // 2 for c in counts.values())
        self.render_mode = render_mode
        self.max_steps = int(max_steps)
        self.width, self.height = board.width, board.height
        self.observation_space = spaces.Box(0, len(groups), shape=(self.height, self.width), dtype=np.int32)
        self.action_space = spaces.Discrete(self._pairs)
        self._board = board
        self._moves = board.moves()
        self._steps = 0

    @staticmethod
    def _group(symbol: str, chinese: bool) -> str:
        """The key matching tiles share: flowers ``s-v`` and seasons
        ``w-z`` each form one under Chinese rules."""
        if chinese and symbol in "stuv":
            return "<flower>"
        if chinese and symbol in "wxyz":
            return "<season>"
        return symbol

    @property
    def board(self) -> Board:
        """The board as a :class:`tessera.shisen.Board`."""
        return self._board

    def _observation(self) -> np.ndarray:
        rows = str(self._board).splitlines()
        return np.array([[self._classes.get(c, 0) for c in row] for row in rows], dtype=np.int32)

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(self._pairs, dtype=np.int8)
        mask[: len(self._moves)] = 1
        return {"action_mask": mask, "cleared": self._board.is_cleared}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None):
        super().reset(seed=seed)
        deal_seed = seed if seed is not None else int(self.np_random.integers(0, _SEED_BOUND))
        self._board = Board.deal(**self._deal_args, seed=deal_seed)
        self._moves = self._board.moves()
        self._steps = 0
        return self._observation(), self._info()

    def step(self, action):
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is outside the action space Discrete({self._pairs})")
        reward = 0.0
        if int(action) < len(self._moves):
            self._board = self._board.apply(self._moves[int(action)])
            self._moves = self._board.moves()
            reward = 1.0
        self._steps += 1
        terminated = not self._moves
        truncated = not terminated and self._steps >= self.max_steps
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self):
        if self.render_mode == "ansi":
            return str(self._board)
        if self.render_mode == "rgb_array":
            return self._frame()
        return None

    def _frame(self) -> np.ndarray:
        """The board as ``tessera shisen render`` draws it."""
        return self._board.frame()


gymnasium.register(
    id="tessera/SlidingPuzzle-v0",
    entry_point=SlidingPuzzleEnv,
    vector_entry_point=SlidingPuzzleVectorEnv,
)
gymnasium.register(id="tessera/ShisenSho-v0", entry_point=ShisenShoEnv)
