"""Shared paths: the repository, the command-line binary and the data."""

import os
import pathlib
import signal
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _cli() -> pathlib.Path:
    """The `tessera` binary to compare against: $TESSERA_BIN, else the
    debug build (scripts/test-python builds it)."""
    given = os.environ.get("TESSERA_BIN")
    path = pathlib.Path(given) if given else ROOT / "target" / "debug" / "tessera"
    assert path.is_file(), f"no tessera binary at {path}: run `cargo build -p tessera` or set TESSERA_BIN"
    return path


@pytest.fixture(scope="session", autouse=True)
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt, as in a terminal, however the suite
    was started: a shell starts a background job with SIGINT ignored, and
    Python then leaves it ignored, so the Ctrl-C tests would wait forever.
    (A child started from here gets SIGINT's default back as it starts.)"""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="session")
def cli():
    """Runs `tessera ARGS...` and returns its standard output."""
    binary = _cli()

    def run(*args: str, input: str | None = None) -> str:
        done = subprocess.run(
            [str(binary), *args], input=input, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


@pytest.fixture(scope="session")
def korf100():
    """Korf's 100 15-puzzle instances: (id, optimal length, tiles)."""
    # Where the project's benchmarks read it (scripts/bench-slidy).
    path = ROOT.parent / "shared" / "data" / "korf100_15puzzle.txt"
    instances = []
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        number, optimum, *tiles = map(int, line.split())
        instances.append((number, optimum, tiles))
    assert len(instances) == 100
    return instances
