"""Golden games shared by the games' test folders: a seeded random game's transcript (each decision's seat,
action and legal set, then the final state) as one digest, and the check of a digest against the file
that records it (regenerated when the environment variable named is set, after an intended change)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np


def transcript_digest(game: object, seed: int) -> str:
    """The digest of a random game of ``game`` (its engine's ``new_initial_state``) played with ``seed``."""
    st = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    while not st.is_terminal():
        legal = st.legal_actions()
        a = int(rng.choice(legal))
        h.update(f"{st.current_player()}:{a}:{legal.tobytes().hex()}|".encode())
        st.apply(a)
    h.update(st.to_json().encode())
    return h.hexdigest()


def check_golden(digests: Path, key: str, got: str, update_variable: str) -> None:
    """Assert that ``digests`` records ``got`` under ``key`` (rewrite it first if ``update_variable`` is set)."""
    recorded = json.loads(digests.read_text()) if digests.exists() else {}
    if os.environ.get(update_variable):
        recorded[key] = got
        digests.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    assert recorded.get(key) == got, "the game's behaviour changed (see the test module's docstring)"
