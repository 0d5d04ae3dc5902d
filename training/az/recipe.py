"""The shipped network's recipe as one command (issue 15): ``python -m training.az.recipe --out DIR``.

Three stages (docs/training.md, "The shipped network"), each stage's last network halved into
``DIR/STAGE.safetensors``, the next stage starting from that file:

1. ``stage1``: ``mk-env train --algo az-ppo`` from a clone of the heuristic (seed 3, 900,000 learner
   decisions);
2. ``stage2``: the same from stage 1's network at a smaller step size with twice the games per update
   (seed 12, 2,000,000 learner decisions);
3. ``stage3``: the rollout's values in the value head (:mod:`training.az.rollout_values`).

``DIR/stage3.safetensors`` is the result (``aznet:FILE`` alone, ``az:FILE`` with search; copied to
``agents/checkpoints/aznet_default.safetensors`` it becomes ``default``). The same command on the same
``DIR`` continues: a stage whose file is there is skipped, a PPO stage with checkpoints is resumed (the
iteration in progress is lost), stage 3 reuses its saved positions. ``DIR/recipe.json`` keeps each
stage's seconds, summed over the invocations.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from agents.policy_file import halve_model_file

from . import ppo_files


@dataclass(frozen=True)
class Stage:
    """One stage: its name (its folder and file in ``DIR``), the command it runs (``az-ppo`` or
    ``rollout-values``) and that command's options beyond where it reads, writes and runs."""

    name: str
    kind: str
    options: tuple[str, ...]


#: the recipe of ``aznet:default``
RECIPE = (
    Stage("stage1", "az-ppo", ("--seed", "3", "--timesteps", "900000", "--eval-every", "25")),
    Stage("stage2", "az-ppo", ("--seed", "12", "--timesteps", "2000000", "--lr", "2e-5", "--pg-games", "64",
                               "--eval-every", "10")),
    Stage("stage3", "rollout-values", ("--games", "400", "--steps", "2000", "--seed", "520000")),
)


def ppo_arguments(stage: Stage, folder: Path, init: Path | None, workers: int, threads: int) -> list[str]:
    """``mk-env`` arguments that run an ``az-ppo`` stage in ``folder`` (resume it where it has checkpoints)."""
    common = ["--out", str(folder), "--pg-workers", str(workers), "--threads", str(threads)]
    if ppo_files.checkpoints(folder):
        return ["train", "--resume", *common]
    return ["train", "--algo", "az-ppo", *common, *(["--pg-init", str(init)] if init else []), *stage.options]


def rollout_value_arguments(stage: Stage, folder: Path, init: Path | None, workers: int,
                            threads: int) -> list[str]:
    """``rollout_values`` arguments that run a ``rollout-values`` stage from ``init`` in ``folder``."""
    if init is None:
        raise ValueError(f"recipe stage {stage.name}: rollout-values needs an earlier stage's network")
    return ["--init", str(init), "--out", str(folder), "--workers", str(workers), "--threads", str(threads),
            *stage.options]


def ppo_entry() -> Callable[[list[str]], int]:
    """``mk-env``'s main (imported when a stage runs)."""
    from training.cli import main
    return main


def rollout_value_entry() -> Callable[[list[str]], int]:
    """``python -m training.az.rollout_values``' main (imported when a stage runs)."""
    from .rollout_values import main
    return main


@dataclass(frozen=True)
class StageKind:
    """How a stage of one kind runs: its arguments, its command's entry point, the file it ends with."""

    arguments: Callable[[Stage, Path, Path | None, int, int], list[str]]
    entry: Callable[[], Callable[[list[str]], int]]
    result: str


#: each kind of stage the recipe can hold
KINDS = {
    "az-ppo": StageKind(ppo_arguments, ppo_entry, "latest.safetensors"),
    "rollout-values": StageKind(rollout_value_arguments, rollout_value_entry, "net.safetensors"),
}


def stage_kind(stage: Stage) -> StageKind:
    """``stage``'s kind; a ``ValueError`` naming the allowed kinds for an unknown one."""
    if stage.kind not in KINDS:
        raise ValueError(f"recipe stage {stage.name}: unknown kind {stage.kind!r}; allowed: {', '.join(KINDS)}")
    return KINDS[stage.kind]


def stage_command(stage: Stage, folder: Path, init: Path | None, workers: int, threads: int) -> list[str]:
    """The command line (``mk-env`` or ``rollout_values`` arguments) that runs or resumes ``stage`` in
    ``folder``, starting from ``init`` (None: stage 1's clone)."""
    return stage_kind(stage).arguments(stage, folder, init, workers, threads)


def run_stage(stage: Stage, folder: Path, init: Path | None, workers: int, threads: int) -> Path:
    """Run ``stage``; the network file it ends with (full precision). A failed command raises."""
    kind = stage_kind(stage)
    code = kind.entry()(stage_command(stage, folder, init, workers, threads))
    if code != 0:
        raise StageFailed(stage.name, code)
    return folder / kind.result


class StageFailed(RuntimeError):
    """A stage's command ended with a non-zero exit code (interrupted, or an error it printed)."""

    def __init__(self, stage: str, code: int) -> None:
        super().__init__(f"recipe stage {stage} ended with exit code {code}; the same command continues it")
        self.code = code


def read_record(path: Path) -> dict[str, Any]:
    """``DIR/recipe.json`` (stage -> {seconds, finished}); {} when absent; a ``ValueError`` when unreadable."""
    if not path.is_file():
        return {}
    try:
        record = json.loads(path.read_text())
        if not all(isinstance(v, dict) and isinstance(v.get("seconds"), (int, float)) for v in record.values()):
            raise ValueError("each stage needs a record with its seconds")
    except (ValueError, AttributeError) as e:
        raise ValueError(f"{path} is not a recipe record ({e}); remove it to start the count again") from None
    return record


def run_recipe(out: Path, stages: tuple[Stage, ...] = RECIPE, workers: int = 1, threads: int = 1,
               log: Any = print) -> Path:
    """Run (or continue) ``stages`` in ``out``; the last stage's halved file."""
    out.mkdir(parents=True, exist_ok=True)
    record_file = out / "recipe.json"
    record = read_record(record_file)
    init: Path | None = None
    for stage in stages:
        done = out / f"{stage.name}.safetensors"
        if done.is_file():
            log(f"[recipe] {stage.name}: {done} is there")
        else:
            log(f"[recipe] {stage.name}: {stage.kind} {' '.join(stage.options)}")
            t0 = time.perf_counter()
            try:
                made = run_stage(stage, out / stage.name, init, workers, threads)
                halve_model_file(made, done)
            finally:
                seconds = record.get(stage.name, {}).get("seconds", 0.0) + time.perf_counter() - t0
                record[stage.name] = {"seconds": round(seconds, 1), "finished": done.is_file()}
                record_file.write_text(json.dumps(record, indent=1) + "\n")
            log(f"[recipe] {stage.name}: {done} ({seconds:.0f} s over this stage's invocations)")
        init = done
    if init is None:
        raise ValueError("the recipe has no stages")
    total = sum(part["seconds"] for part in record.values())
    log(f"[recipe] done: {init} (agent specs aznet:{init} alone, az:{init} with search); {total:.0f} s in all")
    return init


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="the recipe's folder (the same folder continues it)")
    ap.add_argument("--workers", type=int, default=2, help="processes playing each stage's games")
    ap.add_argument("--threads", type=int, default=2, help="torch threads of each stage's updates")
    args = ap.parse_args(argv)
    if args.workers < 1 or args.threads < 1:
        ap.error(f"--workers and --threads must be >= 1, got {args.workers} and {args.threads}")
    try:
        run_recipe(args.out, RECIPE, args.workers, args.threads)
    except StageFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return e.code
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
