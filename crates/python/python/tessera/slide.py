"""The sliding puzzle: positions, solvers, pattern databases, batch
distances, labelled data sets and batched moves on NumPy arrays (see the docstrings of each name, and tessera/slide.pyi).

>>> from tessera.slide import Position, solve
>>> solve(Position.random("3x3", seed=1)).stm
22
"""

# The compiled submodule is an attribute of tessera._native, not an
# importable module of its own.
from tessera._native import slide as _native

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

# Each name is the compiled one; tessera/slide.pyi gives their types.
globals().update((name, getattr(_native, name)) for name in __all__)
