"""The Fall of the Mountain King agents: the heuristic's evaluation module (agents/fall_heuristic.py) and the
suite's random, heuristic and mcts agents playing whole games of it."""

from __future__ import annotations

import numpy as np
import pytest

import agents.fall_heuristic as H
from agents import make_agent
from agents.evaluation import evaluation_of
from mk_env.fall_of_the_mountain_king.rules import Block, Game, Phase
from mk_env.fall_of_the_mountain_king.rules.invariants import check
from mk_env.core.view import PlayerView


def _play(specs: list[str], seed: int) -> object:
    """A whole game of ``specs`` (one per seat), invariants checked after every decision."""
    agents = [make_agent(s) for s in specs]
    st = Game(len(specs)).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while not st.is_terminal():
        p = st.current_player()
        a = agents[p].act(PlayerView(st, p), rng)
        assert st.is_legal(a)
        st.apply(a)
        check(st)
    return st


def _mid_game(seed: int = 3, decisions: int = 90):
    st = Game(3).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        st.apply(int(rng.choice(st.legal_actions())))
    return st


def test_the_game_table_names_this_module_as_the_evaluation():
    assert evaluation_of(Game(2)) is H


def test_evaluate_is_a_margin_and_at_the_end_the_honor_margin():
    st = _mid_game()
    v = [H.evaluate(st, p) for p in range(3)]
    assert max(v) >= 0 and sum(1 for x in v if x >= 0) >= 1
    proj = H.projected(st)
    for p in range(3):
        assert v[p] == pytest.approx(proj[p] - max(x for q, x in enumerate(proj) if q != p))
    end = _play(["random", "random"], 4)
    assert H.projected(end) == [float(h) for h in end.honor]


def test_more_trolls_in_a_controlled_domain_is_worth_more():
    st = _mid_game()
    p = st.current_player()
    cavern = next(c for c in range(st.game.side.n_caverns) if c not in st.gnome_at)
    before = H.projected(st)[p]
    st.trolls[cavern] = [0] * st.num_players
    st.trolls[cavern][p] = 3
    assert H.projected(st)[p] > before - 1e-9 + 0.5  # a controlled cavern scores in domains and halls


def test_candidates_are_legal_sorted_and_bounded_keeping_every_block():
    for seed in range(6):
        st = _mid_game(seed, 40 + 10 * seed)
        legal = set(int(a) for a in st.legal_actions())
        cands = H.candidates(st, st.current_player())
        assert cands == sorted(cands) and set(cands) <= legal and len(cands) <= max(H.MAX_CANDIDATES, 1)
        blocks = {st.game.layout.decode(a)[0] for a in legal}
        if st.phase in H.SCOUTING:  # a free peek is always taken: the one named, never ``done``
            assert len(cands) == 1 and st.game.layout.decode(cands[0])[0] in blocks - {Block.DONE}
            continue
        assert blocks == {st.game.layout.decode(a)[0] for a in cands}


def test_settle_stops_at_a_main_decision_and_leaves_the_state_legal():
    st = _mid_game()
    while st.phase in H.MAIN and not st.is_terminal():
        st.apply(int(st.legal_actions()[-1]))
    H.settle(st)
    assert st.is_terminal() or st.phase in H.MAIN
    check(st)


def test_best_action_is_legal_deterministic_and_the_lookahead_best():
    st = _mid_game()
    p = st.current_player()
    a = H.best_action(st, p)
    assert st.is_legal(a) and a == H.best_action(st.clone(), p)
    cands = H.candidates(st, p)
    values = H.lookahead_values(st, p, cands)
    assert values[cands.index(a)] == pytest.approx(values.max())
    assert st.is_legal(H.quick_action(st, p))


def test_heuristic_beats_random_in_a_few_two_player_games():
    wins = 0
    for seed in range(4):
        specs = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        st = _play(specs, seed)
        wins += st.returns()[specs.index("heuristic")] > 0
    assert wins >= 3  # (measured over 200 games: docs/fall-of-the-mountain-king/environment.md)


def test_random_heuristic_and_mcts_finish_a_three_player_game_with_invariants():
    st = _play(["mcts:2", "heuristic", "random"], 9)
    assert st.is_terminal() and st.phase == Phase.GAME_OVER and sum(st.returns()) == pytest.approx(0.0)
