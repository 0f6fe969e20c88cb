"""tessera: sliding-puzzle and Shisen-Sho engines.

``tessera.slide`` holds sliding-puzzle positions, the optimal and fast
solvers and batch distances for NumPy arrays; ``tessera.shisen`` holds
Shisen-Sho boards, their moves, paths, deals and the solver.
``tessera.gym`` (``pip install tessera[gym]``, imported on its own)
registers Gymnasium environments for both.

>>> import tessera
>>> tessera.slide.Position.parse("1 2 3/4 5 6/7 8 0").is_solvable()
True
"""

from . import shisen, slide

__all__ = ["shisen", "slide"]
