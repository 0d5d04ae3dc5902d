"""Ceremony of Ascension picks the horde troll by its printed level, not by the horde row it sits in.

The card (French rulebook, the card's printed text): "Défaussez un Troll de niveau 2 de votre meute
(ainsi que les ressources qu'il détient). Remplacez-le par un Troll de niveau 3 provenant de la horde.
Ne gagnez pas de Piédestal. Le nouveau Troll ne s'active pas lorsque vous l'ajoutez. S'il contenait des
pots-de-vin, défaussez-les." (the pack's English: "Discard a Level-2 troll of your trollsmoot (and the
resources it holds). Replace it with a Level-3 troll from the horde. Gain no pedestal; the new troll
does not activate when you add it; if it held bribes, discard them.")

English rulebook, *Running out of trolls*: "If you ever run out of trolls for a particular level, draw a
troll from the next-higher level deck (or next-lower if that's impossible) instead." So once a deck runs
out, levels stop matching rows: a Level-3 troll may sit in the Level-2 row (the only row whose trolls
hold bribes, which is why the card mentions them) and a Level-2 troll in the top row.
"""

from __future__ import annotations

import numpy as np
from rules_helpers import act, draw_card, empty_handed, give, make_test_game, spell_in_book, swap_into_horde

from mk_env.mountain_king.rules.actions import HORDE_ROW
from mk_env.mountain_king.rules.content import COIN
from mk_env.mountain_king.rules.invariants import check_invariants

LEVEL2_ROW = [h for h, row in enumerate(HORDE_ROW) if row == 1]
TOP_ROW = [h for h, row in enumerate(HORDE_ROW) if row == 2]
SMOOT_SLOT = 4  # second row of the trollsmoot, resting on the starter trolls in slots 0 and 1


def _ascension_ready(seed: int = 3):
    """Player 0 at step 1 with a rune, Ceremony of Ascension in spellbook position 0 and a Level-2
    troll in trollsmoot slot 4 (cards moved between decks, horde and spellbook, none created)."""
    game = make_test_game()
    st = empty_handed(game, seed=seed)
    position = spell_in_book(st, "ascension")
    st.smoot[0, SMOOT_SLOT] = draw_card(st, 2)
    give(st, 0, rune=1)
    st.invalidate_caches()
    return game, st, position


def _offered_horde_slots(st, position: int) -> list[int]:
    act(st, "cast", position)
    assert st.decision_kind() == "spell_trollsmoot"
    act(st, "smoot_slot", SMOOT_SLOT)
    assert st.decision_kind() == "spell_horde"
    layout = st.game.layout
    return [layout.decode(int(a))[1] for a in st.legal_actions()]


def test_a_level3_troll_in_the_level2_row_is_offered_and_its_bribes_discarded():
    game, st, position = _ascension_ready()
    h = LEVEL2_ROW[0]
    card = swap_into_horde(st, h, level=3)
    st.supply[COIN] -= 2
    st.horde_bribes[h, COIN] += 2
    pedestal = int(st.horde_pedestal[h])
    check_invariants(st)
    supply_coins = int(st.supply[COIN])
    offered = _offered_horde_slots(st, position)
    assert h in offered
    assert sorted(offered) == sorted([h] + [t for t in TOP_ROW if game.card_level[st.horde[t]] == 3])
    act(st, "horde_slot", h)
    assert int(st.smoot[0, SMOOT_SLOT]) == card
    assert not st.tokens[0, SMOOT_SLOT].any(), "the new troll does not activate"
    assert int(st.supply[COIN]) == supply_coins + 2, "its bribes are discarded to the supply"
    assert not st.horde_bribes[h].any()
    assert int(st.horde_pedestal[h]) == pedestal, "gain no pedestal: it stays on the horde slot"
    assert not st.storage_pedestals.any()
    check_invariants(st)


def test_a_level2_troll_in_the_top_row_is_not_offered():
    game, st, position = _ascension_ready()
    h = TOP_ROW[0]
    swap_into_horde(st, h, level=2)
    check_invariants(st)
    offered = _offered_horde_slots(st, position)
    assert h not in offered
    assert offered and all(game.card_level[st.horde[t]] == 3 for t in offered)


def test_no_level3_troll_anywhere_in_the_horde_means_no_ceremony():
    game, st, position = _ascension_ready()
    for h in np.flatnonzero(game.card_level[st.horde] == 3).tolist():
        swap_into_horde(st, h, level=2)
    check_invariants(st)
    cast = game.layout.index("cast", position)
    assert cast not in st.legal_actions().tolist()
