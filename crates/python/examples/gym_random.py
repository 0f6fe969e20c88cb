"""A random agent on the sliding puzzle, one board and a native batch.

    python gym_random.py [SIZE] [EPISODES]

Actions are drawn among the legal moves (the action mask in ``info``);
with the batch, every board steps in one call into Rust.
"""

import sys
import time

import gymnasium as gym
import numpy as np

import tessera.gym  # noqa: F401  (registers the environments)


def main() -> None:
    size = sys.argv[1] if len(sys.argv) > 1 else "3x3"
    episodes = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    env = gym.make("tessera/SlidingPuzzle-v0", size=size, scramble="walk:4", max_steps=100)
    for episode in range(episodes):
        obs, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            action = env.action_space.sample(mask=info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        print(f"episode {episode}: {'solved' if terminated else 'gave up'} after {-total:.0f} moves")

    n, steps = 4096, 200
    envs = gym.make_vec("tessera/SlidingPuzzle-v0", num_envs=n, vectorization_mode="vector_entry_point", size=size, scramble="walk:6")
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    started = time.perf_counter()
    solved = 0
    for _ in range(steps):
        _, _, terminated, _, _ = envs.step(rng.integers(0, 4, size=n))
        solved += int(terminated.sum())
    seconds = time.perf_counter() - started
    print(f"{n} boards x {steps} steps: {n * steps / seconds:,.0f} steps/s, {solved} solved by chance")


if __name__ == "__main__":
    main()
