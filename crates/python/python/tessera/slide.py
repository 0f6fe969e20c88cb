"""The sliding puzzle: positions, solvers, pattern databases and batch
distances (see the docstrings of each name, and tessera/slide.pyi).

>>> from tessera.slide import Position, solve
>>> solve(Position.random("3x3", seed=1)).stm
22
"""

# The compiled submodule is an attribute of tessera._native, not an
# importable module of its own.
from tessera._native import slide as _native

Position = _native.Position
Solution = _native.Solution
distances = _native.distances
fast_solve = _native.fast_solve
solve = _native.solve
tables = _native.tables

__all__ = ["Position", "Solution", "distances", "fast_solve", "solve", "tables"]
