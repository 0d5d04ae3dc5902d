"""``heuristic:ties=random``: ties between equally valued decisions (and tunnel placements of equal static
score) drawn from the game's generator instead of the fixed preference, replayable from the game's seed."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.heuristic import HeuristicAgent, best_action
from agents.heuristic_candidates import dig_scores, preferred, top_digs
from mk_env.games import make_game as make_suite_game
from training.play import make_game, run_game


def test_preferred_draws_among_the_tied_actions_of_the_first_rank_only() -> None:
    layout = make_game(2, {}).layout
    recruit = [layout.index("recruit", a) for a in range(3)]
    trade = layout.index("trade", 0)
    values = np.array([5.0, 4.0, 5.0, 5.0])
    actions = [recruit[0], recruit[1], recruit[2], trade]
    assert preferred(layout, actions, values) == recruit[0]  # the fixed preference: the lower action number
    drawn = {preferred(layout, actions, values, rng=np.random.default_rng(s)) for s in range(40)}
    assert drawn == {recruit[0], recruit[2]}  # never the lower value, never the trade (ranked after)
    passing = [layout.index("pass", 0), recruit[0]]
    assert {preferred(layout, passing, np.array([1.0, 1.0]), rng=np.random.default_rng(s)) for s in range(20)} \
        == {passing[0]}  # doing nothing still goes first among equals


def test_tunnel_placements_of_equal_static_score_are_cut_at_random() -> None:
    game = make_game(2, {})
    st = game.new_initial_state(2)
    while st.decision_kind() != "step2_recruit_or_dig":
        st.apply(best_action(st, st.current_player()))
    p = st.current_player()
    digs = [int(a) - game.layout.offset["dig"] for a in st.legal_actions() if game.layout.decode(int(a))[0] == "dig"]
    plain = top_digs(st, p, digs, 6)
    assert top_digs(st, p, digs, 6) == plain
    drawn = [top_digs(st, p, digs, 6, np.random.default_rng(s)) for s in range(30)]
    scores = dict(zip(digs, np.round(dig_scores(st, p, np.asarray(digs)), 9)))
    assert all(sorted(scores[a] for a in d) == sorted(scores[a] for a in plain) for d in drawn)  # as good
    assert len({tuple(sorted(d)) for d in drawn}) > 1  # the start has symmetric placements: other ones come


def test_a_symmetric_choice_has_no_favourite_and_a_game_replays_from_its_seed() -> None:
    game = make_game(3, {})
    st = game.new_initial_state(0)  # the first gate: the three start points are valued alike
    assert {best_action(st, 0, np.random.default_rng(s)) for s in range(20)} == {best_action(st, 0)}
    assert len({best_action(st, 0, np.random.default_rng(s), random_ties=True) for s in range(20)}) == 3

    def play(seed: int, spec: str) -> list[int]:
        actions: list[int] = []
        run_game([make_agent(spec) for _ in range(3)], seed, game=make_game(3, {}), actions=actions)
        return actions

    first = play(4, "heuristic:ties=random")
    assert play(4, "heuristic:ties=random") == first and play(4, "heuristic") != first
    assert make_agent("heuristic:ties=random").name == "heuristic:ties=random"
    both = make_agent("heuristic:jitter=0.3&ties=random")
    assert (both.name, both.jitter, both.random_ties) == ("heuristic:jitter=0.3&ties=random", 0.3, True)
    assert not make_agent("heuristic:ties=first").random_ties and HeuristicAgent(ties="first").name == "heuristic"
    assert HeuristicAgent(0.3, "random").name == "heuristic:jitter=0.3&ties=random"


def test_random_ties_are_refused_for_another_games_evaluation() -> None:
    with pytest.raises(ValueError, match="heuristic:ties=random changes In the Hall of the Mountain King's"):
        run_game(["heuristic:ties=random", "heuristic"], 1, game=make_suite_game("cave_troll", 2))
