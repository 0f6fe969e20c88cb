"""Type stubs for tessera.slide (the compiled tessera._native.slide)."""

from pathlib import Path
from types import ModuleType
from typing import Literal, Optional, TypedDict, Union

import numpy as np
import numpy.typing as npt

Size = Union[str, int]
"""``"WxH"`` such as ``"4x3"``, or the side of a square board."""

Goal = Union[str, "Position"]
"""``"row-major"``, ``"blank-first"``, ``"snake"``, ``"spiral"``,
``"missing:K"``, a position's text, or a Position."""

Metric = Literal["stm", "mtm"]
Heuristic = Literal["auto", "large", "small", "manhattan"]

class Position:
    """A sliding-puzzle position: tiles in row-major order, 0 the blank."""

    @staticmethod
    def parse(text: str, size: Optional[Size] = None) -> Position: ...
    @staticmethod
    def random(size: Size, seed: int, goal: str = "row-major") -> Position: ...
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
    def is_solvable(self, goal: Goal = "row-major") -> bool: ...
    def manhattan(self, goal: Goal = "row-major") -> int: ...
    def apply(self, moves: str) -> Position: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

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
    def __eq__(self, other: object) -> bool: ...

def solve(
    position: Position,
    goal: Goal = "row-major",
    optimal: bool = True,
    metric: Metric = "stm",
    time_limit: Optional[float] = None,
    heuristic: Heuristic = "auto",
) -> Solution: ...
def fast_solve(position: Position, goal: Goal = "row-major") -> Solution: ...
def distances(
    positions: npt.NDArray[np.uint8],
    goal: Goal = "row-major",
    size: Optional[Size] = None,
    metric: Metric = "stm",
    heuristic: Heuristic = "auto",
    threads: Optional[int] = None,
) -> npt.NDArray[np.int32]: ...

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
        size: Optional[Size] = None,
        goal: str = "row-major",
        heuristic: Literal["large", "small", "manhattan"] = "large",
        cache_dir: Optional[str] = None,
    ) -> _BuildReport: ...
    @staticmethod
    def status(cache_dir: Optional[str] = None) -> _Status: ...

tables: _Tables
