"""The environment with payment="choose": PettingZoo's api_test for 2 to 5 players, the phase and the
payment under way in the observation (only in such games: the default layout is unchanged), the mask."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from mk_env.mountain_king.env.aec import env, raw_env
from mk_env.mountain_king.env.version import layout_description, layout_fingerprint
from mk_env.mountain_king.rules import Game
from mk_env.mountain_king.rules.content import TOKEN_RESOURCE


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_api_test_with_choose_payment(num_players):
    api_test(env(num_players, payment="choose"), num_cycles=400, verbose_progress=False)


def test_default_layout_unchanged_and_choose_layout_has_the_payment():
    auto, choose = raw_env(3), raw_env(3, payment="choose")
    names = {f.key: f.entries for f in auto.observer.fields}
    names_choose = {f.key: f.entries for f in choose.observer.fields}
    turn = names_choose["turn"]
    assert "phase_pay" not in names["turn"] and turn[turn.index("phase_game_over") + 1] == "phase_pay"
    assert not any(e.startswith("pay_") for e in names["pending"])
    assert [e for e in names_choose["pending"] if e.startswith("pay_")] == (
        [f"pay_owed_{r}" for r in ("stone", "iron", "heartstone", "coin", "cart", "hammer", "rune")]
        + [f"pay_chosen_trollsmoot_slot_{i}" for i in range(10)] + ["pay_chosen_storage"])
    assert layout_fingerprint(Game(3)) != layout_fingerprint(Game(3, payment="choose"))


def test_observation_shows_the_payment_under_way():
    e = raw_env(4, payment="choose")
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    seen = 0
    while e.agents and seen < 5:
        agent = e.agent_selection
        obs = e.observe(agent)
        st = e.game_state
        if st.decision_kind() == "pay":
            at = e.observer.at["pending"]
            owed = obs["observation"]["pending"][at.pay_owed] * e.observer.res_total
            bill = np.array(st.pending.pay_bill, float)
            for a in st.pending.paid:
                source, kind = divmod(a, 10)
                bill[kind if source == 10 else TOKEN_RESOURCE[kind]] -= 1
            assert np.allclose(owed, bill) and owed.sum() > 0
            assert obs["observation"]["turn"][e.observer.at["turn"].phase][-1] == 1.0  # phase_pay, the last phase
            assert np.flatnonzero(obs["action_mask"]).tolist() == st.legal_actions().tolist()
            seen += 1
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.integers(len(legal))]))
    assert seen == 5


def test_the_status_line_names_the_decision_paid_for_and_the_tokens_chosen():
    from mk_env.mountain_king.env.render import status_line
    st = Game(3, payment="choose").new_initial_state(9)
    rng = np.random.default_rng(0)
    while not (st.decision_kind() == "pay" and st.pending.paid):
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
    line = status_line(st)
    assert f"paying for: {st.describe_action(st.pending.pay_action)}" in line
    assert "chosen: 1 " in line and "still owed" in line


def _without_payment(description: dict) -> dict:
    """A choose game's layout description with what the payment adds taken out."""
    out = dict(description, actions=[b for b in description["actions"] if b[0] != "pay_token"])
    fields = []
    for key, shape, entries in description["observation"]:
        keep = [e for e in entries if e != "phase_pay" and not e.startswith("pay_")]
        fields.append([key, list(shape[:-1]) + [len(keep)] if len(keep) != len(entries) else shape, keep])
    out["observation"] = fields
    return out


@pytest.mark.parametrize("num_players,side", [(2, "winter"), (2, "autumn"), (3, "autumn"), (4, "winter"),
                                              (5, "winter")])
def test_a_choose_layout_is_the_default_layout_plus_the_payment(num_players, side):
    """The version rule pins the default layouts (mk_env/mountain_king/env/version.py); a choose game's
    layout is exactly that plus the block pay_token (110 actions, last), phase_pay and the 18 pay_*
    entries of pending, so it changes only with the default layout or with the payment."""
    auto = layout_description(Game(num_players, board_side=side))
    choose = layout_description(Game(num_players, board_side=side, payment="choose"))
    assert list(choose["actions"][-1]) == ["pay_token", 110]
    assert _without_payment(choose) == auto
    added = {c[0]: len(c[2]) - len(a[2]) for c, a in zip(choose["observation"], auto["observation"])}
    assert {key: n for key, n in added.items() if n} == {"turn": 1, "pending": 18}
