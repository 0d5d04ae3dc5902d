"""The agents' payment choices (agents/payment_choice.py): the fixed-order answer reproduces
payment="auto" exactly; the rule of thumb answers legally and prefers the recruit's own cascade."""

from __future__ import annotations

import numpy as np

from agents.heuristic import quick_action
from agents.payment_choice import choose_token, fixed_order_token, wanted_tokens
from mk_env.mountain_king.rules import Game
from mk_env.mountain_king.rules.actions import SMOOT_CONE


def _play(payment: str, seed: int, answer) -> object:
    """A random 3-player game; in phase pay the seat answers with ``answer`` (the random draws serve only
    the other decisions, so both modes meet the same decisions)."""
    st = Game(3, payment=payment).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    asked = 0
    while not st.is_terminal():
        if st.decision_kind() == "pay":
            a = st.game.layout.index("pay_token", answer(st, st.current))
            assert st.is_legal(a)
            asked += 1
        else:
            legal = st.legal_actions()
            a = int(legal[rng.integers(len(legal))])
        st.apply(a)
    return st, asked


def test_fixed_order_answers_play_exactly_the_auto_game():
    for seed in (1, 2):
        auto, _ = _play("auto", seed, None)
        chose, asked = _play("choose", seed, fixed_order_token)
        assert asked > 20
        for field in ("tokens", "storage", "supply", "honour", "smoot", "statue", "horde_bribes"):
            assert np.array_equal(getattr(auto, field), getattr(chose, field)), field
        assert auto.returns() == chose.returns()


def test_rule_of_thumb_answers_are_legal_and_plan_the_whole_set():
    st, asked = _play("choose", 4, choose_token)
    assert st.is_terminal() and asked > 20


def test_a_recruit_pays_first_from_the_trolls_its_cascade_refills():
    """Coins on a troll under the new troll's slot are spent before coins elsewhere (the cascade
    gives them back at once)."""
    for seed in range(30):
        st = Game(3, payment="choose").new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not st.is_terminal():
            pend = st.pending
            if st.decision_kind() == "pay" and st.game.layout.decode(pend.pay_action)[0] == "recruit":
                want = wanted_tokens(st, st.current)
                cone = SMOOT_CONE[st.game.layout.recruit_args(st.game.layout.decode(pend.pay_action)[1])[1]]
                coins_in_cone = sum(int(st.tokens[st.current, s, 3]) for s in cone)
                if 0 < coins_in_cone:  # coins both under the new troll and elsewhere (else: nothing to prefer)
                    from_cone = [a for a in want if a // 10 in cone]
                    assert len(from_cone) == min(coins_in_cone, len(want))
                    return
            legal = st.legal_actions()
            st.apply(quick_action(st, st.current) if rng.random() < 0.7 else int(legal[rng.integers(len(legal))]))
    raise AssertionError("no recruit held for payment in 30 games")
