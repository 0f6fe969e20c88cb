"""Plays a 3x3 sliding puzzle to a solved result through a client generated
from /api/openapi.json (openapi-python-client), then fetches its replay: the
document alone is enough to use the API.

    python client_game.py BASE_URL PACKAGE_PARENT_DIR

The generated package is `tessera_client` under PACKAGE_PARENT_DIR.
"""

import sys

base_url, parent = sys.argv[1], sys.argv[2]
sys.path.insert(0, parent)

from tessera_client import Client  # noqa: E402
from tessera_client.api.records import replay  # noqa: E402
from tessera_client.api.slide import slide_new, slide_solve, slide_submit  # noqa: E402
from tessera_client.models import (  # noqa: E402
    Finished,
    SlideIssued,
    SlideNewRequest,
    SlideReplay,
    SlideSubmitRequest,
    Solution,
    SolveRequest,
)

# A player of its own, so the game is not mixed up with others'.
client = Client(
    base_url=base_url,
    cookies={"tessera_player": "fedcba9876543210fedcba9876543210"},
    raise_on_unexpected_status=True,
)

game = slide_new.sync(client=client, body=SlideNewRequest(size="3x3", seed=20261125))
assert isinstance(game, SlideIssued), game
solution = slide_solve.sync(
    client=client, body=SolveRequest(position=game.position, goal=game.goal_position)
)
assert isinstance(solution, Solution), solution
moves = solution.moves
# One time per move, a person's pace.
times = [700 + 450 * i for i in range(len(moves))]
result = slide_submit.sync(
    client=client, body=SlideSubmitRequest(game=game.game, moves=moves, times=times)
)
assert isinstance(result, Finished) and result.solved, result
assert result.game == game.game and result.moves == len(moves), result

played = replay.sync(client=client, game=game.game)
assert isinstance(played, SlideReplay), played
assert played.moves == moves and played.times == times, played
assert played.position == game.position, played
print(f"client: solved {game.game} in {len(moves)} moves and read its replay")
