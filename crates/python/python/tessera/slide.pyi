"""Type stubs for tessera.slide (the compiled tessera._native.slide)."""

from pathlib import Path
from types import ModuleType
from typing import Literal, Optional, TypedDict, Union, final, overload

import numpy as np
import numpy.typing as npt

__all__ = [
    "Position",
    "Solution",
    "dataset",
    "distances",
    "expand",
    "fast_solve",
    "frame",
    "is_goal",
    "next_states",
    "random_walks",
    "solve",
    "tables",
]

_Size = Union[str, int]
"""``"WxH"`` such as ``"4x3"``, or the side of a square board."""

_Goal = Union[str, "Position"]
"""``"row-major"``, ``"blank-first"``, ``"snake"``, ``"spiral"``,
``"missing:K"``, a position's text, or a Position."""

_Metric = Literal["stm", "mtm"]
_Heuristic = Literal["auto", "large", "small", "manhattan"]

@final
class Position:
    """A sliding-puzzle position: tiles in row-major order, 0 the blank."""

    @staticmethod
    def parse(text: str, size: Optional[_Size] = None) -> Position: ...
    @staticmethod
    def random(size: _Size, seed: int, goal: str = "row-major", scramble: str = "uniform") -> Position: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def size(self) -> str: ...
    @property
    def tiles(self) -> list[int]: ...
    @property
    def blank(self) -> int: ...
    def is_solvable(self, goal: _Goal = "row-major") -> bool: ...
    def manhattan(self, goal: _Goal = "row-major") -> int: ...
    def apply(self, moves: str) -> Position: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Solution:
    """A solution and what is proven of it."""

    @property
    def moves(self) -> str: ...
    @property
    def stm(self) -> int: ...
    @property
    def mtm(self) -> int: ...
    @property
    def optimal(self) -> bool: ...
    @property
    def lower_bound(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    def __len__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...

def solve(
    position: Position,
    goal: _Goal = "row-major",
    optimal: bool = True,
    metric: _Metric = "stm",
    time_limit: Optional[float] = None,
    heuristic: _Heuristic = "auto",
) -> Solution: ...
def fast_solve(position: Position, goal: _Goal = "row-major") -> Solution: ...
def distances(
    positions: npt.NDArray[np.uint8],
    goal: _Goal = "row-major",
    size: Optional[_Size] = None,
    metric: _Metric = "stm",
    heuristic: _Heuristic = "auto",
    threads: Optional[int] = None,
) -> npt.NDArray[np.int32]: ...
@overload
def dataset(
    n: int,
    size: _Size,
    goal: str = "row-major",
    scramble: str = "uniform",
    seed: int = 0,
    metric: _Metric = "stm",
    exact: bool = True,
    heuristic: _Heuristic = "auto",
    threads: Optional[int] = None,
    first_moves: Literal[False] = False,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32], npt.NDArray[np.bool_]]: ...
@overload
def dataset(
    n: int,
    size: _Size,
    goal: str = "row-major",
    scramble: str = "uniform",
    seed: int = 0,
    metric: _Metric = "stm",
    exact: bool = True,
    heuristic: _Heuristic = "auto",
    threads: Optional[int] = None,
    *,
    first_moves: Literal[True],
) -> tuple[
    npt.NDArray[np.uint8], npt.NDArray[np.int32], npt.NDArray[np.bool_], npt.NDArray[np.int8]
]: ...
def frame(
    position: Union[Position, npt.NDArray[np.uint8]],
    goal: _Goal = "row-major",
    size: Optional[_Size] = None,
    scheme: str = "plain",
    numbers: bool = True,
) -> npt.NDArray[np.uint8]: ...
def next_states(
    states: npt.NDArray[np.uint8], actions: npt.NDArray[np.integer], size: Optional[_Size] = None
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]: ...
def expand(
    states: npt.NDArray[np.uint8], size: Optional[_Size] = None
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]: ...
def is_goal(
    states: npt.NDArray[np.uint8], goal: str = "row-major", size: Optional[_Size] = None
) -> npt.NDArray[np.bool_]: ...
def random_walks(
    n: int, depth: int, size: _Size, goal: str = "row-major", seed: int = 0
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]: ...

class _BuildReport(TypedDict):
    built_seconds: float
    loaded_seconds: float
    bytes_on_disk: int
    bytes_in_memory: int

class _CachedTable(TypedDict):
    name: str
    bytes: int

class _Status(TypedDict):
    directory: Path
    tables: list[_CachedTable]
    complete: dict[str, bool]

class _Tables(ModuleType):
    @staticmethod
    def build(
        size: Optional[_Size] = None,
        goal: str = "row-major",
        heuristic: Literal["large", "small", "manhattan"] = "large",
        cache_dir: Optional[str] = None,
    ) -> _BuildReport: ...
    @staticmethod
    def status(cache_dir: Optional[str] = None) -> _Status: ...

tables: _Tables
