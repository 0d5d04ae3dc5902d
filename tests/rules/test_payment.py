"""payment="choose": the payer picks the tokens (rulebook, *Spending resources*: "All resources owned by
you ... are free to be spent by you"; "You could spend any four of those five stone")."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agents.heuristic import quick_action
from mk_env.core.errors import ConfigError
from mk_env.mountain_king.rules import Game
from mk_env.mountain_king.rules import economy as eco
from mk_env.mountain_king.rules.actions import ActionLayout
from mk_env.mountain_king.rules.content import CART, CLAN_CART0, STONE
from mk_env.mountain_king.rules.invariants import check_invariants
from mk_env.mountain_king.rules.payment import bill, choose_token, legal_pay_tokens
from mk_env.mountain_king.rules.turn import _dispatch  # the held decision in the fixed order, for comparison
from mk_env.mountain_king.rules.vocabulary import Block, Pending, Phase
from tests.rules_helpers import empty_handed, give, hold, make_test_game

PAY = int(Phase.PAY)


def four_stone_trade(game: Game) -> int:
    """The trade of 4 stone for 1 coin."""
    layout = game.layout
    row = [i for i, g in enumerate(layout.trade_gives.tolist()) if g == [4, 0, 0, 0, 0, 0, 0]][0]
    return layout.index("trade", row * 7 + 3)


def five_stone(payment: str = "choose"):
    """Player 0 at step 1 owning five stone: 1 on the troll in slot 0, 2 on the troll in slot 3 (its card
    shows two stone), 2 in storage; nothing else."""
    st = empty_handed(make_test_game(2, payment=payment))
    hold(st, 0, 0, stone=1)
    hold(st, 0, 3, stone=2)
    give(st, 0, stone=2)
    st.invalidate_caches()
    check_invariants(st)
    return st


def spent(before, after, p: int = 0) -> tuple[list[int], int]:
    """Stone taken from each of p's trolls, and from storage, between two states."""
    trolls = (before.tokens[p, :, STONE] - after.tokens[p, :, STONE]).tolist()
    return trolls, int(before.storage[p, STONE] - after.storage[p, STONE])


# -- the option ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["pick", "", None, 1, "Choose"])
def test_payment_option_is_checked(bad):
    with pytest.raises(ConfigError, match=r"payment=.*not allowed.*\"auto\".*\"choose\""):
        Game(2, payment=bad)


def test_default_game_keeps_its_layout_and_options():
    auto, choose = Game(3), Game(3, payment="choose")
    assert "pay_token" not in auto.layout.BLOCKS and auto.layout.size == choose.layout.offset["pay_token"]
    assert choose.layout.BLOCKS == ActionLayout.BLOCKS and choose.layout.sizes["pay_token"] == 11 * 10
    assert "payment" not in auto.options_dict() and choose.options_dict()["payment"] == "choose"
    assert auto.geo is choose.geo  # the board's tables are shared


# -- "any four of those five stone" ------------------------------------------------------------------------
def test_any_four_of_five_stone_each_set_offered_once():
    """Trading 4 of 5 stone: the three sets (which stone stays: slot 0's, one of slot 3's, or one from
    storage) are each reached by exactly one sequence of choices, and each spends what it says."""
    st = five_stone()
    st.apply(four_stone_trade(st.game))
    assert st.decision_kind() == "pay"
    results = []

    def walk(node, chosen):
        if node.phase != PAY:
            results.append((tuple(chosen), spent(st, node)))
            return
        for a in node.legal_actions().tolist():
            child = node.clone()
            child.apply(a)
            check_invariants(child)
            walk(child, chosen + [node.describe_action(a)])
    walk(st, [])
    sets = sorted(s for _, s in results)
    assert sets == sorted([([1, 0, 0, 1] + [0] * 6, 2), ([0, 0, 0, 2] + [0] * 6, 2), ([1, 0, 0, 2] + [0] * 6, 1)])
    assert all(after[1] <= 2 for _, after in results)
    assert len(results) == 3  # one sequence per set
    first_choices = [c[0] for c, _ in results]
    assert "pay with 1 stone held by the troll in trollsmoot slot 0" in first_choices


def test_the_fixed_order_is_one_of_the_choices():
    """payment="auto" spends trolls first, bottom row first: one of the sets offered (slot 0's stone, both of
    slot 3's, one from storage)."""
    auto = five_stone("auto")
    auto.apply(four_stone_trade(auto.game))
    assert spent(five_stone("auto"), auto) == ([1, 0, 0, 2] + [0] * 6, 1)


def test_one_possible_set_asks_nothing():
    """Exactly four stone owned, or all in one place: only one set can pay, so no token is asked."""
    st = empty_handed(make_test_game(2, payment="choose"))
    hold(st, 0, 3, stone=2)
    give(st, 0, stone=2)
    st.invalidate_caches()
    before = st.clone()
    st.apply(four_stone_trade(st.game))
    assert st.decision_kind() != "pay" and spent(before, st) == ([0] * 3 + [2] + [0] * 6, 2)
    st = empty_handed(make_test_game(2, payment="choose"))
    give(st, 0, stone=6)
    st.invalidate_caches()
    st.apply(four_stone_trade(st.game))
    assert st.decision_kind() != "pay" and st.storage[0, STONE] == 2


def test_tokens_are_asked_in_place_order_and_the_rest_is_forced():
    """After slot 3's stone is chosen, slot 0's is no longer offered (its set is reached by choosing it
    first); when the rest is forced it is paid without a question."""
    st = five_stone()
    game = st.game
    st.apply(four_stone_trade(game))
    tok = game.layout.offset["pay_token"]
    assert st.legal_actions().tolist() == [tok + 0, tok + 30]  # slot 0's stone, slot 3's (storage: too late)
    before = five_stone()
    st.apply(tok + 30)  # slot 3's: then 3 more from slot 3 (1 left) and storage (2): forced
    assert st.decision_kind() != "pay"
    assert spent(before, st) == ([0, 0, 0, 2] + [0] * 6, 2)
    assert st.history[-2:] == [four_stone_trade(game), tok + 30]


def test_an_illegal_token_is_refused_in_words():
    st = five_stone()
    st.apply(four_stone_trade(st.game))
    with pytest.raises(Exception, match="cannot pay|not a token that can pay") as err:
        st.apply(st.game.layout.index("pay_token", 100 + STONE))  # storage's stone cannot come first
    assert "stone from your storage (2 there)" in str(err.value)


def test_describe_action_names_the_token():
    layout = Game(2, payment="choose").layout
    assert layout.describe(layout.index("pay_token", 3 * 10 + STONE)) == \
        "pay with 1 stone held by the troll in trollsmoot slot 3"
    assert layout.describe(layout.index("pay_token", 10 * 10 + CART)) == "pay with 1 wild cart from your storage"
    assert layout.describe(layout.index("pay_token", 0 * 10 + CLAN_CART0 + 1)) == \
        "pay with 1 ice cart held by the troll in trollsmoot slot 0"


# -- what each decision pays -------------------------------------------------------------------------------
def test_a_statue_move_is_paid_with_its_clans_cart_or_a_wild_one():
    st = empty_handed(make_test_game(2, payment="choose"))
    square, clan = 5, 1  # an ice statue (the bill reads only its clan)
    st.statue[square] = clan
    st.pending = Pending(statue_square=square, statue_from_phase=int(Phase.STEP4))
    move = st.game.layout.index("move_statue", 0)
    assert bill(st, 0, move, int(Phase.STATUE_DEST)) == [(CART, 1, (CART, CLAN_CART0 + clan))]
    st.pending = Pending(statue_square=square, statue_from_phase=int(Phase.SPELL_STATUE))
    assert bill(st, 0, move, int(Phase.STATUE_DEST)) == []  # a spell's free move


# -- every payment of real games ---------------------------------------------------------------------------
def _sets(st, p, action, phase) -> set:
    """Every set of tokens that can pay ``action``'s bill (brute force over each resource's places)."""
    per_item = []
    for resource, n, kinds in bill(st, p, action, phase):
        places = [(s * 10 + k, int(st.tokens[p, s, k])) for s in range(10) for k in kinds if st.tokens[p, s, k]]
        if st.storage[st.game.storage_of[p], resource]:
            places.append((100 + resource, int(st.storage[st.game.storage_of[p], resource])))
        options = set()
        for combo in itertools.combinations_with_replacement([a for a, _ in places], n):
            if all(combo.count(a) <= have for a, have in places):
                options.add((resource, combo))
        per_item.append(options)
    return {frozenset(x) for x in itertools.product(*per_item)}


def _plans(st, p) -> list[frozenset]:
    """The plan each sequence of choices ends in (choose_token on copies, as the engine would)."""
    out = []
    for arg in legal_pay_tokens(st, p):
        child = st.clone()
        if choose_token(child, p, arg) is None:
            out += _plans(child, p)
        else:
            out.append(frozenset((r, tuple(sorted(a))) for r, a in child._cache.pop(eco.PLAN).items()))
    return out


@pytest.mark.parametrize("num_players,seed", [(3, 8), (5, 6)])
def test_every_set_offered_exactly_once_and_the_fixed_order_among_them(num_players, seed):
    """In games of the heuristic's quick policy mixed with random moves, at each held payment: the
    sequences of choices reach every set of tokens that can pay, each exactly once; the engine's fixed
    order is one of them (the same state after)."""
    game = Game(num_players, payment="choose")
    st = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    kinds = set()
    while not st.is_terminal():
        if st.phase == PAY and not st.pending.paid:
            p, pend = st.current, st.pending
            kinds.add(game.layout.decode(pend.pay_action)[0])
            plans = _plans(st, p)
            assert len(plans) == len(set(plans)) > 1
            assert set(plans) == _sets(st, p, pend.pay_action, pend.pay_phase)
            auto = st.clone()  # the held decision applied in the engine's fixed order
            auto.phase, auto.pending = pend.pay_phase, pend._replace(pay_action=None, pay_phase=None, paid=None,
                                                                        pay_bill=None)
            _dispatch(auto, pend.pay_action)
            finals = []
            for seq in _sequences(st):
                child = st.clone()
                for a in seq:
                    child.apply(a)
                finals.append((child.tokens.tobytes(), child.storage.tobytes(), child.supply.tobytes()))
            assert (auto.tokens.tobytes(), auto.storage.tobytes(), auto.supply.tobytes()) in finals
        legal = st.legal_actions()
        st.apply(quick_action(st, st.current) if rng.random() < 0.7 else int(legal[rng.integers(len(legal))]))
    assert len(kinds) >= 3, kinds  # trades, digs, statue moves ... not only trades


def _sequences(st) -> list[list[int]]:
    if st.phase != PAY:
        return [[]]
    out = []
    for a in st.legal_actions().tolist():
        child = st.clone()
        child.apply(a)
        out += [[a] + rest for rest in _sequences(child)]
    return out


# -- saves -----------------------------------------------------------------------------------------------
def test_a_payment_under_way_saves_and_loads():
    st = five_stone()
    st.apply(four_stone_trade(st.game))
    st.apply(st.game.layout.index("pay_token", 0))
    assert st.decision_kind() == "pay" and st.pending.paid == (0,)
    back = st.game.state_from_json(st.to_json())
    assert back == st and back.legal_actions().tolist() == st.legal_actions().tolist()


def test_a_save_with_a_payment_where_none_can_be_is_refused():
    from mk_env.core.errors import StateError

    st = five_stone()
    st.apply(four_stone_trade(st.game))
    data = st.to_dict()
    auto = make_test_game(2)
    data_auto = dict(data, options=auto.options_dict())
    with pytest.raises(StateError, match="payment"):
        auto.state_from_json(data_auto)
    wrong = dict(data, pending=dict(data["pending"], paid=[100 + STONE, 0]))  # out of order
    with pytest.raises(StateError, match="payment"):
        st.game.state_from_json(wrong)
    outside = dict(data, phase=int(Phase.STEP1))
    with pytest.raises(StateError, match="belong to phase pay"):
        st.game.state_from_json(outside)


def test_phase_pay_has_only_pay_tokens():
    from mk_env.mountain_king.rules.vocabulary import PHASE_BLOCKS, PHASE_NAMES
    assert PHASE_NAMES[PAY] == "pay" and PHASE_BLOCKS[Phase.PAY] == frozenset((Block.PAY_TOKEN,))
