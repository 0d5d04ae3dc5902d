"""The games of ``mk-env train --algo az-ppo``: the learner against fixed opponents, in this process or on
worker processes (``--pg-workers``).

A game is a :class:`GameJob`: its deal, the learner's seat, the opponent, and the seed of the learner's
own generator (None: greedy). Each game samples from a generator of its own, so its decisions do not
depend on which process plays it or in what order: a run plays the same games with 1 worker or 16, and
``--pg-workers`` may change on ``--resume``. Worker processes build the opponents once and load the
network from a model file the parent writes before each batch of games (``DIR/.weights.safetensors``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.az_net import load_net, observer_of, save_net
from agents.registry import make_agent
from mk_env.games import make_game
from mk_env.mountain_king.rules.view import PlayerView
from training.play import agent_rng
from training.workers import WorkerDeath, WorkerDied, WorkerPool

START_METHOD = "spawn"  # a fresh interpreter: no forked torch state
WEIGHTS = ".weights.safetensors"


@dataclass
class Decision:
    """One learner decision with a choice: its sparse observation, legal actions, choice and estimates."""

    index: np.ndarray
    values: np.ndarray
    legal: np.ndarray
    chosen: int
    log_prob: float
    value: float
    ret: float = 0.0
    seat_returns: np.ndarray | None = None


@dataclass(frozen=True)
class GameJob:
    """One game: dealt from ``seed``, the learner in ``seat``, ``opponent`` (an index into the run's
    opponents) in the others; the learner samples from ``np.random.default_rng(sample_seed)``, or plays
    greedily when it is None."""

    seed: int
    seat: int
    opponent: int
    sample_seed: tuple[int, ...] | None


@dataclass
class GameResult:
    """A played game: the learner's recorded decisions (sampled games only), returns and honour per seat."""

    decisions: list[Decision]
    returns: np.ndarray
    scores: np.ndarray


def mixed_returns(returns: np.ndarray, scores: np.ndarray, weight: float, scale: float) -> np.ndarray:
    """Each seat's return: the game's ``returns`` mixed with ``tanh(margin / scale)`` by ``weight`` (the
    margin: the seat's honour over the best other seat's)."""
    ret, scores = np.asarray(returns, np.float32), np.asarray(scores, np.float32)
    margin = np.array([scores[s] - np.delete(scores, s).max() for s in range(len(ret))], np.float32)
    return ((1 - weight) * ret + weight * np.tanh(margin / scale)).astype(np.float32)


def final_scores(st: Any, players: int) -> np.ndarray:
    """Each seat's final honour."""
    return np.array([st.score_breakdown(s)["total"] for s in range(players)], np.float32)


def play(net: Any, game: Any, opponent: Any, seed: int, seat: int, rng: np.random.Generator | None
         ) -> tuple[list[Decision], Any]:
    """One game of the network in ``seat`` against ``opponent`` in the others: sampled from the priors
    when ``rng`` is given (its decisions recorded), greedy otherwise. (decisions, final state)"""
    observer = observer_of(game)
    st = game.new_initial_state(int(seed))
    views = [PlayerView(st, s) for s in range(game.num_players)]
    rngs = [agent_rng(seed, s) for s in range(game.num_players)]
    decisions: list[Decision] = []
    while not st.is_terminal():
        p, legal = st.current_player(), st.legal_actions()
        if len(legal) == 1:
            action = int(legal[0])
        elif p != seat:
            action = int(opponent.act(views[p], rngs[p]))
        else:
            obs = observer.encode_flat(views[p].public_state(), p).copy()
            priors, values = net.evaluate(obs[None], [legal])
            prior = priors[0].astype(np.float64)
            prior /= prior.sum()
            i = int(rng.choice(len(legal), p=prior)) if rng is not None else int(np.argmax(prior))
            action = int(legal[i])
            if rng is not None:
                nz = np.flatnonzero(obs)
                decisions.append(Decision(nz.astype(np.int32), obs[nz].astype(np.float32), legal, i,
                                          float(np.log(prior[i] + 1e-12)), float(values[0][0])))
        st.apply(action)
    return decisions, st


def play_job(net: Any, game: Any, opponents: list[Any], job: GameJob) -> GameResult:
    """Play ``job``."""
    rng = None if job.sample_seed is None else np.random.default_rng(list(job.sample_seed))
    decisions, st = play(net, game, opponents[job.opponent], job.seed, job.seat, rng)
    return GameResult(decisions, np.asarray(st.returns(), np.float32), final_scores(st, game.num_players))


class GamePlayer:
    """Plays lists of :class:`GameJob` with the run's network: in this process (``workers`` 1) or on
    worker processes, which load the network from ``out/.weights.safetensors``."""

    def __init__(self, net: Any, game: Any, game_options: dict[str, Any], opponents: list[Any], specs: list[str],
                 out: Path, workers: int):
        self.net, self.game, self.game_options = net, game, game_options
        self.opponents, self.specs, self.workers = opponents, specs, workers
        self.weights = Path(out) / WEIGHTS
        self.version = 0
        self._pool: WorkerPool | None = None

    def play(self, jobs: list[GameJob], interrupted: Callable[[], bool] = lambda: False
             ) -> list[GameResult] | None:
        """The results of ``jobs``, in their order; None once ``interrupted()`` (asked between games)."""
        self.net.eval()
        if self.workers == 1 or len(jobs) == 1:
            results = []
            for job in jobs:
                if interrupted():
                    return None
                results.append(play_job(self.net, self.game, self.opponents, job))
            return results
        self.version += 1
        save_net(self.net, self.weights, self.game, self.game_options)
        if self._pool is None:
            self._pool = WorkerPool(_worker_play, self.workers, START_METHOD)
        for k, job in enumerate(jobs):
            self._pool.submit(k, (str(self.weights), self.specs, self.version, job))
        results: dict[int, GameResult] = {}
        for k, result in self._pool.results():
            if interrupted():
                self.close()
                return None
            if isinstance(result, WorkerDeath):
                self.close()
                raise WorkerDied(result.describe(f"playing the az-ppo game dealt from {jobs[k].seed}") +
                                 "; the iteration in progress is dropped: continue with --resume")
            results[k] = result
        return [results[k] for k in range(len(jobs))]

    def close(self) -> None:
        """Stop the worker processes and remove the weights file."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self.weights.unlink(missing_ok=True)


_WORKER: dict[str, Any] = {}


def _worker_play(task: tuple) -> GameResult:
    """A worker's job: (model file, opponents' specs, its version, job); the network is loaded again when
    the version changes, the game and the opponents built once."""
    weights, specs, version, job = task
    if _WORKER.get("specs") != specs:
        torch.set_num_threads(1)
        _WORKER.update(specs=specs, opponents=[make_agent(spec) for spec in specs], version=None)
    if _WORKER["version"] != version:
        net, config, _ = load_net(weights)
        if "game" not in _WORKER:  # the run's game does not change between versions
            _WORKER["game"] = make_game(config["game"], config["players"], **(config["game_options"] or {}))
        _WORKER.update(net=net, version=version)
    return play_job(_WORKER["net"], _WORKER["game"], _WORKER["opponents"], job)
