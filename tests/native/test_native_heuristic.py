"""The compiled heuristic (issue 51, "the heuristic's evaluation and look-ahead"): on the positions of mixed
heuristic and random play, at 2, 3 and 4 players and in teams, with the default weights and jittered ones, the
compiled evaluation, candidates, quick policy, lookahead values and choice equal the Python modules' (the
reference) to the last bit; whole heuristic games are the same game; bad input is refused."""

from __future__ import annotations

import numpy as np
import pytest

from agents import heuristic as H
from agents.heuristic_eval import DEFAULT_WEIGHTS, using
from agents.native_heuristic import compiled, reference
from mk_env.core.view import PlayerView
from mk_env.mountain_king.rules import Game
from tests.native.fused import same
from tests.rules_helpers import random_action

_native = pytest.importorskip("mk_env.mountain_king.rules._native", reason="the compiled engine is not built")


def both(fn, *args):
    """``fn(*args)`` compiled, then by the Python reference on the same state (left as it was)."""
    out = fn(*args)
    with reference():
        return out, fn(*args)


def positions(game: Game, seed: int, decisions: int):
    """The states of one game: the heuristic's choice most of the time, a random legal action otherwise."""
    st = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    trade = (game.layout.offset["trade"], game.layout.offset["trade"] + game.layout.sizes["trade"])
    for _ in range(decisions):
        if st.is_terminal():
            return
        yield st
        with reference():
            choice = H.best_action(st, st.current_player())
        st.apply(choice if rng.random() < 0.7 else random_action(rng, st.legal_actions(), trade))


@pytest.mark.parametrize("players,teams,seed", [(2, False, 1), (3, False, 2), (4, False, 3), (4, True, 4)])
def test_the_compiled_heuristic_equals_the_python_one(players, teams, seed):
    game = Game(players, team_mode=teams, backend="native")
    checked = 0
    for st in positions(game, seed, 140):
        p = st.current_player()
        for q in range(players):
            a, b = both(H.evaluate, st, q)
            assert same(a, b), (st.turn, q, a - b)
        assert both(H.quick_action, st, p)[0] == both(H.quick_action, st, p)[1]
        cands, reference_cands = both(H.candidates, st, p)
        assert list(cands) == list(reference_cands), st.turn
        if len(cands) > 1:
            values, reference_values = both(H.lookahead_values, st, p, cands)
            assert same(values, reference_values), (st.turn, values - reference_values)
        a, b = both(H.best_action, st, p)
        assert a == b
        checked += 1
    assert checked >= 100


def test_jittered_weights_are_compiled_too():
    game = Game(2, backend="native")
    weights = DEFAULT_WEIGHTS.jittered(0.3, np.random.default_rng(5))
    moved = 0
    for st in positions(game, 6, 60):
        p = st.current_player()
        plain = H.evaluate(st, p)
        with using(weights):
            assert compiled(st) is not None
            a, b = both(H.best_action, st, p)
            assert a == b
            a, b = both(H.evaluate, st, p)
            assert same(a, b)
        moved += a != plain  # the jittered weights are the ones evaluated
    assert moved > 30


def test_a_heuristic_game_is_the_same_game_on_both():
    game = Game(3, backend="native")
    agent = H.HeuristicAgent()
    records = []
    for ref in (False, True):
        st = game.new_initial_state(21)
        rng = np.random.default_rng(21)
        while not st.is_terminal():
            view = PlayerView(st, st.current_player())
            if ref:
                with reference():
                    st.apply(agent.act(view, rng))
            else:
                st.apply(agent.act(view, rng))
        records.append((list(st.history), st.returns()))
    assert records[0] == records[1]


def test_the_compiled_heuristic_refuses_what_it_cannot_serve():
    game, other = Game(2, backend="native"), Game(3, backend="native")
    st, st3 = game.new_initial_state(0), other.new_initial_state(0)
    h = compiled(st)
    with pytest.raises(ValueError, match="another game"):
        h.evaluate(st3._n, 0)
    with pytest.raises(ValueError, match="no such player"):
        h.evaluate(st._n, 2)
    illegal = next(a for a in range(game.layout.size) if not st.is_legal(a))
    with pytest.raises(ValueError, match="not legal"):
        h.lookahead_values(st._n, st.current_player(), [illegal])
    over = game.new_initial_state(1)
    while not over.is_terminal():
        over.apply(H.best_action(over, over.current_player()))
    for refused in (h.quick_action, h.best_action):
        with pytest.raises(ValueError, match="game is over"):
            refused(over._n, 0)
    assert h.candidates(over._n, 0) == [] and h.evaluate(over._n, 0) == over.score_breakdown(0)["total"]
    assert compiled(Game(2, backend="python").new_initial_state(0)) is None
    with reference():
        assert compiled(st) is None


@pytest.mark.parametrize("options", [dict(num_players=5), dict(num_players=3, board_side="autumn"),
                                     dict(num_players=4, workshops="no_duplicates"),
                                     dict(num_players=2, board_side="autumn")])
def test_random_play_on_every_side_and_count_meets_the_same_heuristic(options):
    """Random-heavy play reaches the sub-decisions the heuristic's own games rarely do."""
    game = Game(backend="native", **options)
    st = game.new_initial_state(17)
    rng = np.random.default_rng(17)
    trade = (game.layout.offset["trade"], game.layout.offset["trade"] + game.layout.sizes["trade"])
    checked = 0
    while not st.is_terminal():
        p, legal = st.current_player(), st.legal_actions()
        if len(legal) > 1:
            for fn in (H.evaluate, H.quick_action, H.candidates, H.best_action):
                a, b = both(fn, st, p)
                assert same(a, b), (fn.__name__, st.turn, st.phase)
            checked += 1
        st.apply(random_action(rng, legal, trade) if rng.random() < 0.6 else H.best_action(st, p))
    assert checked > 100
