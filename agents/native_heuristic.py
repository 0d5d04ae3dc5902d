"""The compiled heuristic (``agents/native/``): the same evaluation, candidates, quick policy and lookahead as
:mod:`agents.heuristic` and its modules, run in C++ on the compiled engine's states.

The Python modules stay the reference and the only source of the weights and constants: :func:`tables` reads
them (and the weights in force, :func:`agents.heuristic_eval.using`, so a jittered player is compiled too) into
the tables the compiled code is built from. :func:`compiled` answers, for one state, the compiled heuristic to
use or None: a state of the Python engine, a game built without the extension, or inside :func:`reference`
(the parity tests and the side-by-side benchmarks run the Python modules on the same compiled states there).
The evaluation-module interface of :mod:`agents.heuristic` (``evaluate``, ``quick_action``, ``settle``,
``candidates``, ``lookahead_values``, ``best_action``) dispatches through it, so every caller of that interface
(the agent, the search's priors, rollouts and leaf values) gets the compiled path where it exists; the modules
below it (:mod:`agents.heuristic_eval` and the rest) stay pure Python.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

from mk_env.mountain_king.rules.content import RESOURCES
from mk_env.mountain_king.rules.native import NativeGameState, rules_of

from . import heuristic_candidates as C
from . import heuristic_eval as E
from . import heuristic_quick as Q

_REFERENCE: ContextVar[bool] = ContextVar("heuristic_reference", default=False)
#: compiled weight sets kept per game (the default weights, and the latest jittered players')
CACHED_WEIGHTS = 8
#: the order of the assets whose potential fades (the compiled code's Asset enum)
ASSETS = ("resources", "trolls", "pedestals", "reach", "statues", "buried", "workshops")


@contextmanager
def reference() -> Iterator[None]:
    """Run the Python modules (the reference) inside the block, on compiled states too."""
    token = _REFERENCE.set(True)
    try:
        yield
    finally:
        _REFERENCE.reset(token)


def in_reference() -> bool:
    """Whether the Python modules serve here (inside :func:`reference`)."""
    return _REFERENCE.get()


def compiled(st: Any) -> Any:
    """The compiled heuristic for ``st`` with the weights in force, or None where the Python modules serve
    (a Python engine state, or inside :func:`reference`)."""
    if type(st) is not NativeGameState or _REFERENCE.get():
        return None
    w = E.weights()
    game = st.game
    cache = game.__dict__.setdefault("_native_heuristics", {})
    entry = cache.get(id(w))
    if entry is None:
        from mk_env.mountain_king.rules import _native
        if len(cache) >= CACHED_WEIGHTS:  # jittered players bring new weights every game: keep the latest few
            del cache[next(iter(cache))]
        entry = cache[id(w)] = (_native.Heuristic(rules_of(game), tables(game, w)), w)  # w kept: its id stays its own
    return entry[0]


def tables(game: Any, w: Any) -> dict[str, Any]:
    """The weights ``w`` and the heuristic's constants and content reads, as the compiled code takes them."""
    pack, layout = game.pack, game.layout
    return {
        "resource": [float(x) for x in w.resource_values], "troll": w.troll, "symbol": w.symbol,
        "pedestal": w.pedestal, "reach": w.reach, "dig_potential": w.dig_potential,
        "dig_this_turn": w.dig_this_turn, "statue": w.statue, "buried": w.buried, "workshop": w.workshop,
        "held_token": w.held_token,
        "recruit_rate": E.RECRUIT_RATE, "horizon": [E.HORIZON[a] for a in ASSETS],
        "new_kind_worth": Q.NEW_KIND_WORTH, "settle_limit": Q.SETTLE_LIMIT, "sub_phases": sorted(Q.SUB_PHASES),
        "max_digs": C.MAX_DIGS, "max_trades": C.MAX_TRADES, "max_any_gives": C.MAX_ANY_GIVES,
        "tolerance": C.TIE_TOLERANCE, "block_rank": [C.BLOCK_RANK.get(str(b), 1) for b in layout.BLOCKS],
        "symbol_totals": game.card_symbols.sum(axis=1).astype(float).tolist(),
        "give_any": [int(pack.workshops[c.workshop].trades[0].give_any) for c in layout.conversions],
        "honour_min": min(pack.tunnel_honour), "honour_max": max(pack.tunnel_honour),
        "option_items": [[[(RESOURCES.index(r), int(n)) for r, n in option.items()]
                          for option in s.params.get("options", ())] for s in pack.spells],
    }
