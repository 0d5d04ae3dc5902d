"""Why a decision is illegal, in words: which decision, why, and what is allowed now."""

from __future__ import annotations

from . import economy as eco
from .board import opponent_network
from .content import COIN, HAMMER, MINERALS, RESOURCES, RUNE
from .legal import bribes_needed, legal_actions, open_smoot_slots
from .state import GameState
from .vocabulary import PHASE_NAMES, Block


def explain_illegal(st: GameState, a: int) -> str:
    layout = st.game.layout
    p = st.current
    block, arg = layout.decode(a)
    legal = legal_actions(st)
    allowed_blocks = sorted({layout.decode(int(x))[0] for x in legal})
    head = (f"illegal action {a} ({layout.describe(a)}) for player {p} in phase "
            f"{PHASE_NAMES[st.phase]}")
    if block not in allowed_blocks:
        reason = f"'{block}' decisions are not allowed in this phase"
    else:
        reason = _reason(st, p, block, arg)
    examples = "; ".join(layout.describe(int(x)) for x in legal[:4])
    more = f" (and {len(legal) - 4} more)" if len(legal) > 4 else ""
    return (f"{head}: {reason}. Allowed now: {len(legal)} actions of kinds "
            f"{', '.join(allowed_blocks)}, e.g. {examples}{more}")


def _reason(st: GameState, p: int, block: Block, arg: int) -> str:
    game = st.game
    have = eco.owned(st, p)
    if block == Block.DIG:
        table = game.geo.tunnel_placements
        piece, size = int(table.piece[arg]), int(table.size[arg])
        cells = table.cells[arg, :size]
        if st.tunnel_supply[piece] <= 0:
            return f"no {game.pack.tunnels[piece].name} tiles are left in the supply"
        if (st.kind[cells] != 0).any():
            return "it would overlap another tile"
        if not st.reach[p][table.nbrs[arg]].any():
            return "it is not adjacent to your network"
        if opponent_network(st, p)[table.nbrs[arg]].any():
            return "it would be adjacent to an opponent's network"
        if have[:3].max() < size:
            return f"it costs {size} minerals of one kind and you own {dict(zip(MINERALS, have[:3].tolist()))}"
        return f"it covers {int(table.rubble[arg])} rubble and you own {int(have[HAMMER])} hammers"
    if block == Block.RECRUIT:
        h, t = game.layout.recruit_args(arg)
        if int((st.smoot[p] >= 0).sum()) >= game.max_trolls:
            return f"your trollsmoot already has {game.max_trolls} trolls: you must dig"
        if t not in open_smoot_slots(st, p):
            return f"trollsmoot slot {t} is not free or does not rest on two trolls"
        if st.horde[h] < 0:
            return f"horde slot {h} is empty"
        need = len(bribes_needed(st, h))
        return f"it needs {need} bribes and you own {int(have[COIN])} coins"
    if block == Block.HALL:
        hall = int(game.geo.hall_placements.piece[arg])
        if st.hall_altar[hall] >= 0:
            return f"{game.pack.great_halls[hall].name} is already dedicated"
        return "a great hall must cover only tunnels of your own network, exactly and without gaps"
    if block == Block.TRADE:
        give, gain = game.layout.trade_args(arg)
        if st.supply[gain] <= 0:
            return f"the supply has no {RESOURCES[gain]} left"
        return f"you own {dict(zip(RESOURCES, have.tolist()))}"
    if block == Block.CAST:
        if st.spell_cast:
            return "you already cast a spell this turn"
        if have[RUNE] < 1:
            return "casting needs 1 rune and you own none"
        if st.spellbook[arg] < 0:
            return "that spellbook position is empty"
        return "the spell's effect cannot be carried out now"
    if block == Block.ACTIVATE_WORKSHOP:
        if st.workshop[arg] < 0:
            return "no workshop is established on that site"
        if arg in st.used_sites or st.workshops_left <= 0:
            return "you already activated a workshop this turn"
        return "your network does not touch any entrance of that workshop"
    if block == Block.SELECT_STATUE:
        return "there is no statue of your network there that can move now"
    if block == Block.MOVE_STATUE:
        return "that square is not a free square of the statue's tunnel or of an adjacent tunnel of your network"
    if block == Block.PEDESTAL:
        return "that pedestal is not available (none of that clan, or its clan already has a pedestal on this tier)"
    return "it is not legal in this state"
