"""mk_env/invariants.py: the invariants hold in real games, and each check catches the fault it names."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pytest

from mk_env.invariants import (InvariantError, check_end, check_invariants, check_step, component_totals,
                               token_places)
from mk_env.mountain_king.rules import Game, GameState
from mk_env.mountain_king.rules.content import CART, CLAN_CART0, STONE
from training.soak import play_checked


def _play(game: Game, seed: int, until: Callable[[GameState], bool]) -> GameState:
    """Random non-trade play until ``until(state)`` holds (or the game ends)."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    lo, hi = game.layout.offset["trade"], game.layout.offset["trade"] + game.layout.sizes["trade"]
    while not state.is_terminal() and not until(state):
        legal = state.legal_actions()
        keep = legal[((legal < lo) | (legal >= hi)) & (legal != 0)]
        legal = keep if len(keep) else legal
        state.apply(int(legal[rng.integers(len(legal))]))
    return state


@pytest.fixture(scope="module")
def midgame() -> GameState:
    """A 3-player game with tunnels, a pedestal on the board and trolls holding tokens."""
    game = Game(num_players=3)
    for seed in range(50):
        state = _play(game, seed, lambda s: s.turn >= 12 and (s.pedestal >= 0).any()
                      and s.decision_kind() == "step1_spells_workshops")
        if not state.is_terminal():
            return state
    raise AssertionError("no seed gave a midgame with a pedestal")


@pytest.mark.parametrize("options", [{"num_players": 2}, {"num_players": 2, "board_side": "autumn"},
                                     {"num_players": 3, "workshops": "no_duplicates"},
                                     {"num_players": 4, "team_mode": True}, {"num_players": 5}])
def test_invariants_hold_after_every_decision(options: dict) -> None:
    for seed, policy in ((1, "uniform"), (2, "no_trade")):
        state = play_checked(options, seed, policy)  # raises on the first broken invariant
        assert state.is_terminal()


def test_a_drawn_team_game_pays_zero_to_everyone() -> None:
    """Found by the soak: both teams tie exactly (score and tie-break), a legal draw."""
    state = play_checked({"num_players": 4, "team_mode": True}, 3, "uniform")
    # make the teams' recruited levels equal, then their honour
    state.smoot[1], state.smoot[2] = state.smoot[0].copy(), state.smoot[3].copy()
    gap = state.score_breakdown(0)["total"] - state.score_breakdown(1)["total"]
    state.honour[1 if gap > 0 else 0] += abs(gap)
    state.invalidate_caches()
    assert state.ranks() == [0, 0, 0, 0] and state.returns() == [0.0] * 4
    check_end(state)


def test_component_totals_match_the_pack(midgame: GameState) -> None:
    pack = midgame.game.pack
    totals = component_totals(midgame)
    assert totals.tokens == tuple(pack.supply[r] for r in ("stone", "iron", "heartstone", "coin", "cart",
                                                          "hammer", "rune"))
    assert totals.pedestals == (pack.pedestals_per_clan,) * 3
    assert totals.tunnel_tiles == tuple(t.count for t in pack.tunnels)
    assert totals.horde_trolls == len(pack.horde_trolls) and totals.spells == len(pack.spells)


# ------------------------------------------------------------------------------ each check catches its fault
def _first(state: GameState, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask[:-1])[0])


FAULTS: dict[str, tuple[Callable[[GameState], None], str]] = {
    "token appears": (lambda s: s.supply.__setitem__(STONE, s.supply[STONE] + 1),
                      r"token conservation: stone: supply \d+ \+ storages .* but the pack has 35"),
    "negative storage": (lambda s: s.storage.__setitem__((0, CART), -1), r"negative count: state.storage"),
    "statue off its spot": (lambda s: s.statue.__setitem__(
        _first(s, (s.statue < 0) & (s.kind == 0) & s.game.geo.placeable), 0),
        r"statues: statue on empty square .* that is no statue spot"),
    "too many statues": (lambda s: s.statue.__setitem__(np.flatnonzero(s.kind[:-1] > 0)[:8], 1),
                         r"statues: counts by clan .* exceed statues_per_clan=7"),
    "tile off the board": (lambda s: (s.kind.__setitem__(0, 2), s.tile.__setitem__(0, 0),
                                      s.region.__setitem__(0, 0)), r"tiles: a tile lies on unplaceable square"),
    "lost tunnel square": (lambda s: (s.kind.__setitem__(_first(s, s.kind == 2), 0),
                                      s.tile.__setitem__(_first(s, s.kind == 2), -1)), r"tiles"),
    "pedestal vanishes": (lambda s: s.bag.__setitem__(0, s.bag[0] - 1) if s.bag[0] else
                          s.bag.__setitem__(1, s.bag[1] - 1), r"pedestals: \w+: bag"),
    "pedestal points wrong": (lambda s: s.pedestal_points.__setitem__(0, s.pedestal_points[0] + 2),
                              r"pedestal track: player 0"),
    "reach wrong": (lambda s: s.reach.__setitem__((0, _first(s, ~s.reach[0])), True),
                    r"networks: player 0's reach"),
    "floating troll": (lambda s: (s.smoot.__setitem__((0, slice(None)), -1), s.tokens.__setitem__(0, 0),
                                  s.smoot.__setitem__((0, 9), 0)), r"trollsmoot shape: player 0's slot 9"),
    "troll overfull": (lambda s: (s.tokens.__setitem__((0, 0, CLAN_CART0), s.tokens[0, 0, CLAN_CART0] + 5),
                                  s.supply.__setitem__(CART, s.supply[CART] - 5)), r"troll tokens: player 0's"),
    "horde card twice": (lambda s: s.decks[0].append(int(s.horde[0])), r"horde trolls: 56 horde cards"),
    "bribes past retire": (lambda s: (s.horde_bribes.__setitem__((0, 3), 4), s.supply.__setitem__(3, s.supply[3] - 4)),
                           r"horde bribes: horde slot 0 holds 4 bribes"),
    "spell lost": (lambda s: s.spell_deck.pop(), r"spells: spellbook"),
    "buried left under a tunnel": (lambda s: s.buried.__setitem__(_first(s, s.kind == 2), -1) or
                                   s.buried.__setitem__(_first(s, s.kind == 2), 0), r"buried resources"),
    "only pass left": (lambda s: s._cache.__setitem__("legal", np.zeros(1, np.int64)), r"decision: the only legal"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_each_check_catches_its_fault(midgame: GameState, fault: str) -> None:
    edit, message = FAULTS[fault]
    check_invariants(midgame)
    bad = midgame.clone()
    edit(bad)
    if fault != "only pass left":
        bad.invalidate_caches()
    with pytest.raises(InvariantError, match=message):
        check_invariants(bad)


@pytest.mark.parametrize("change", [-1, 0])
def test_a_statue_that_vanished_or_appeared_is_caught(midgame: GameState, change: int) -> None:
    """Setup deals one statue per spot, clans in turn, and statues never leave the board: one more or
    fewer is no possible board (with or without the setup's totals)."""
    baseline = component_totals(midgame)
    bad = midgame.clone()
    where = (bad.statue >= 0) if change < 0 else (bad.statue < 0) & (bad.kind > 0)
    bad.statue[_first(bad, where)] = change
    for totals in (None, baseline):
        with pytest.raises(InvariantError, match=r"statues: statues by clan .* setup deals 12 spots as \[4, 4, 4\]"):
            check_invariants(bad, totals)


def test_token_places_sum_clan_carts_as_carts(midgame: GameState) -> None:
    places = token_places(midgame)
    held = midgame.tokens.sum(axis=(0, 1))
    assert places["trolls"][CART] == held[CART] + held[CLAN_CART0:].sum()


def test_check_step_catches_honour_without_a_dig(midgame: GameState) -> None:
    after = midgame.clone()
    after.honour[1] += 3
    with pytest.raises(InvariantError, match="tunnel honour: honour .* without a dig"):
        check_step(midgame, after)
    fell = midgame.clone()
    fell.coronation[0] -= 1
    with pytest.raises(InvariantError, match="coronation fell"):
        check_step(midgame, fell)


def test_check_step_accepts_a_real_dig_and_rejects_a_wrong_chart_value() -> None:
    game = Game(num_players=2)
    state = _play(game, 3, lambda s: s.decision_kind() == "step2_recruit_or_dig"
                  and any(game.layout.decode(int(a))[0] == "dig" for a in s.legal_actions()))
    digs = [int(a) for a in state.legal_actions() if game.layout.decode(int(a))[0] == "dig"]
    before = state.clone()
    state.apply(digs[0])
    if state.decision_kind() == "dig_mineral":
        state.apply(int(state.legal_actions()[0]))
    check_step(before, state)
    state.honour[before.current] += 1
    with pytest.raises(InvariantError, match="tunnel honour: player .* dug a size-"):
        check_step(before, state)
