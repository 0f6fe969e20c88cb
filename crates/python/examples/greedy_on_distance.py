"""Solving greedily on the optimal distance: from each position, take the
legal move whose child is closest to the goal. The distances are the
optimal solver's, so every move lowers the distance by one and the
puzzle is solved in exactly the optimal number of moves.

    python greedy_on_distance.py [SIZE] [SEED]
"""

import sys

import numpy as np

from tessera.gym import ACTIONS
from tessera.slide import Position, distances, expand, is_goal


def main() -> None:
    size = sys.argv[1] if len(sys.argv) > 1 else "3x3"
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    start = Position.random(size, seed=seed)
    state = np.array([start.tiles], dtype=np.uint8)
    optimal = int(distances(state, size=size)[0])
    print(f"{start}: {optimal} moves to the goal")
    moves = []
    while not is_goal(state, size=size)[0]:
        children, mask = expand(state, size=size)
        legal = np.flatnonzero(mask[0])
        to_go = distances(children[0, legal], size=size)
        best = legal[np.argmin(to_go)]
        moves.append(ACTIONS[best])
        state = children[:, best]
    print("".join(moves))
    assert len(moves) == optimal, (len(moves), optimal)
    assert start.apply("".join(moves)).tiles == list(range(1, start.width * start.height)) + [0]
    print(f"solved in {len(moves)} moves, the optimum")


if __name__ == "__main__":
    main()
