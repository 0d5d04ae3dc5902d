"""Golden games: seeded random play for 2, 3 and 4 players, each decision's seat, action and legal set
digested; a change of behaviour (a rule, the layout, the pack) changes the digest. After an intended
change regenerate with ``CAVE_TROLL_GOLDEN_UPDATE=1 python -m pytest tests/cave_troll/test_cave_troll_golden_games.py``
and say why in the commit."""

from pathlib import Path

import pytest
from seeded_transcripts import check_golden, transcript_digest

from mk_env.cave_troll.rules import Game

DIGESTS = Path(__file__).with_name("golden_digests.json")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_golden_games_are_unchanged(n):
    check_golden(DIGESTS, str(n), transcript_digest(Game(n), 100 + n), "CAVE_TROLL_GOLDEN_UPDATE")
