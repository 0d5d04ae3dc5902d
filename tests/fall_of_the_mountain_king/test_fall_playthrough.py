"""A readable golden playthrough (as OpenSpiel keeps its playthroughs): a seeded random 2-player game's
first decisions, each with the deciding seat, the kind of decision, how many actions were legal, the
action in words and the honor after it. A reviewer reads a behaviour change in the diff. After an intended
change regenerate with ``FALL_GOLDEN_UPDATE=1 python -m pytest tests/fall_of_the_mountain_king/test_fall_playthrough.py``."""

import os
from pathlib import Path

import numpy as np

from mk_env.fall_of_the_mountain_king.rules import Game

TRANSCRIPT = Path(__file__).with_name("playthrough_2p.txt")


def transcript(decisions: int = 150, seed: int = 31) -> str:
    st = Game(2).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    lines = [f"seed {seed}, start player {st.start_player}, swarm at {st.game.pack.clans[st.swarm]}"]
    for k in range(decisions):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        a = int(rng.choice(legal))
        seat, kind, wave = st.current_player(), st.decision_kind(), st.wave
        words = st.describe_action(a)
        st.apply(a)
        lines.append(f"{k:3d} w{wave} seat {seat} {kind:<14} ({len(legal):3d} legal) {words}  | honor {st.honor}")
    return "\n".join(lines) + "\n"


def test_the_readable_playthrough_is_unchanged():
    got = transcript()
    if os.environ.get("FALL_GOLDEN_UPDATE"):
        TRANSCRIPT.write_text(got)
    assert TRANSCRIPT.read_text() == got, "the game's behaviour changed: diff playthrough_2p.txt (module docstring)"
