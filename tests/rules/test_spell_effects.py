"""Each spell effect is declared once (``mk_env.mountain_king.rules.spells.SPELL_EFFECTS``): the loader's schema, when
it can be cast and the sub-decisions it opens come from that one entry; and the recruit rule and its
explanation count bribes the same way (coins, or every resource with Golden Mask)."""

from __future__ import annotations

import pytest
from rules_helpers import empty_handed, give, make_test_game, to_phase

from mk_env.mountain_king.rules import IllegalActionError, Phase, load_pack
from mk_env.mountain_king.rules import economy as eco
from mk_env.mountain_king.rules.pack.spells import SPELL_EFFECTS as LOADER_SCHEMA
from mk_env.mountain_king.rules.recruiting import bribe_purse
from mk_env.mountain_king.rules.spells import SPELL_EFFECTS


def test_the_loader_checks_the_parameters_the_table_declares():
    assert LOADER_SCHEMA == {name: effect.params for name, effect in SPELL_EFFECTS.items()}


def test_every_card_of_the_pack_names_a_declared_effect():
    assert {s.effect for s in load_pack().spells} <= set(SPELL_EFFECTS)


@pytest.mark.parametrize("name", sorted(SPELL_EFFECTS))
def test_each_opened_choice_has_its_legal_moves_and_application(name):
    effect = SPELL_EFFECTS[name]
    assert (Phase.SPELL_SMOOT in effect.opens) == (effect.smoot_slots is not None) == (effect.on_smoot_slot is not None)
    assert (Phase.SPELL_HORDE in effect.opens) == (effect.horde_slots is not None) == (effect.on_horde_slot is not None)


def test_golden_mask_recruit_explanation_counts_every_resource():
    """With Golden Mask the rule counts every resource owned; the explanation says the same number."""
    game = make_test_game()
    st = empty_handed(game)
    give(st, 0, stone=1)
    st.bribe_any = True
    to_phase(st, "step2_recruit_or_dig")
    st.invalidate_caches()
    have_all = 1
    with pytest.raises(IllegalActionError, match=f"needs 2 bribes and you own {have_all} resources"):
        st.apply(game.layout.recruit_index(5, 4))
    assert bribe_purse(st, eco.owned(st, 0)) == have_all
    st.bribe_any = False
    st.invalidate_caches()
    with pytest.raises(IllegalActionError, match="needs 2 bribes and you own 0 coins"):
        st.apply(game.layout.recruit_index(5, 4))
