"""The first step of ``mk-env train --algo az-ppo`` without ``--pg-init``: clone a teacher's play.

The clone is the warm start of an ``--algo az`` run (:meth:`training.az.run.AZRun.warm_start`: the
teacher's games distilled into a fresh policy-value network with action features), written to
``DIR/clone.safetensors``; the az run's own folder (``DIR/clone/``) holds its settings. With that file
present a new command starts from it instead of cloning again, so a run interrupted after its clone loses
nothing but the iteration in progress; one interrupted during the clone clones again from the start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.az_net import save_net

from .run import AZRun
from .settings import AZSettings

FILE = "clone.safetensors"
POSITIONS_PER_GAME = 400  # replay capacity per teacher game: every position of a 2-player game fits


def clone_settings(agent: str, games: int, steps: int, hidden: int, players: int, seed: int,
                   workers: int = 1) -> AZSettings:
    """The az settings whose warm start is the clone (docs/training.md, "Action features"); ``workers``
    processes play the teacher's games (the same clone for any number)."""
    return AZSettings(players=players, seed=seed, warm_agent=agent, warm_games=games, warm_steps=steps,
                      warm_workers=workers, hidden=hidden, buffer=max(50_000, POSITIONS_PER_GAME * games),
                      positions=1, games=1, simulations=2, train_steps=1, gate_every=0, eval_every=0).check()


def clone_network(out: Path, settings: AZSettings, log: Any = print) -> Path:
    """``out/clone.safetensors``: made from ``settings``' warm start unless it is already there."""
    path = Path(out) / FILE
    if path.is_file():
        log(f"[clone] {path} is there: the run starts from it")
        return path
    log(f"[clone] distilling {settings.warm_games} {settings.warm_agent} games in {settings.warm_steps} steps "
        f"into a network of width {settings.hidden} (seed {settings.seed})")
    az = AZRun.start(Path(out) / "clone", settings, log)
    return save_net(az.best, path, az.game, settings.game_options)
