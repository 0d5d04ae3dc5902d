"""Golden games: seeded random play for 2 to 5 players, each decision's seat, action and legal set
digested; a change of behaviour (a rule, the layout, the pack) changes the digest. After an intended
change regenerate with
``FALL_GOLDEN_UPDATE=1 python -m pytest tests/fall_of_the_mountain_king/test_fall_golden_games.py`` and say
why in the commit."""

from pathlib import Path

import pytest
from seeded_transcripts import check_golden, transcript_digest

from mk_env.fall_of_the_mountain_king.rules import Game


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_golden_games_are_unchanged(n):
    check_golden(Path(__file__).with_name("golden_digests.json"), str(n), transcript_digest(Game(n), 200 + n),
                 "FALL_GOLDEN_UPDATE")
