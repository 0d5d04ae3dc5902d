"""The checkpoints of an az-ppo run (``mk-env train --algo az-ppo``): write, list, resume.

A checkpoint (``DIR/checkpoints/pg_<iteration>.safetensors``) is a policy-value model file with Adam's
moments and, in its ``training`` description, the run's settings, counters and the generator's state, so
``--resume`` continues the run exactly where the checkpoint stands.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from agents.az_net import load_net, save_net

from .files import read_run_config, write_json

CHECKPOINTS_KEPT = 2
_CHECKPOINT = re.compile(r"^pg_(\d+)\.safetensors$")


def checkpoints(out: Path) -> list[Path]:
    """The run's checkpoints, oldest first."""
    folder = Path(out) / "checkpoints"
    found = [p for p in folder.glob("pg_*.safetensors") if _CHECKPOINT.match(p.name)] if folder.is_dir() else []
    return sorted(found, key=lambda p: int(_CHECKPOINT.match(p.name).group(1)))


def save_checkpoint(run: Any) -> Path:
    """Write the run's checkpoint of its current iteration; older ones beyond the last two go."""
    path = run.out / "checkpoints" / f"pg_{run.counters['iteration']}.safetensors"
    save_net(run.net, path, run.game, run.game_options, optimizer=run.optimizer,
             training={"algo": "az-ppo", "settings": asdict(run.settings), "counters": run.counters,
                       "generator": run.rng.bit_generator.state})
    for old in checkpoints(run.out)[:-CHECKPOINTS_KEPT]:
        old.unlink()
    return path


def resume(cls: Any, out: Path, changes: dict[str, Any], log: Any = print) -> Any:
    """The run (of class ``cls``, whose ``settings_class`` reads the settings) of ``out`` from its last
    checkpoint, with ``changes`` (None values ignored) applied and
    recorded in ``config.json``."""
    config_path = out / "config.json"
    config = read_run_config(out, "az-ppo")
    found = checkpoints(out)
    if not found:
        raise ValueError(f"--resume: {out} has no checkpoint yet (checkpoints/pg_*.safetensors)")
    net, net_config, optimizer = load_net(found[-1], optimizer_for=True)
    training = net_config.get("training") or {}
    if training.get("algo") != "az-ppo":
        raise ValueError(f"{found[-1]}: not an az-ppo checkpoint; start a new run")
    data, record = dict(training["settings"]), {}
    for name, value in changes.items():
        if value is not None and data.get(name) != value:
            if name == "init":
                raise ValueError(f"--resume: the run started from {data['init']}; it cannot restart from {value}")
            record[name] = {"was": data.get(name), "now": value}
            data[name] = value
    run = cls(out, cls.settings_class.from_json(data, str(config_path)), net, net_config, log)
    run.optimizer = optimizer
    for group in run.optimizer.param_groups:
        group["lr"] = run.settings.learning_rate
    run.counters = dict(training["counters"])
    run.rng = np.random.default_rng()
    run.rng.bit_generator.state = training["generator"]
    log(f"[resume] {found[-1].name}: iteration {run.counters['iteration']}, {run.counters['decisions']} "
        f"decisions, {run.counters['games']} games")
    for name, change in record.items():
        log(f"[resume] applying {name} = {change['now']!r} (was {change['was']!r})")
    config.setdefault("resumes", []).append({"iteration": run.counters["iteration"], "changed": record})
    write_json(config_path, config)
    return run
