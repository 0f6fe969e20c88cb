"""Type stubs for tessera.shisen (the compiled tessera._native.shisen)."""

from typing import Literal, Optional, final

import numpy as np
import numpy.typing as npt

__all__ = ["Board", "Solution"]

_Cell = tuple[int, int]
"""``(x, y)``, 0-based from the top left; the ring around the board is at
``x = -1``, ``x = width``, ``y = -1`` and ``y = height``."""

_Pair = tuple[_Cell, _Cell]

@final
class Board:
    """A Shisen-Sho board and its rules (Chinese matching, gravity)."""

    @staticmethod
    def parse(text: str, chinese: bool = False, gravity: bool = False) -> Board: ...
    @staticmethod
    def deal(
        preset: str = "18x8",
        seed: int = 0,
        solvable: bool = True,
        gravity: bool = False,
        *,
        chinese: bool = False,
        size: Optional[str] = None,
        tiles: Optional[str] = None,
        time_limit: Optional[float] = None,
    ) -> Board: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def size(self) -> str: ...
    @property
    def tiles_left(self) -> int: ...
    @property
    def is_cleared(self) -> bool: ...
    @property
    def gravity(self) -> bool: ...
    @property
    def chinese(self) -> bool: ...
    def moves(self) -> list[_Pair]: ...
    def frame(self) -> npt.NDArray[np.uint8]: ...
    def path(self, a: _Cell, b: _Cell) -> Optional[list[_Cell]]: ...
    def apply(self, pair: _Pair) -> Board: ...
    def solve(self, time_limit: Optional[float] = 10.0) -> Solution: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class Solution:
    """What the solver found; true only when the board is solvable."""

    @property
    def verdict(self) -> Literal["solvable", "unsolvable", "unknown"]: ...
    @property
    def reason(self) -> str: ...
    @property
    def moves(self) -> Optional[list[_Pair]]: ...
    @property
    def nodes(self) -> int: ...
    def __bool__(self) -> bool: ...
