"""tessera.shisen: deals, moves, paths and the solver, against the command
line's answers for the same boards."""

import json

import pytest

from tessera.shisen import Board, Solution


def _pairs(text):
    """`tessera shisen moves` lines (`x,y x,y`) as pairs of cells."""
    pairs = []
    for line in text.splitlines():
        a, b = (tuple(map(int, cell.split(","))) for cell in line.split())
        pairs.append((a, b))
    return pairs


@pytest.mark.parametrize("preset", ["14x6", "18x8", "30x16"])
def test_deals_are_the_command_lines(cli, preset):
    for seed in (1, 2):
        board = Board.deal(preset, seed=seed, solvable=False)
        assert str(board) == cli("shisen", "new", "--preset", preset, "--seed", str(seed))
    solvable = Board.deal("14x6", seed=3)
    assert str(solvable) == cli("shisen", "new", "--preset", "14x6", "--seed", "3", "--solvable")
    gravity = Board.deal("14x6", seed=3, gravity=True)
    assert gravity.gravity
    assert str(gravity) == cli("shisen", "new", "--preset", "14x6", "--seed", "3", "--solvable", "--gravity")


def test_moves_are_the_command_lines(cli):
    for seed in range(1, 6):
        board = Board.deal("18x8", seed=seed, solvable=False)
        text = str(board)
        assert board.moves() == _pairs(cli("shisen", "moves", input=text))
        assert Board.parse(text) == board
    chinese = Board.deal("14x6", seed=4, solvable=False, chinese=True)
    assert chinese.chinese
    assert chinese.moves() == _pairs(cli("shisen", "moves", "--chinese", input=str(chinese)))


def test_paths_are_the_command_lines(cli):
    board = Board.deal("14x6", seed=1, solvable=False)
    text = str(board)
    checked = 0
    for a, b in board.moves()[:6]:
        printed = json.loads(
            cli("shisen", "path", "--json", "--from", "%d,%d" % a, "--to", "%d,%d" % b, input=text)
        )
        assert board.path(a, b) == [tuple(p) for p in printed["path"]]
        checked += 1
    assert checked > 0
    # A pair that does not match has no path, as on the command line.
    a, b = (0, 0), (1, 0)
    printed = json.loads(cli("shisen", "path", "--json", "--from", "0,0", "--to", "1,0", input=text))
    expected = None if printed["path"] is None else [tuple(p) for p in printed["path"]]
    assert board.path(a, b) == expected


def test_apply_removes_a_pair_and_refuses_what_the_rules_refuse():
    board = Board.parse("AB/AB")
    after = board.apply(((0, 0), (0, 1)))
    assert str(after) == ".B\n.B\n" and after.tiles_left == 2
    assert board.tiles_left == 4, "boards are immutable"
    cleared = after.apply(((1, 1), (1, 0)))
    assert cleared.is_cleared and cleared.moves() == []
    with pytest.raises(ValueError, match="do not match"):
        board.apply(((0, 0), (1, 0)))
    with pytest.raises(ValueError, match="no tile at 0,0"):
        after.apply(((0, 0), (1, 0)))
    with pytest.raises(ValueError, match="same tile"):
        board.apply(((0, 0), (0, 0)))
    with pytest.raises(ValueError, match="no connection"):
        Board.parse("AB/BA").apply(((0, 0), (1, 1)))


def test_gravity_drops_the_tiles_above():
    board = Board.parse("AB/CC/AB", gravity=True)
    after = board.apply(((0, 1), (1, 1)))
    assert str(after) == "..\nAB\nAB\n"
    assert str(Board.parse("AB/CC/AB").apply(((0, 1), (1, 1)))) == "AB\n..\nAB\n"


def test_solutions_clear_the_board_and_match_the_command_lines_verdict(cli):
    for seed in (1, 2):
        board = Board.deal("14x6", seed=seed)
        found = board.solve(time_limit=10)
        assert isinstance(found, Solution) and found and found.verdict == "solvable"
        printed = json.loads(cli("shisen", "solve", "--json", input=str(board)))
        assert printed["result"] == "solvable"
        for pair in found.moves:
            board = board.apply(pair)
        assert board.is_cleared
    stuck = Board.parse("AB/BA").solve()
    assert not stuck and stuck.moves is None and stuck.verdict == "unsolvable"
    assert "unsolvable" in stuck.reason and "unsolvable" in repr(stuck)


def test_gravity_solutions_replay_under_gravity():
    board = Board.deal("14x6", seed=5, gravity=True)
    found = board.solve()
    assert found
    for pair in found.moves:
        board = board.apply(pair)
    assert board.is_cleared


def test_bad_input_raises_value_error_with_the_engines_message():
    with pytest.raises(ValueError, match="line 2"):
        Board.parse("AB/A")
    with pytest.raises(ValueError):
        Board.parse("")
    with pytest.raises(ValueError, match="unknown preset"):
        Board.deal("7x3", seed=1)
    with pytest.raises(ValueError):
        Board.deal(size="3x3", seed=1)
    with pytest.raises(ValueError):
        Board.deal(size="4x2", tiles="2x4", chinese=True, seed=1)
    with pytest.raises(ValueError, match="off the 2x2 board"):
        Board.parse("AB/AB").path((0, 0), (2, 0))
    with pytest.raises(ValueError, match="no tile"):
        Board.parse("A./A.").path((1, 0), (0, 0))
    with pytest.raises(ValueError, match="time_limit"):
        Board.parse("AB/AB").solve(time_limit=-1)


def test_a_board_shows_itself():
    board = Board.parse("AB/AB", gravity=True)
    assert repr(board) == "Board.parse('AB/AB', gravity=True)"
    assert str(board) == "AB\nAB\n"
    assert (board.width, board.height, board.size) == (2, 2, "2x2")
    import pickle

    again = pickle.loads(pickle.dumps(board))
    assert again == board and again.gravity
