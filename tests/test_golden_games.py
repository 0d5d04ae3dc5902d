"""Golden playthroughs (``tests/golden.py``): refactors and speed work must not change a single bit.

``tests/data/golden/digests.json`` was recorded BEFORE the engine and the observation encoder were made
faster (issue 8): replaying its seeded games now must give exactly the same digests of every state,
legal set and observation. The readable transcripts beside it (``tests/data/golden/<label>.txt``) must
replay line for line; a failure shows the diff.

Both backends replay them (``Game(..., backend="python"|"native")``): the compiled engine's parity with the
reference on every golden game.

Regenerate (only when behaviour is meant to change, then review the diff): ``python -m tests.golden --update``.
"""

from __future__ import annotations

import json

import pytest
from golden import DIGESTS, GAMES, TRANSCRIPTS, play, transcript_diff

from mk_env.mountain_king.rules import Game
from mk_env.mountain_king.rules.native import MISSING


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(DIGESTS.read_text())


#: both engines replay the golden games: the Python reference and, where built, the compiled one
BACKENDS = ["python"] + ([] if MISSING else ["native"])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("label", [g[0] for g in GAMES])
def test_replay_is_bit_identical(golden, label, backend):
    want = golden[label]
    got = play(want["options"], want["seed"], want["limit"], backend)
    assert got["actions"] == want["actions"], f"{label}: the random game took another path"
    for i, (a, b) in enumerate(zip(got["steps"], want["steps"])):
        assert a == b, (f"{label}: decision {i} differs (state, legal, observation, others' observations): "
                        f"{a} != {b}")
    assert len(got["steps"]) == len(want["steps"])


def test_golden_games_reach_the_end_and_many_phases(golden):
    """The fixture exercises what it should: one game to its end, many kinds of decision."""
    full = golden["4p_full"]
    game = Game(**full["options"])
    st = game.new_initial_state(full["seed"])
    kinds = set()
    for a in full["actions"]:
        kinds.add(st.decision_kind())
        st.apply(a)
    assert st.is_terminal()
    assert len(kinds) >= 10, sorted(kinds)


@pytest.mark.parametrize("label", TRANSCRIPTS)
def test_readable_playthrough_replays_unchanged(label):
    diff = transcript_diff(label)
    assert not diff, f"the playthrough {label} changed (python -m tests.golden --update if meant):\n{diff}"
