"""The heuristic's evaluation weights: the defaults are the module's constants, ``using`` scopes a set,
``heuristic:jitter=X`` draws each game's own per seat, replayable from the game's seed."""

from __future__ import annotations

import numpy as np
import pytest

import agents.heuristic_eval as E
from agents import make_agent
from agents.heuristic import HeuristicAgent
from mk_env.games import make_game as make_suite_game
from training.play import make_game, run_game

SCALARS = {"troll": "TROLL_VALUE", "symbol": "SYMBOL_VALUE", "pedestal": "PEDESTAL_VALUE", "reach": "REACH_VALUE",
           "dig_potential": "DIG_POTENTIAL", "dig_this_turn": "DIG_THIS_TURN", "statue": "STATUE_POTENTIAL",
           "buried": "BURIED_VALUE", "workshop": "WORKSHOP_ACCESS", "held_token": "HELD_TOKEN"}


def test_the_default_weights_are_the_modules_constants_and_in_force_outside_using() -> None:
    w = E.DEFAULT_WEIGHTS
    assert np.array_equal(w.resource_values, E.RESOURCE_VALUE)
    assert {name: getattr(w, name) for name in SCALARS} == {name: getattr(E, c) for name, c in SCALARS.items()}
    assert E.weights() is w


def test_using_puts_weights_in_force_inside_its_block_only_even_on_error() -> None:
    other = E.Weights(troll=9.0)
    with E.using(other):
        assert E.weights() is other
    assert E.weights() is E.DEFAULT_WEIGHTS
    with pytest.raises(RuntimeError), E.using(other):
        raise RuntimeError("a decision fails")
    assert E.weights() is E.DEFAULT_WEIGHTS


def test_the_weights_change_the_evaluation() -> None:
    game = make_game(2, {})
    state = game.new_initial_state(3)
    actions: list[int] = []
    run_game(["heuristic", "heuristic"], 3, game=game, actions=actions)
    for a in actions[: len(actions) // 2]:
        state.apply(a)
    plain = E.evaluate(state, 0)
    with E.using(E.Weights(resource=tuple(2 * x for x in E.DEFAULT_WEIGHTS.resource))):
        richer = E.evaluate(state, 0)
    assert richer > plain  # the seat owns resources mid-game, each now worth twice as much


def test_jittered_weights_stay_within_the_spread_and_come_from_the_generator() -> None:
    w = E.DEFAULT_WEIGHTS.jittered(0.3, np.random.default_rng(5))
    ratios = np.array([getattr(w, n) / getattr(E.DEFAULT_WEIGHTS, n) for n in SCALARS]
                      + list(w.resource_values / E.DEFAULT_WEIGHTS.resource_values))
    assert ((ratios >= 0.7) & (ratios <= 1.3)).all() and len(set(ratios.round(6))) == len(ratios)
    assert w == E.DEFAULT_WEIGHTS.jittered(0.3, np.random.default_rng(5))
    assert E.DEFAULT_WEIGHTS.jittered(0.0, np.random.default_rng(5)) == E.DEFAULT_WEIGHTS
    with pytest.raises(ValueError, match=r"in \[0, 1\)"):
        E.DEFAULT_WEIGHTS.jittered(1.0, np.random.default_rng(5))


@pytest.mark.parametrize("spec, says", [("heuristic:jitter", "the options are jitter=X"),
                                        ("heuristic:jitter=1.5", "0 <= X < 1"),
                                        ("heuristic:jitter=-0.1", "0 <= X < 1"),
                                        ("heuristic:spread=0.3", "the options are jitter=X"),
                                        ("heuristic:0.3", "heuristic:jitter=0.3"),
                                        ("heuristic:ties=maybe", "ties=random or ties=first"),
                                        ("heuristic:ties=random&ties=first", "joined by '&'"),
                                        ("heuristic:jitter=0.3&", "joined by '&'")])
def test_a_bad_heuristic_spec_says_what_is_allowed(spec, says) -> None:
    with pytest.raises(ValueError, match=says):
        make_agent(spec)


def test_a_varied_table_replays_from_its_seed_and_each_seat_plays_its_own_weights() -> None:
    def play(seed: int) -> tuple[list[int], list[HeuristicAgent]]:
        seats = [make_agent("heuristic:jitter=0.3") for _ in range(3)]
        actions: list[int] = []
        run_game(seats, seed, game=make_game(3, {}), actions=actions)
        return actions, seats

    first, seats = play(4)
    again, seats_again = play(4)
    assert first == again and [s.weights for s in seats] == [s.weights for s in seats_again]
    assert len({s.weights for s in seats}) == 3 and E.DEFAULT_WEIGHTS not in {s.weights for s in seats}
    assert seats[0].name == "heuristic:jitter=0.3"
    other, seats_other = play(5)
    assert [s.weights for s in seats_other] != [s.weights for s in seats]  # a new game, new players
    seats[0].reset(0, 3)
    assert seats[0].weights is None
    assert E.weights() is E.DEFAULT_WEIGHTS  # nothing leaks out of a decision


def test_plain_heuristic_draws_nothing_and_jitter_is_refused_for_another_games_evaluation() -> None:
    assert make_agent("heuristic").jitter == 0.0 and make_agent("heuristic").weights is None
    game = make_suite_game("cave_troll", 2)
    with pytest.raises(ValueError, match="Mountain King's evaluation only"):
        run_game(["heuristic:jitter=0.2", "heuristic"], 1, game=game)
