"""The examples run and say what they claim."""

import pathlib
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_greedy_on_distance_solves_in_the_optimal_number_of_moves():
    for seed in ("1", "7"):
        out = _run(str(EXAMPLES / "greedy_on_distance.py"), "3x3", seed)
        assert "the optimum" in out


def test_gym_random_plays_both_ways():
    out = _run(str(EXAMPLES / "gym_random.py"), "3x3", "2")
    assert out.count("episode") == 2 and "steps/s" in out


def test_record_video_films_the_optimal_solution(tmp_path):
    out = _run(str(EXAMPLES / "record_video.py"), "3x3", "1", str(tmp_path / "videos"))
    assert "22 moves, solved: True" in out
    (video,) = (tmp_path / "videos").glob("*.mp4")
    assert video.stat().st_size > 0
