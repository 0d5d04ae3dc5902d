"""Golden playthroughs: the speed work (issue 8) must not change a single bit.

``tests/data/golden_speed.json`` was recorded BEFORE the engine and the observation encoder were made
faster. For a few seeded random games it holds the action sequence and, after every decision, a digest
of the state's ``to_json()``, of the legal actions, of the acting player's observation
(``Observer(game).encode(state, p)``: every array's float32 bytes) and of every other player's
observation. Replaying the same games now must give exactly the same digests.

Regenerate (only when behaviour is meant to change): ``python tests/test_speed_equivalence.py``.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys

import numpy as np
import pytest

from mk_env.env.observation import Observer
from mk_env.rules import Game

DATA = pathlib.Path(__file__).parent / "data" / "golden_speed.json"
#: (label, game options, seed, decision limit): every player count, team play, the other board side
GAMES = [
    ("2p", {"num_players": 2}, 11, 400),
    ("3p_autumn", {"num_players": 3}, 12, 400),
    ("4p", {"num_players": 4}, 13, 400),
    ("5p", {"num_players": 5}, 14, 400),
    ("4p_team", {"num_players": 4, "team_mode": True}, 15, 400),
    ("2p_autumn_no_dup", {"num_players": 2, "board_side": "autumn", "workshops": "no_duplicates"}, 16, 400),
    ("4p_full", {"num_players": 4}, 17, 100000),
]
DIGEST_CHARS = 16


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=8).hexdigest()[:DIGEST_CHARS]


def observation_digest(obs: dict[str, np.ndarray]) -> str:
    """Digest of an observation: keys, shapes, dtypes and float32 bytes, in key order."""
    h = hashlib.blake2b(digest_size=8)
    for key in sorted(obs):
        arr = obs[key]
        h.update(f"{key}{arr.shape}{arr.dtype}".encode())
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()[:DIGEST_CHARS]


def play(options: dict, seed: int, limit: int) -> dict:
    """A random game (trades mostly avoided, so that games dig, build and recruit): the actions and
    per decision [state digest, legal digest, acting observation digest, others' observations digest]."""
    game = Game(**options)
    observer = Observer(game)
    rng = np.random.default_rng(seed)
    st = game.new_initial_state(seed)
    actions, steps = [], []
    trade = game.layout.offset["trade"], game.layout.offset["trade"] + game.layout.sizes["trade"]

    def record() -> None:
        p = st.current_player()
        seat = max(p, 0)
        others = hashlib.blake2b(digest_size=8)
        for q in range(game.num_players):
            if q != seat:
                others.update(observation_digest(observer.encode(st, q)).encode())
        steps.append([_digest(st.to_json().encode()), _digest(st.legal_actions().tobytes()),
                      observation_digest(observer.encode(st, seat)), others.hexdigest()[:DIGEST_CHARS]])

    record()
    while not st.is_terminal() and len(actions) < limit:
        legal = st.legal_actions()
        non_trade = legal[(legal < trade[0]) | (legal >= trade[1])]
        pool = non_trade if len(non_trade) and rng.random() < 0.9 else legal
        a = int(pool[rng.integers(len(pool))])
        st.apply(a)
        actions.append(a)
        record()
    return {"options": options, "seed": seed, "limit": limit, "actions": actions, "steps": steps}


def record_all() -> dict:
    return {label: play(options, seed, limit) for label, options, seed, limit in GAMES}


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(DATA.read_text())


@pytest.mark.parametrize("label", [g[0] for g in GAMES])
def test_replay_is_bit_identical(golden, label):
    want = golden[label]
    got = play(want["options"], want["seed"], want["limit"])
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


if __name__ == "__main__":
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(record_all(), separators=(",", ":")) + "\n")
    print(f"wrote {DATA} ({DATA.stat().st_size} bytes)", file=sys.stderr)
