"""The engine's vocabulary (``mk_env.mountain_king.rules.vocabulary``): the phases' allowed blocks hold every legal
action met in play, the blocks are the layout's, and the sub-decision record converts to the save's dict
form and back exactly."""

from __future__ import annotations

import numpy as np
import pytest

from mk_env.mountain_king.rules import Block, Game, Pending, Phase
from mk_env.mountain_king.rules.actions import ActionLayout
from mk_env.mountain_king.rules.explain import REASONS
from mk_env.mountain_king.rules.legal import CHOICES
from mk_env.mountain_king.rules.turn import HANDLERS, PASSES, PEDESTALS
from mk_env.mountain_king.rules.vocabulary import (NO_PENDING, PASS_PHASES, PHASE_BLOCKS, PHASE_NAMES, TRADE_PHASES,
                                     pending_from_save, pending_to_save)


def test_phases_and_names_agree():
    assert [p.value for p in Phase] == list(range(len(PHASE_NAMES)))
    assert set(PHASE_BLOCKS) == set(Phase)
    assert Phase.STEP2 not in PASS_PHASES and Phase.STEP2 in TRADE_PHASES


def test_blocks_are_the_layouts_blocks_in_order():
    assert ActionLayout.BLOCKS == tuple(b.value for b in Block)
    assert all(Block(name) == name for name in ActionLayout.BLOCKS)  # a member equals its string


def test_every_legal_action_is_of_a_block_its_phase_allows():
    rng = np.random.default_rng(3)
    seen = set()
    for options in ({"num_players": 2}, {"num_players": 4, "team_mode": True}, {"num_players": 5}):
        game = Game(**options)
        for seed in range(3):
            st = game.new_initial_state(seed)
            while not st.is_terminal():
                legal = st.legal_actions()
                blocks = {game.layout.decode(int(a))[0] for a in legal}
                assert blocks <= PHASE_BLOCKS[Phase(st.phase)], (PHASE_NAMES[st.phase], blocks)
                seen.add(Phase(st.phase))
                st.apply(int(legal[rng.integers(len(legal))]))
    assert len(seen) >= 11  # most phases were met


@pytest.mark.parametrize("pending, saved", [
    (NO_PENDING, {}),
    (Pending(spell=1), {"spell": 1}),
    (Pending(horde_slot=9, smoot_slot=7, bribes_owed=(5, 6), recruit_card=40),
     {"horde": 9, "smoot": 7, "bribes": [5, 6], "card": 40}),
    (Pending(spell=0, dig=12, dig_for_spell=True, sites_left=(2,)), {"spell": 0, "dig": 12, "return": "spell", "sites": [2]}),
    (Pending(dig=3, dig_for_spell=False), {"dig": 3, "return": "step3"}),
    (Pending(statue_square=30, statue_from_phase=Phase.STEP4), {"statue": 30, "back": 17}),
])
def test_pending_converts_to_the_saved_dict_and_back(pending, saved):
    assert pending_to_save(pending) == saved
    assert list(pending_to_save(pending)) == list(saved)  # the save's key order
    assert pending_from_save(saved) == pending
    assert bool(pending) == bool(saved)


def test_the_engine_tables_cover_the_vocabulary():
    """Every block has its one handler, every phase where pass is legal says what pass does, and every
    phase without trades has its block of choices, one its phase allows."""
    assert set(HANDLERS) == set(ActionLayout.BLOCKS)
    assert set(PASSES) == PASS_PHASES | {int(Phase.STEP2)}
    assert set(CHOICES) | TRADE_PHASES | {int(Phase.GAME_OVER)} == {int(p) for p in Phase}
    assert all(Block(block) in PHASE_BLOCKS[Phase(ph)] for ph, (block, _) in CHOICES.items())
    assert set(PEDESTALS) == {int(p) for p, blocks in PHASE_BLOCKS.items() if Block.PEDESTAL in blocks}
    assert set(REASONS) <= set(Block)
