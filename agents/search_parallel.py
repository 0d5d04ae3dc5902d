"""Root parallelism for :mod:`agents.mcts`: several independent searches of the same view, each with its own
seed (so its own determinizations), their root visits and values summed; the most visited action wins.

``workers - 1`` searches run in child processes (a pool kept by the agent between decisions), one in the
calling process. A simulation budget is split among the searches (``mcts:400?workers=4``: 100 each, 400
in all); a time budget is each search's wall time. Where a process may not have children (a daemonic
tournament worker) the searches run one after another in the calling process with the same seeds, so a
simulation budget gives the same decision either way.
"""

from __future__ import annotations

import multiprocessing
import pickle
import warnings
import weakref
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import numpy as np

from .search_native import new_search
from .search_tree import Evaluator, SearchConfig

#: seconds a child search leaves for sending the view and its result back
TRANSFER_MARGIN = 0.03


def search_root(view: Any, seat: int, seed: int, config: SearchConfig, evaluator: Evaluator,
                simulations: int | None, seconds: float | None) -> tuple[list[int], np.ndarray, np.ndarray]:
    """One search (the work of one worker): the root's actions, visits and total values."""
    tree = new_search(view, seat, np.random.default_rng(seed), config)
    tree.run(evaluator, simulations=simulations, seconds=seconds)
    return list(tree.root.actions), tree.root.n.copy(), tree.root.w.copy()


def search_root_pickled(job: bytes, seed: int, simulations: int | None,
                         seconds: float | None) -> tuple[list[int], np.ndarray, np.ndarray]:
    """:func:`search_root` in a child process, of a (view, config, evaluator) pickled by the caller."""
    view, config, evaluator = pickle.loads(job)
    return search_root(view, view.seat, seed, config, evaluator, simulations, seconds)


def split_simulations(simulations: int, workers: int) -> list[int]:
    """``simulations`` shared among ``workers`` searches, each at least one."""
    base, extra = divmod(simulations, workers)
    return [max(1, base + (i < extra)) for i in range(workers)]


def merge_roots(results: list[tuple[list[int], np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Summed visits and values per root action over the searches: (actions ascending, visits, values)."""
    visits: dict[int, float] = {}
    values: dict[int, float] = {}
    for actions, n, w in results:
        for a, k, v in zip(actions, n, w):
            visits[a] = visits.get(a, 0.0) + float(k)
            values[a] = values.get(a, 0.0) + float(v)
    order = sorted(visits)
    return (np.array(order, dtype=np.int64), np.array([visits[a] for a in order]),
            np.array([values[a] for a in order]))


def most_visited(actions: np.ndarray, visits: np.ndarray, values: np.ndarray) -> int:
    """The most visited action; ties go to the higher mean value, then the lower action number."""
    mean = np.divide(values, visits, out=np.zeros_like(values), where=visits > 0)
    best = max(range(len(actions)), key=lambda i: (visits[i], mean[i], -actions[i]))
    return int(actions[best])


class RootPool:
    """The child processes of one agent's root-parallel searches (made on first use, shut down with the
    agent)."""

    def __init__(self, workers: int):
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"root parallelism: workers must be a whole number >= 1, got {workers!r}")
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._warned = False

    def search(self, view: Any, rng: np.random.Generator, config: SearchConfig, evaluator: Evaluator,
               simulations: int | None, seconds: float | None) -> int:
        """The decision of ``workers`` searches of ``view`` (seeds drawn from ``rng``)."""
        seeds = [int(s) for s in rng.integers(2 ** 63, size=self.workers)]
        shares = (split_simulations(simulations, self.workers) if simulations is not None
                  else [None] * self.workers)
        child_seconds = None if seconds is None else max(0.01, seconds - TRANSFER_MARGIN)
        executor = self._pool()
        futures: list[Future] = []
        if executor is not None:
            # pickled here, once, before this process's own search changes the caches the view shares
            # (the executor would pickle in a feeder thread, racing that search)
            job = pickle.dumps((view, config, evaluator), protocol=pickle.HIGHEST_PROTOCOL)
            futures = [executor.submit(search_root_pickled, job, seeds[i], shares[i], child_seconds)
                       for i in range(1, self.workers)]
        results = [search_root(view, view.seat, seeds[0], config, evaluator, shares[0], child_seconds)]
        if executor is not None:
            results += [f.result() for f in futures]
        else:
            results += [search_root(view, view.seat, seeds[i], config, evaluator, shares[i], child_seconds)
                        for i in range(1, self.workers)]
        return most_visited(*merge_roots(results))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def _pool(self) -> ProcessPoolExecutor | None:
        if self.workers == 1:
            return None
        if self._executor is None:
            if multiprocessing.current_process().daemon:
                if not self._warned:
                    warnings.warn(f"mcts root parallelism: this process is a daemon (a tournament worker) and may "
                                  f"not start children; the {self.workers} searches run one after another",
                                  RuntimeWarning, stacklevel=3)
                    self._warned = True
                return None
            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            self._executor = ProcessPoolExecutor(self.workers - 1, mp_context=ctx)
            weakref.finalize(self, self._executor.shutdown, wait=False, cancel_futures=True)
        return self._executor

    def __getstate__(self) -> dict:
        return {"workers": self.workers, "_executor": None, "_warned": False}
