"""The sliding puzzle: positions, solvers, pattern databases, batch
distances, labelled data sets and batched moves on NumPy arrays (see the docstrings of each name, and tessera/slide.pyi).

>>> from tessera.slide import Position, solve
>>> solve(Position.random("3x3", seed=1)).stm
22
"""

# The compiled submodule is an attribute of tessera._native, not an
# importable module of its own.
from tessera._native import slide as _native

Position = _native.Position
Solution = _native.Solution
dataset = _native.dataset
distances = _native.distances
expand = _native.expand
fast_solve = _native.fast_solve
frame = _native.frame
is_goal = _native.is_goal
next_states = _native.next_states
random_walks = _native.random_walks
solve = _native.solve
tables = _native.tables

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
