"""Shisen-Sho: boards, their moves and paths, deals and the solver (see
the docstrings of each name, and tessera/shisen.pyi).

>>> from tessera.shisen import Board
>>> len(Board.deal("18x8", seed=1).moves()) > 0
True
"""

# The compiled submodule is an attribute of tessera._native, not an
# importable module of its own.
from tessera._native import shisen as _native

Board = _native.Board
Solution = _native.Solution

__all__ = ["Board", "Solution"]
