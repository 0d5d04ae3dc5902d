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

from agents.az import sample_index
from agents.az_net import load_net, observer_of, save_net
from agents.registry import make_agent
from mk_env.games import make_game
from mk_env.core.view import PlayerView
from training.play import agent_rng
from training.workers import WorkerDeath, WorkerDied, WorkerPool

#: the opponent spec of self-play: the learning network in every seat, every seat's decisions trained on
SELF = "self"
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
    seat: int = 0  # the seat that decided


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
    """One game of the network in ``seat`` against ``opponent`` in the others (None: the network in every
    seat): sampled from the priors when ``rng`` is given (its decisions recorded), greedy otherwise.
    (decisions, final state)"""
    table = _Table(game, GameJob(seed, seat, 0, None), [opponent], rng)
    _play_tables(net, [table], observer_of(game))
    return table.decisions, table.st


def play_jobs(net: Any, game: Any, opponents: list[Any], jobs: list[GameJob]) -> list[GameResult]:
    """Play ``jobs`` in lockstep: at every step the network decides for every game where one of its seats
    has a choice, in one batched call. A job's opponent None is :data:`SELF`: the network in every seat,
    every seat's decisions recorded. Each game samples from a generator of its own, so its decisions do not
    depend on which other games share its batches."""
    tables = [_Table(game, job, opponents, None if job.sample_seed is None
                     else np.random.default_rng(list(job.sample_seed))) for job in jobs]
    _play_tables(net, tables, observer_of(game))
    return [GameResult(t.decisions, np.asarray(t.st.returns(), np.float32), final_scores(t.st, game.num_players))
            for t in tables]


class _Table:
    """One game in progress: its state, the seats' views, the opponents' generators, the network's seats
    and sampler, and the network's recorded decisions."""

    def __init__(self, game: Any, job: GameJob, opponents: list[Any], sampler: np.random.Generator | None):
        self.st = game.new_initial_state(int(job.seed))
        n = game.num_players
        self.views = [PlayerView(self.st, s) for s in range(n)]
        self.rngs = [agent_rng(job.seed, s) for s in range(n)]
        self.opponent = opponents[job.opponent]
        self.network_seats = range(n) if self.opponent is None else (job.seat,)
        self.sampler = sampler
        self.decisions: list[Decision] = []

    def advance(self) -> np.ndarray | None:
        """Play forced and opponent decisions; the legal actions of the network's next choice, or None at
        the end of the game."""
        st = self.st
        while not st.is_terminal():
            p, legal = st.current_player(), st.legal_actions()
            if len(legal) == 1:
                st.apply(int(legal[0]))
            elif p not in self.network_seats:
                st.apply(int(self.opponent.act(self.views[p], self.rngs[p])))
            else:
                return np.asarray(legal)
        return None


def _play_tables(net: Any, tables: list[_Table], observer: Any) -> None:
    """Play ``tables`` to the end in lockstep, one batched network call per step."""
    live = tables
    while live:
        waiting, legal_lists, observations = [], [], []
        for t in live:
            legal = t.advance()
            if legal is not None:
                p = t.st.current_player()
                waiting.append(t)
                legal_lists.append(legal)
                observations.append(observer.encode_flat(t.views[p].public_state(), p).copy())
        if not waiting:
            return
        priors, values = net.evaluate(np.stack(observations), legal_lists)
        for t, legal, obs, prior, value in zip(waiting, legal_lists, observations, priors, values):
            prior = prior.astype(np.float64)
            i = sample_index(prior, 0.0 if t.sampler is None else 1.0, t.sampler)
            prior /= prior.sum()
            if t.sampler is not None:
                nz = np.flatnonzero(obs)
                t.decisions.append(Decision(nz.astype(np.int32), obs[nz].astype(np.float32), legal, i,
                                            float(np.log(prior[i] + 1e-12)), float(value[0]),
                                            seat=t.st.current_player()))
            t.st.apply(int(legal[i]))
        live = waiting


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
        """The results of ``jobs``, in their order, played in lockstep (:func:`play_jobs`): in this process,
        or split into one block of games per worker; None once ``interrupted()`` (asked between blocks)."""
        self.net.eval()
        if interrupted():
            return None
        if self.workers == 1 or len(jobs) == 1:
            return play_jobs(self.net, self.game, self.opponents, jobs)
        self.version += 1
        save_net(self.net, self.weights, self.game, self.game_options)
        if self._pool is None:
            self._pool = WorkerPool(_worker_play, self.workers, START_METHOD)
        blocks = [list(b) for b in np.array_split(np.arange(len(jobs)), min(self.workers, len(jobs)))]
        for k, block in enumerate(blocks):
            self._pool.submit(k, (str(self.weights), self.specs, self.version, [jobs[j] for j in block]))
        results: dict[int, list[GameResult]] = {}
        for k, result in self._pool.results():
            if interrupted():
                self.close()
                return None
            if isinstance(result, WorkerDeath):
                self.close()
                raise WorkerDied(result.describe(f"playing the az-ppo games dealt from {jobs[blocks[k][0]].seed}")
                                 + "; the iteration in progress is dropped: continue with --resume")
            results[k] = result
        return [r for k in range(len(blocks)) for r in results[k]]

    def close(self) -> None:
        """Stop the worker processes and remove the weights file."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self.weights.unlink(missing_ok=True)


_WORKER: dict[str, Any] = {}


def _worker_play(task: tuple) -> list[GameResult]:
    """A worker's block: (model file, opponents' specs, its version, jobs), played in lockstep; the network
    is loaded again when the version changes, the game and the opponents built once."""
    weights, specs, version, jobs = task
    if _WORKER.get("specs") != specs:
        torch.set_num_threads(1)
        _WORKER.update(specs=specs, opponents=make_opponents(specs), version=None)
    if _WORKER["version"] != version:
        net, config, _ = load_net(weights)
        if "game" not in _WORKER:  # the run's game does not change between versions
            _WORKER["game"] = make_game(config["game"], config["players"], **(config["game_options"] or {}))
        _WORKER.update(net=net, version=version)
    return play_jobs(_WORKER["net"], _WORKER["game"], _WORKER["opponents"], jobs)


def make_opponents(specs: list[str]) -> list[Any]:
    """The agents of ``specs``; :data:`SELF` is None (the network in every seat)."""
    return [None if spec == SELF else make_agent(spec) for spec in specs]
