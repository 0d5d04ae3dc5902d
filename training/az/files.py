"""The files of an AlphaZero-style run (``mk-env train --algo az --out DIR``)::

    DIR/config.json                   {"algo": "az", "settings": {...}} (and the changes of each --resume)
    DIR/checkpoints/az_<iteration>.safetensors   the latest network, Adam's moments, the loop's counters
    DIR/best.safetensors              the gated best network (the one self-play uses): az:/aznet: PATH
    DIR/buffer.npz                    the replay buffer (written before the checkpoint of the same iteration)
    DIR/eval.csv, learning_curve.png  gauntlet evaluations (timesteps = self-play positions so far)
    DIR/gating.csv                    each gating: candidate against best, win rate, accepted
    DIR/tb/                           TensorBoard

The checkpoint is the commit point of an iteration: a run killed between writing the buffer and the
checkpoint resumes from the previous checkpoint with a buffer one iteration ahead (more data, nothing lost).
"""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path
from typing import Any

from agents.az_net import load_net, save_net

from .settings import AZSettings

CHECKPOINTS_KEPT = 2
GATING_FIELDS = ("iteration", "positions", "seconds", "games", "candidate_wins", "win_rate", "low", "high",
                 "accepted", "generation")


def write_json(path: Path, data: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


def read_run_config(out: Path, algo: str = "az") -> dict[str, Any]:
    """``DIR/config.json`` of an ``algo`` run (a ``ValueError`` if the folder holds another kind of run)."""
    path = out / "config.json"
    if not path.is_file():
        raise ValueError(f"--resume: {out} holds no run (no config.json); start one without --resume")
    config = json.loads(path.read_text())
    if config.get("algo") != algo:
        raise ValueError(f"--resume: {out} is a {config.get('algo', 'maskable-ppo')!r} run, not an {algo} run")
    return config


def checkpoints(out: Path, prefix: str = "az") -> list[Path]:
    """Checkpoints of the run (``checkpoints/<prefix>_<iteration>.safetensors``), oldest first."""
    folder, pattern = Path(out) / "checkpoints", re.compile(rf"^{prefix}_(\d+)\.safetensors$")
    if not folder.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in folder.glob(f"{prefix}_*.safetensors") if (m := pattern.match(p.name))]
    return [p for _, p in sorted(found)]


def write_checkpoint(out: Path, prefix: str, iteration: int, net: Any, game: Any, game_options: Any,
                     optimizer: Any, training: dict[str, Any]) -> Path:
    """Write ``DIR/checkpoints/<prefix>_<iteration>.safetensors`` (the network, Adam's moments and
    ``training``); older ones beyond the last :data:`CHECKPOINTS_KEPT` go."""
    path = Path(out) / "checkpoints" / f"{prefix}_{iteration}.safetensors"
    save_net(net, path, game, game_options, optimizer=optimizer, training=training)
    for old in checkpoints(out, prefix)[:-CHECKPOINTS_KEPT]:
        old.unlink()
    return path


def save_checkpoint(out: Path, net: Any, optimizer: Any, game: Any, settings: AZSettings,
                    counters: dict[str, Any]) -> Path:
    """Write ``DIR/checkpoints/az_<iteration>.safetensors``; older ones beyond the last two go."""
    return write_checkpoint(out, "az", counters["iteration"], net, game, settings.game_options, optimizer,
                            {"settings": settings.to_json(), "counters": counters})


def load_checkpoint(path: Path) -> tuple[Any, Any, dict[str, Any]]:
    """(network, Adam with its moments, ``training``: the run's ``settings`` and the loop's ``counters``)."""
    net, config, optimizer = load_net(path, optimizer_for=True)
    training = config.get("training") or {}
    if not (isinstance(training.get("counters"), dict) and isinstance(training.get("settings"), dict)):
        raise ValueError(f"{path}: not an az checkpoint (no settings and counters); start a new run")
    return net, optimizer, training


def append_gating(out: Path, row: dict[str, Any]) -> None:
    path = out / "gating.csv"
    new = not path.exists()
    with open(path, "a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=GATING_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)

