"""``heuristic``: one-ply lookahead on a determinized copy with a hand-written evaluation.

For each decision the agent draws one determinized state, lists a few *candidate* actions
(:mod:`agents.heuristic_candidates`), applies each on a clone, settles the sub-decisions that follow
(:mod:`agents.heuristic_quick`: a quick rule-of-thumb policy, a workshop's uses by value) and scores
the result with :func:`evaluate` (:mod:`agents.heuristic_eval`): the seat's honour as if the game
ended now plus a potential that fades as the seat's own turns run out, so the last turns are valued on
the same scale as the end. The spells that only *enable* a later step of the turn (Golden Mask's
bribes in any resources, Clear Passage's free rubble, Master's Key's second workshop) are followed
through that step: their value is what the step gains with them over what it gains without. Ties go
to a fixed preference (pass first, then the lowest action number): the agent is deterministic given
the determinized state (``heuristic:ties=random`` draws them from the game's generator instead).

The same pieces (:func:`candidates`, :func:`lookahead_values`, :func:`settle`, :func:`evaluate`,
:func:`quick_action`, :func:`best_action`) are the prior, rollout policy and leaf evaluation of
:mod:`agents.mcts` (the evaluation-module interface, :mod:`agents.evaluation`).
"""

from __future__ import annotations

import numpy as np

from mk_env.mountain_king.rules import queries as Q
from mk_env.mountain_king.rules.state import GameState
from mk_env.core.view import PlayerView
from mk_env.mountain_king.rules.vocabulary import Phase
from mk_env.mountain_king.rules.workshops import activatable_sites

from .base import BaseAgent
from .evaluation import evaluation_of
from . import heuristic_candidates, heuristic_eval, heuristic_quick
from .heuristic_candidates import dig_scores, preferred, split_blocks, top_digs, useful_trades
from .heuristic_eval import DEFAULT_WEIGHTS, Weights, own_turns_left, potential, step2_open, using
from .heuristic_quick import SUB_PHASES, establish_worth
from .native_heuristic import compiled

__all__ = ["HeuristicAgent", "best_action", "candidates", "dig_scores", "establish_worth", "evaluate",
           "from_spec", "lookahead_values", "own_turns_left", "potential", "quick_action", "settle",
           "split_blocks", "step2_open", "top_digs", "useful_trades", "SUB_PHASES"]

STEP1, STEP2 = int(Phase.STEP1), int(Phase.STEP2)
#: the search's constants for this game (agents.evaluation.SEARCH_DEFAULTS). The margin that counts as a
#: near-certain win: 10 honour is overconfident as a forecast of the winner (benchmarks/value_calibration.py: the
#: scales that fit 2-player heuristic self-play are 15-18 in the last turns, 25-70 before), but a scale that grows
#: with the turns left played no better (docs/tournament.md, The leaf value's scale). Lookahead priors at every
#: depth looked better here (docs/tournament.md, Scaling). Two rounds of rollout played better than one at a
#: fixed budget: on the README's 200 deals (``mk-env tournament --agents heuristic,mcts:16 --players 2 --games
#: 200``) ``mcts:16`` won 70.5% with one round and 77.0% with two (docs/tournament.md, The rollout: two rounds).
SEARCH_VALUE_SCALE, SEARCH_LOOKAHEAD, SEARCH_ROLLOUT_ROUNDS = 10.0, None, 2
#: spells whose effect is a permission for a later step of the turn, and the flag it sets
ENABLERS = {"bribe_any": "bribe_any", "ignore_rubble": "ignore_rubble", "extra_workshop": "workshops_left"}


# ================================================================================================
# the evaluation-module interface: compiled on the compiled engine's states (agents.native_heuristic)
# ================================================================================================
def evaluate(st: GameState, p: int) -> float:
    """:func:`agents.heuristic_eval.evaluate`, compiled where ``st`` is the compiled engine's."""
    native = compiled(st)
    return heuristic_eval.evaluate(st, p) if native is None else native.evaluate(st._n, p)


def quick_action(st: GameState, p: int) -> int:
    """:func:`agents.heuristic_quick.quick_action`, compiled where ``st`` is the compiled engine's."""
    native = compiled(st)
    return heuristic_quick.quick_action(st, p) if native is None else native.quick_action(st._n, p)


def settle(st: GameState, p: int) -> None:
    """:func:`agents.heuristic_quick.settle`, compiled where ``st`` is the compiled engine's."""
    native = compiled(st)
    if native is None:
        heuristic_quick.settle(st, p)
    else:
        native.settle(st._n, p)
        st._cache.clear()  # the wrapper's memo of the legal set: the compiled state moved on


def candidates(st: GameState, p: int, rng: np.random.Generator | None = None) -> list[int]:
    """:func:`agents.heuristic_candidates.candidates`, compiled where ``st`` is the compiled engine's (and
    ties are not cut at random)."""
    native = compiled(st) if rng is None else None
    return heuristic_candidates.candidates(st, p, rng) if native is None else native.candidates(st._n, p)


# ================================================================================================
# lookahead
# ================================================================================================
def lookahead_values(st: GameState, p: int, actions: list[int]) -> np.ndarray:
    """Value of each action for ``p`` after applying it to a clone and settling (an enabler spell:
    plus what the step it enables gains with it)."""
    native = compiled(st)
    if native is not None:
        return np.asarray(native.lookahead_values(st._n, p, [int(a) for a in actions]))
    layout = st.game.layout
    values = np.empty(len(actions))
    for i, a in enumerate(actions):
        c = st.clone()
        c.apply(a)
        settle(c, p)
        values[i] = evaluate(c, p)
        block, arg = layout.decode(a)
        if block == "cast":
            effect = st.game.pack.spells[int(st.spellbook[arg])].effect
            if effect in ENABLERS and c.current_player() == p:
                values[i] += enabler_gain(c, p, effect)
    return values


def enabler_gain(after: GameState, p: int, effect: str) -> float:
    """What the permission ``effect`` (just cast, state ``after``) adds to the rest of the turn: the best
    step 2 with it minus the best without (Golden Mask, Clear Passage), or the best second workshop
    activation (Master's Key)."""
    if effect == "extra_workshop":
        gains = sorted((_activation_gain(after, p, site) for site in activatable_sites(after, p)), reverse=True)
        extra = 0 if after.used_sites else 1  # before any activation the key adds the second best one
        return max(0.0, gains[extra]) if len(gains) > extra else 0.0
    without = after.clone()
    setattr(without, ENABLERS[effect], False)
    without.invalidate_caches()
    return max(0.0, best_step2(after, p) - best_step2(without, p))


def _activation_gain(st: GameState, p: int, site: int) -> float:
    """How much activating the workshop on ``site`` (and using it as well as it can) raises p's value."""
    c = st.clone()
    c.apply(st.game.layout.index("activate_workshop", site))
    settle(c, p)
    return evaluate(c, p) - evaluate(st, p)


def best_step2(st: GameState, p: int) -> float:
    """The value of p's best recruit or dig this turn, from step 1 (passing to step 2) or step 2."""
    c = st.clone()
    if Q.phase(c) == STEP1:
        c.apply(0)
    if Q.phase(c) != STEP2 or c.current_player() != p:
        return evaluate(c, p)
    cands = [a for a in candidates(c, p) if c.game.layout.decode(a)[0] in ("recruit", "dig")]
    if not cands:
        return evaluate(c, p)
    return float(lookahead_values(c, p, cands).max())


def best_action(st: GameState, p: int, rng: np.random.Generator | None = None, random_ties: bool = False) -> int:
    """The heuristic's choice on a (determinized) state: one-ply lookahead over candidates, ties to the
    fixed preference (the choice is a function of the state), or with ``random_ties`` drawn from ``rng``."""
    native = None if random_ties else compiled(st)
    if native is not None:
        return native.best_action(st._n, p)
    tie_rng = rng if random_ties else None
    cands = candidates(st, p, tie_rng)
    if len(cands) == 1:
        return cands[0]
    return preferred(st.game.layout, cands, lookahead_values(st, p, cands), rng=tie_rng)


# ================================================================================================
# the agent
# ================================================================================================
class HeuristicAgent(BaseAgent):
    """Greedy one-ply lookahead with :func:`evaluate` (in another game of the suite: that game's
    evaluation module's ``best_action``, :mod:`agents.evaluation`).

    ``jitter`` > 0 (spec ``heuristic:jitter=0.3``; this game's evaluation only) makes each game's player
    its own: on its first decision of a game it draws its evaluation's weights, each the default times a
    factor in ``[1 - jitter, 1 + jitter]`` (:meth:`Weights.jittered`), from the generator the game hands it,
    so a game replays alike from its seed; a table of such players is varied rather than identical.

    ``ties="random"`` (spec ``heuristic:ties=random``; this game's evaluation only) breaks ties between
    equally valued decisions, and between tunnel placements of equal static score, at random from that
    generator instead of by the fixed preference (the lower action number), which on a symmetric board
    leans every seat the same way; the two options combine (``heuristic:jitter=0.3&ties=random``)."""

    name = "heuristic"
    TIES = ("first", "random")

    def __init__(self, jitter: float = 0.0, ties: str = "first") -> None:
        if not 0.0 <= jitter < 1.0:
            raise ValueError(f"heuristic jitter must be in [0, 1), got {jitter!r}")
        if ties not in self.TIES:
            raise ValueError(f"heuristic ties must be one of {', '.join(self.TIES)}, got {ties!r}")
        self.jitter = float(jitter)
        self.random_ties = ties == "random"
        self.weights: Weights | None = None  # this game's weights, drawn on its first decision
        options = ([f"jitter={self.jitter:g}"] if self.jitter else []) + (["ties=random"] if self.random_ties else [])
        if options:
            self.name = f"heuristic:{'&'.join(options)}"

    def reset(self, seat: int, num_players: int) -> None:
        super().reset(seat, num_players)
        self.weights = None

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        evaluation = evaluation_of(view.game)
        if not (self.jitter or self.random_ties):
            return evaluation.best_action(view.determinize(rng), view.seat, rng)
        if evaluation.__name__ != __name__:
            raise ValueError(f"heuristic:{self.name.partition(':')[2]} changes In the Hall of the Mountain "
                             f"King's evaluation only; this game's is {evaluation.__name__}: use plain 'heuristic'")
        if self.jitter and self.weights is None:
            self.weights = DEFAULT_WEIGHTS.jittered(self.jitter, np.random.default_rng(rng.integers(2**63)))
        with using(self.weights or DEFAULT_WEIGHTS):
            return best_action(view.determinize(rng), view.seat, rng, random_ties=self.random_ties)


def from_spec(arg: str) -> HeuristicAgent:
    """The ``heuristic`` spec: no argument, or options joined by ``&``: ``jitter=X`` (``0 <= X < 1``) for a
    player of a varied table, ``ties=random`` for ties broken at random."""
    if not arg:
        return HeuristicAgent()
    options: dict[str, str] = {}
    for part in arg.split("&"):
        name, eq, value = part.partition("=")
        if name not in ("jitter", "ties") or not eq or name in options:
            options = {}
            break
        options[name] = value
    try:
        if not options:
            raise ValueError
        return HeuristicAgent(float(options.get("jitter", 0.0)), options.get("ties", "first"))
    except ValueError:
        raise ValueError(f"agent spec 'heuristic:{arg}': the options are jitter=X, each evaluation weight drawn "
                         f"per game in [1 - X, 1 + X] times its default, 0 <= X < 1 (heuristic:jitter=0.3), and "
                         f"ties=random or ties=first, joined by '&' (heuristic:jitter=0.3&ties=random)") from None
