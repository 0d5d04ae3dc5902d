"""The checkpoints of an az-ppo run (``mk-env train --algo az-ppo``): write, list, resume.

A checkpoint (``DIR/checkpoints/pg_<iteration>.safetensors``) is a policy-value model file with Adam's
moments and, in its ``training`` description, the run's settings, counters and the generator's state, so
``--resume`` continues the run exactly where the checkpoint stands.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from agents.az_net import load_net

from .files import checkpoints as az_checkpoints
from .files import read_run_config, write_checkpoint, write_json
from .settings import apply_changes

PREFIX = "pg"


def checkpoints(out: Path) -> list[Path]:
    """The run's checkpoints, oldest first."""
    return az_checkpoints(out, PREFIX)


def save_checkpoint(run: Any) -> Path:
    """Write the run's checkpoint of its current iteration; older ones beyond the last two go."""
    return write_checkpoint(run.out, PREFIX, run.counters["iteration"], run.net, run.game, run.game_options,
                            run.optimizer, {"algo": "az-ppo", "settings": asdict(run.settings),
                                            "counters": run.counters, "generator": run.rng.bit_generator.state})


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
    data, record = apply_changes(training["settings"], changes, ("init",), "is the network the run started from")
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
