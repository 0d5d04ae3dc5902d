"""More cores for ``--algo ppo``: collector processes (``--workers N``: the main process and N - 1 workers).

Each collector owns a share of the ``--envs`` games (:class:`~training.fast_ppo_env.VecGames`), a copy
of the policy and its own generators; before every rollout the main process sends the learner's
weights (numpy arrays, no pickled torch object), every collector (the main process too) collects its
share of the rollout at once, and the workers send theirs back (finished decisions with their
advantages, computed in the worker game by game, and the records of their finished games). The
update runs in the main process. So the games, the opponents (the heuristic's decisions above all)
and the learner's forward passes run on N cores; the update on one.

A worker ignores SIGINT (Ctrl-C reaches the whole process group; the main process stops the run and
ends the workers); one that dies makes :meth:`Collectors.gather` raise :class:`WorkerLost` naming it.
"""

from __future__ import annotations

import signal
from typing import Any

import numpy as np

from .fast_ppo import Rollout


class WorkerLost(RuntimeError):
    """A collector worker died (killed, crashed); the message names it and how."""


def shares(envs: int, workers: int) -> list[int]:
    """The games of each collector, the main process first: as even as can be, none empty."""
    if not 1 <= workers <= envs:
        raise ValueError(f"--workers {workers}: need 1 to --envs ({envs}) collectors")
    return [envs // workers + (1 if k < envs % workers else 0) for k in range(workers)]


def merge(parts: list[Rollout]) -> Rollout:
    """One rollout of finished parts (each with its advantages), game numbers made distinct."""
    first = parts[0]
    total = sum(p.count for p in parts)
    out = Rollout(total, first.obs.shape[1], first.n_actions, first.legal.shape[1])
    offset = 0
    for part in parts:
        lo, hi = out.count, out.count + part.count
        for name in Rollout.FIELDS + ("rewards", "dones", "next_values"):
            getattr(out, name)[lo:hi] = getattr(part, name)[:part.count]
        out.games[lo:hi] = part.games[:part.count] + offset
        out.count, offset = hi, offset + int(part.games[:part.count].max(initial=-1)) + 1
    out.advantages = np.concatenate([p.advantages for p in parts])
    out.returns = np.concatenate([p.returns for p in parts])
    return out


def trimmed(rollout: Rollout) -> Rollout:
    """``rollout`` cut to its finished decisions (what crosses the pipe)."""
    n = rollout.count
    for name in Rollout.FIELDS + ("rewards", "dones", "next_values", "games"):
        setattr(rollout, name, getattr(rollout, name)[:n])
    return rollout


def _worker(conn: Any, settings: dict[str, Any], snapshot_dir: str, envs: int, seed: int) -> None:
    """A worker's loop: weights in, a finished rollout and the finished games' records out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import torch

    from agents.factorised_file import build_policy

    from .fast_ppo import PPO_DEFAULTS, FastPPO
    from .fast_ppo_env import VecGames
    from .selfplay import OpponentPool
    torch.set_num_threads(1)
    s = settings
    policy = build_policy(s["game"], s["players"], s["game_options"], **s["features"])
    learner = FastPPO(policy, {k: s[k] for k in PPO_DEFAULTS}, seed=seed)
    games = VecGames(envs, s["players"], OpponentPool(s["opponents"], snapshot_dir), s["reward"], s["game"],
                     s["game_options"], seed=seed, generator=torch.Generator().manual_seed(seed + 1))
    while True:
        command, weights = conn.recv()
        if command == "close":
            return
        policy.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()})
        rollout = trimmed(learner.collect(games))
        conn.send((rollout, games.finished))
        games.finished = []


def collect_all(learner: Any, games: Any, collectors: "Collectors | None", stop: Any = None) -> Rollout | None:
    """One rollout from every collector: the workers' started with the learner's weights, the main
    process's collected meanwhile, then merged; ``None`` when ``stop`` was signalled (the workers'
    rollouts in progress are then not waited for)."""
    if collectors is not None:
        collectors.send(learner.policy)
    rollout = learner.collect(games, stop)
    if rollout is None or collectors is None:
        return rollout
    parts, records = collectors.gather()
    games.finished.extend(records)
    return merge([rollout] + parts)


class Collectors:
    """The worker processes of a run (none for ``--workers 1``)."""

    def __init__(self, settings: dict[str, Any], snapshot_dir: str, seed: int):
        import multiprocessing
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no forked torch state
        self.connections, self.processes = [], []
        for k, envs in enumerate(shares(settings["envs"], settings["workers"])[1:], start=1):
            parent, child = context.Pipe()
            process = context.Process(target=_worker, args=(child, settings, snapshot_dir, envs, seed + 7919 * k),
                                      daemon=True, name=f"fast-ppo-collector-{k}")
            process.start()
            child.close()
            self.connections.append(parent)
            self.processes.append(process)

    def send(self, policy: Any) -> None:
        """Start a rollout in every worker with the policy's weights."""
        weights = {k: v.detach().cpu().numpy() for k, v in policy.state_dict().items()}
        for k, conn in enumerate(self.connections):
            try:
                conn.send(("collect", weights))
            except (BrokenPipeError, EOFError, ConnectionResetError, OSError):
                raise WorkerLost(self._describe(k)) from None

    def gather(self) -> tuple[list[Rollout], list[dict[str, Any]]]:
        """The workers' rollouts and finished games' records (waits for them)."""
        rollouts, finished = [], []
        for k, conn in enumerate(self.connections):
            try:
                rollout, records = conn.recv()
            except (EOFError, ConnectionResetError, OSError):
                raise WorkerLost(self._describe(k)) from None
            rollouts.append(rollout)
            finished.extend(records)
        return rollouts, finished

    def _describe(self, k: int) -> str:
        process = self.processes[k]
        process.join(timeout=2)
        code = process.exitcode
        how = (f"killed by {signal.Signals(-code).name}" if code is not None and code < 0
               else f"exited with code {code}")
        return f"collector worker {k + 1} (pid {process.pid}) {how}"

    def close(self) -> None:
        """End the workers (a worker busy with a rollout is terminated: its rollout is not needed)."""
        for conn in self.connections:
            try:
                conn.send(("close", None))
            except (BrokenPipeError, EOFError, ConnectionResetError, OSError):
                pass
        for process in self.processes:
            process.join(timeout=2)
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)
