"""``az:PATH`` (a policy-value network guiding information-set MCTS) and ``aznet:PATH`` (the network
alone, greedy): the agents of ``mk-env train --algo az`` (docs/training.md, "AlphaZero-style").

``PATH`` is a policy-value model file (:mod:`agents.az_net`: ``.safetensors`` with a JSON description,
no code on load; a file for another game or layout is refused). Budget of ``az``: ``az:PATH`` =
:data:`DEFAULT_SIMULATIONS` simulations per decision, ``az:PATH?200`` = 200 simulations,
``az:PATH?0.1s`` = 0.1 seconds per decision. The search is the suite's information-set MCTS
(:class:`agents.search_tree.Search`, configured by :func:`search_config`: every legal action a candidate
with the network's prior, no horizon short of ``max_depth``): it determinizes the seat's view at every
simulation and scores leaves with the network's value, so it never sees the true hidden state; up to
:data:`LEAF_BATCH` leaves (virtual loss) share one network call. ``aznet:PATH`` plays the legal action of
highest prior from the seat's public view (one network call per decision); ``aznet:PATH?t=T`` draws it
from the priors at temperature ``T``. Both leave torch's thread count
to the process. ``default`` for ``PATH`` (``aznet:default``, ``az:default?0.1s``) is the 2-player network
shipped in ``agents/checkpoints/aznet_default.safetensors`` (docs/training.md, "The shipped network").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mk_env.core.view import PlayerView

from .az_net import check_net_game, load_net, observer_of, seat_values
from .base import BaseAgent, search_budget
from .search_native import new_search
from .search_tree import Leaf, SearchConfig

DEFAULT_SIMULATIONS = 64
#: leaves evaluated per network call in one search (virtual loss spreads them)
LEAF_BATCH = 8
#: changes of the player to move the tree may span: the network values any position, so no horizon
#: short of the search's ``max_depth``
AZ_HORIZON = 10_000
#: the network that ``aznet:default`` and ``az:default`` name
DEFAULT_NET = Path(__file__).parent / "checkpoints" / "aznet_default.safetensors"


def search_config(c_puct: float = 1.5, noise: tuple[float, float] | None = None) -> SearchConfig:
    """The search of the az agents and of az self-play: every legal action, network priors, no horizon;
    ``noise``: Dirichlet (alpha, fraction) at the root (self-play exploration)."""
    alpha, frac = noise or (0.0, 0.25)
    return SearchConfig(c_puct=c_puct, horizon=AZ_HORIZON, actions="legal", dirichlet_alpha=alpha,
                        dirichlet_frac=frac)


class NetEvaluator:
    """A batch of search leaves -> (priors over each leaf's actions, values by seat): one forward."""

    def __init__(self, net: Any, game: Any):
        self.net, self.game = net, game
        self.observer = observer_of(game)

    def __call__(self, leaves: list[Leaf]) -> tuple[list[np.ndarray], list[np.ndarray]]:
        obs = np.stack([self.observer.encode_flat(leaf.state, leaf.player).copy() for leaf in leaves])
        priors, values = self.net.evaluate(obs, [leaf.actions for leaf in leaves])
        return priors, [seat_values(v, leaf.player) for v, leaf in zip(values, leaves)]


class _NetAgent(BaseAgent):
    """Loads the network once; checks each new game against the file."""

    kind = "aznet"

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.net, self.config, _ = load_net(path)
        self._game: Any = None
        self._evaluator: NetEvaluator | None = None

    def evaluator(self, game: Any) -> NetEvaluator:
        """The evaluator for ``game`` (checked, and rebuilt when the game changes)."""
        if game is not self._game:
            check_net_game(self.config, game, f"{self.kind}:{self.path}")
            self._game, self._evaluator = game, NetEvaluator(self.net, game)
        return self._evaluator


class AZNetAgent(_NetAgent):
    """The network alone, from the seat's public view: the legal action of highest prior (greedy,
    ``temperature`` 0), or an action drawn from the priors sharpened to ``temperature`` (1: the priors as
    they are, the way az-ppo's learner plays its training games), with the game's generator."""

    name = "aznet"

    def __init__(self, path: str | Path, temperature: float = 0.0):
        super().__init__(path)
        self.temperature = temperature

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        ev = self.evaluator(view.game)
        obs = ev.observer.encode_flat(view.public_state(), view.seat)[None].copy()
        priors, _ = self.net.evaluate(obs, [legal])
        return int(legal[sample_index(np.asarray(priors[0], dtype=np.float64), self.temperature, rng)])


def sample_index(priors: np.ndarray, temperature: float, rng: np.random.Generator | None) -> int:
    """The index of the highest prior (``temperature`` 0), else one drawn with weights ``priors ** (1/T)``
    (``temperature`` 1: the priors as they are, the draw of az-ppo's training games)."""
    if temperature == 0:
        return int(np.argmax(priors))
    if temperature == 1:
        return int(rng.choice(len(priors), p=priors / priors.sum()))
    logits = np.log(np.maximum(priors, 1e-30)) / temperature
    weights = np.exp(logits - logits.max())
    return int(rng.choice(len(weights), p=weights / weights.sum()))


class AZAgent(_NetAgent):
    """Network-guided ISMCTS; plays the most visited root action (ties: the search's best_action)."""

    name = "az"
    kind = "az"

    def __init__(self, path: str | Path, simulations: int | None = DEFAULT_SIMULATIONS,
                 seconds: float | None = None):
        super().__init__(path)
        self.simulations, self.seconds = simulations, seconds

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        tree = new_search(view, view.seat, rng, search_config())
        if self.seconds:
            tree.run(self.evaluator(view.game), seconds=self.seconds, batch=LEAF_BATCH)
        else:
            tree.run(self.evaluator(view.game), simulations=self.simulations, batch=LEAF_BATCH)
        return int(tree.best_action())


def model_path(kind: str, text: str) -> Path:
    """The model file that ``text`` names in agent spec ``kind`` (``default``: the shipped network)."""
    if not text:
        raise ValueError(f"agent spec {kind!r} needs a policy-value model file, e.g. "
                         f"'{kind}:runs/az/best.safetensors' or '{kind}:default'")
    path = DEFAULT_NET if text == "default" else Path(text)
    if not path.is_file():
        raise ValueError(f"agent spec '{kind}:{text}': no model file at {text!r}")
    return path


def from_spec(arg: str) -> AZAgent:
    """``az:PATH`` (default budget), ``az:PATH?N`` simulations or ``az:PATH?Xs`` seconds per decision."""
    text, sep, budget = arg.partition("?")
    path = model_path("az", text)
    if not sep:
        return AZAgent(path)
    try:
        simulations, seconds = search_budget(budget)
    except ValueError:
        raise ValueError(f"agent spec 'az:{arg}': the budget after '?' must be a positive number of "
                         f"simulations (az:PATH?200) or seconds (az:PATH?0.1s), got {budget!r}") from None
    return AZAgent(path, simulations=simulations, seconds=seconds)


def net_from_spec(arg: str) -> AZNetAgent:
    """``aznet:PATH``: the network of a policy-value file, greedy; ``aznet:PATH?t=T``: drawn at
    temperature ``T`` (``t=1``: from the priors as they are; ``t=0``: greedy)."""
    text, sep, option = arg.partition("?")
    path = model_path("aznet", text)
    if not sep:
        return AZNetAgent(path)
    name, _, value = option.partition("=")
    try:
        temperature = float(value)
        if name != "t" or not 0 <= temperature < float("inf"):
            raise ValueError
    except ValueError:
        raise ValueError(f"agent spec 'aznet:{arg}': the option after '?' must be t=T, a temperature >= 0 "
                         f"(aznet:PATH?t=1 draws from the network's priors; t=0 is greedy), "
                         f"got {option!r}") from None
    return AZNetAgent(path, temperature)
