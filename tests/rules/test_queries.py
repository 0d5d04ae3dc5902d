"""The public queries (mk_env.rules.queries): what agents ask of a state without reading ``pending``."""

from __future__ import annotations

import numpy as np
import pytest

from mk_env.mountain_king.rules import Game, Phase, queries

DIG_PHASES = (Phase.DIG_MINERAL, Phase.DIG_PEDESTAL, Phase.DIG_WORKSHOP)


def states_of_random_games(seeds=range(6), players=3):
    """Every state of a few uniformly random games (a fresh clone each)."""
    for seed in seeds:
        st = Game(players).new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not st.is_terminal():
            yield st.clone()
            legal = st.legal_actions()
            st.apply(int(legal[rng.integers(len(legal))]))
        yield st


def test_queries_name_the_sub_decision_under_way():
    seen = set()
    for st in states_of_random_games():
        ph = queries.phase(st)
        assert ph == st.phase and Phase(ph).name and queries.in_final_round(st) == (st.final_turns_left >= 0)
        if ph in DIG_PHASES:
            assert queries.tunnel_being_dug(st) == st.pending.dig
            seen.add("dig")
        if ph == Phase.STATUE_DEST:
            sq = queries.statue_being_moved(st)
            assert st.statue[sq] >= 0
            seen.add("statue")
        if ph == Phase.SPELL_OPTION:
            spell = queries.spell_being_cast(st)
            assert "options" in spell.params
            seen.add("spell")
    assert seen == {"dig", "statue", "spell"}


@pytest.mark.parametrize("query, words", [
    (queries.tunnel_being_dug, "no dig under way in phase 'setup_gate'"),
    (queries.statue_being_moved, "no statue selected to move"),
    (queries.spell_being_cast, "no spell being cast"),
])
def test_a_query_with_nothing_under_way_says_so(query, words):
    st = Game(2).new_initial_state(0)
    with pytest.raises(LookupError, match=words):
        query(st)
