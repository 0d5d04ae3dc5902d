"""What an agent thinks of a position: per legal move, the figures behind its choice (the table's analysis view).

* ``heuristic``: each candidate's look-ahead value for the seat (its game's evaluation, on a determinized copy);
* ``mcts:N`` / ``mcts:Xs``: the search's visits, mean values and priors at the root;
* ``aznet:PATH``: the network's priors over the legal moves and its value of the position for each seat;
* ``az:PATH``: the network-guided search's visits, values and priors, and the network's own value.

``analyse(spec, view, seed)`` returns ``{"agent", "kind", "choice", "moves": [{"action", "move", ...}],
"value"?}``, the moves best first. Another agent kind is answered with its choice alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mk_env.core.view import PlayerView

from .evaluation import evaluation_of
from .registry import make_agent


def analyse(spec: str, view: PlayerView, seed: int = 0) -> dict[str, Any]:
    """The figures of agent ``spec`` at ``view``'s decision (``seed``: its generator, so a rerun agrees)."""
    agent = make_agent(spec)
    rng = np.random.default_rng(seed)
    legal = [int(a) for a in view.legal_actions()]
    kind = spec.partition(":")[0]
    if len(legal) == 1:
        out: dict[str, Any] = {"kind": "forced", "choice": legal[0], "moves": [_row(view, legal[0])]}
    elif kind == "heuristic":
        out = _heuristic(view, rng, legal)
    elif kind in ("mcts", "az"):
        out = _search(agent, view, rng)
    elif kind == "aznet":
        out = _network(agent, view, legal)
    else:
        out = {"kind": "choice", "choice": int(agent.act(view, rng)), "moves": []}
    return {"agent": spec, **out}


def _row(view: PlayerView, action: int, **figures: float) -> dict[str, Any]:
    return {"action": action, "move": view.describe_action(action), **{k: float(v) for k, v in figures.items()}}


def _heuristic(view: PlayerView, rng: np.random.Generator, legal: list[int]) -> dict[str, Any]:
    evaluation = evaluation_of(view.game)
    st = view.determinize(rng)
    candidates = [int(a) for a in evaluation.candidates(st, view.seat)]
    values = evaluation.lookahead_values(st, view.seat, candidates)
    rows = sorted((_row(view, a, value=v) for a, v in zip(candidates, values)), key=lambda r: -r["value"])
    return {"kind": "lookahead", "choice": rows[0]["action"], "moves": rows,
            "note": f"{len(candidates)} of {len(legal)} legal moves valued (the heuristic's candidates)"}


def _search(agent: Any, view: PlayerView, rng: np.random.Generator) -> dict[str, Any]:
    from .search_native import new_search

    if hasattr(agent, "config_for"):  # mcts: the heuristic's evaluator
        tree = new_search(view, view.seat, rng, agent.config_for(view))
        evaluator, budget = agent.evaluator, (agent.simulations, agent.seconds)
    else:  # az: the network's
        from .az import search_config

        tree = new_search(view, view.seat, rng, search_config())
        evaluator, budget = agent.evaluator(view.game), (agent.simulations, agent.seconds)
    simulations, seconds = budget
    tree.run(evaluator, simulations=simulations, seconds=seconds)
    actions, visits = tree.root_visits()
    values, priors = tree.root_values(), tree.root.priors
    rows = [_row(view, int(a), visits=n, value=q, prior=p) for a, n, q, p in zip(actions, visits, values, priors)]
    rows.sort(key=lambda r: (-r["visits"], -r["value"]))
    return {"kind": "search", "choice": int(tree.best_action()), "moves": rows,
            "note": f"{int(visits.sum())} visits at the root"}


def _network(agent: Any, view: PlayerView, legal: list[int]) -> dict[str, Any]:
    ev = agent.evaluator(view.game)
    obs = ev.observer.encode_flat(view.public_state(), view.seat)[None].copy()
    priors, values = agent.net.evaluate(obs, [legal])
    rows = sorted((_row(view, a, prior=p) for a, p in zip(legal, priors[0])), key=lambda r: -r["prior"])
    return {"kind": "network", "choice": rows[0]["action"], "moves": rows,
            "value": [float(v) for v in np.asarray(values[0]).ravel()]}
