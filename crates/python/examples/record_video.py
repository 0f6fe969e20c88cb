"""An episode as a video: Gymnasium's RecordVideo films the sliding
puzzle played along the optimal solver's solution, one frame a move, the
frames drawn as `tessera slide render` draws the board. Needs moviepy
(`pip install moviepy`).

    python record_video.py [SIZE] [SEED] [FOLDER]
"""

import sys

import gymnasium as gym
from gymnasium.wrappers import RecordVideo

import tessera.gym
from tessera.slide import Position, solve


def main() -> None:
    size = sys.argv[1] if len(sys.argv) > 1 else "3x3"
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    folder = sys.argv[3] if len(sys.argv) > 3 else "videos"
    env = RecordVideo(
        gym.make("tessera/SlidingPuzzle-v0", size=size, render_mode="rgb_array"),
        video_folder=folder,
        name_prefix=f"slide-{size}-{seed}",
        disable_logger=True,
    )
    env.reset(seed=seed)
    solution = solve(Position.random(size, seed=seed))
    terminated = False
    for move in solution.moves:
        _, _, terminated, _, _ = env.step(tessera.gym.ACTIONS.index(move))
    env.close()
    print(f"{len(solution.moves)} moves, solved: {terminated}; the video is in {folder}/")


if __name__ == "__main__":
    main()
