"""The training run's SB3 callback: snapshots for the opponent pool, checkpoints and gauntlet
evaluations between rollouts, and stopping the rollout when a signal asks to."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from agents.policy_file import SUFFIX, save_model

from .run_files import EVAL_FIELDS, append_eval, read_eval, save_checkpoint
from .selfplay import SNAPSHOT_GLOB, snapshot_step
from .stopping import StopRequest


def due_after(step: int, every: int) -> float:
    """The first multiple of ``every`` after ``step`` (never, for ``every`` 0)."""
    return (step // every + 1) * every if every > 0 else float("inf")


def selfplay_callback_class() -> type:
    """The SB3 callback class of a training run (made on first use: SB3 is imported only to train)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Between rollouts: snapshots for the pool, checkpoints, gauntlet evaluations. After each
        step: stops the rollout when a signal asked to (:class:`~training.stopping.StopRequest`)."""

        JOBS = ("snapshot", "checkpoint", "eval")

        def __init__(self, out: Path, settings: dict[str, Any], seconds_before: float,
                     stop: StopRequest):
            super().__init__()
            self.out, self.settings, self.stop = out, settings, stop
            self.every = {kind: settings[f"{kind}_every"] for kind in self.JOBS}
            self.seconds_before = seconds_before
            self.next: dict[str, float] = {}
            self.trained_steps = 0  # steps whose experience the weights have been trained on
            self.stopped_at: int | None = None  # the step at which a stop request ended a rollout
            self.t0 = time.perf_counter()

        def seconds(self) -> float:
            return self.seconds_before + time.perf_counter() - self.t0

        def _on_training_start(self) -> None:
            self.t0 = time.perf_counter()
            n = self.trained_steps = self.model.num_timesteps
            self.next = {kind: due_after(n, every) for kind, every in self.every.items()}
            rows = read_eval(self.out)
            last = max((int(r["timesteps"]) for r in rows), default=-1)
            every = self.every["eval"]
            if every > 0 and (last < 0 or n // every * every > last):  # step 0, or one skipped
                self.evaluate()
            if self.every["snapshot"] > 0 and not list((self.out / "snapshots").glob(SNAPSHOT_GLOB)):
                self.snapshot()

        def _on_rollout_start(self) -> None:
            self.trained_steps = self.model.num_timesteps
            if self.stop.signum is None:
                self.between_rollouts()

        def _on_step(self) -> bool:
            if self.stop.signum is None:
                return True
            self.stopped_at = self.model.num_timesteps
            return False

        def between_rollouts(self, jobs: tuple[str, ...] = JOBS) -> None:
            """Run the jobs that are due at the current step."""
            n = self.model.num_timesteps
            actions = {"snapshot": self.snapshot, "checkpoint": self.checkpoint, "eval": self.evaluate}
            for kind in jobs:
                if n >= self.next[kind]:
                    actions[kind]()
                    self.next[kind] = due_after(n, self.every[kind])

        def snapshot(self) -> None:
            folder = self.out / "snapshots"
            s = self.settings
            save_model(self.model, folder / f"snapshot_{self.model.num_timesteps}{SUFFIX}", s["players"],
                       s["game_options"], game=s["game"])
            snaps = sorted(folder.glob(SNAPSHOT_GLOB), key=snapshot_step)
            for old in snaps[:-s["keep_snapshots"]]:
                old.unlink()

        def checkpoint(self) -> None:
            path = save_checkpoint(self.model, self.out, self.seconds(), self.settings)
            print(f"[checkpoint] {self.model.num_timesteps} steps: {path}", flush=True)

        def evaluate(self) -> None:
            from .evaluate import gauntlet
            s, n = self.settings, self.model.num_timesteps
            results = gauntlet(self.model, s["gauntlet"], s["eval_games"], s["players"], seed=10_000,
                               game_options=s["game_options"], game=s["game"])
            rows = []
            for spec, r in results.items():
                self.logger.record(f"eval/win_rate_{spec}", r["win_rate"])
                self.logger.record(f"eval/honour_vs_{spec}", r["mean_honour"])
                rows.append({"timesteps": n, "seconds": round(self.seconds(), 1),
                             **{k: r[k] for k in EVAL_FIELDS[2:]}})
            append_eval(self.out, rows)
            text = ", ".join(f"{r['opponent']} {r['win_rate']:.0%}" for r in rows)
            print(f"[eval] {n} steps, {self.seconds():.0f} s: {text}", flush=True)

    return SelfPlayCallback
