"""The settings of an AlphaZero-style run (``mk-env train --algo az``), their defaults and checks.

Kept whole in ``DIR/config.json`` and in every checkpoint, so ``--resume`` continues the same run; an
option given again on resume replaces the stored value (except those that shape the network or the game).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

#: settings a resumed run may not change: they shape the network or the game it reads
FIXED_ON_RESUME = ("game", "players", "game_options", "hidden", "layers", "action_dim", "action_features")


@dataclass
class AZSettings:
    """Every setting of a run (the command line's ``--az-*`` options and the shared ones)."""

    game: str = "mountain_king"
    players: int = 2
    game_options: dict[str, Any] | None = None
    seed: int = 0
    positions: int = 200_000  # stop when this many self-play positions were recorded (--timesteps)
    minutes: float | None = None  # stop this invocation after this many minutes (resume continues)
    simulations: int = 32  # search simulations per self-play decision
    games: int = 16  # self-play games per iteration, played in lockstep (one batched forward per step)
    temperature_moves: int = 20  # decisions per game sampled in proportion to the visits
    dirichlet_alpha: float = 0.3
    dirichlet_frac: float = 0.25
    train_steps: int = 100  # gradient steps per iteration
    batch_size: int = 128
    learning_rate: float = 1e-3
    buffer: int = 50_000  # replay buffer capacity (positions)
    gate_every: int = 2  # iterations between gatings (0 = never: the latest network always plays)
    gate_games: int = 20
    gate_threshold: float = 0.55
    eval_every: int = 2  # iterations between evaluations against the gauntlet (0 = never)
    eval_games: int = 20
    eval_opponents: str = "random,heuristic"
    eval_simulations: int = 0  # > 0: also evaluate az:BEST?N (network + search) against the gauntlet
    warm_agent: str = "heuristic"  # agent whose games warm-start the network ("" = none)
    warm_games: int = 40
    warm_steps: int = 400
    warm_workers: int = 1  # processes playing the warm start's games (the positions do not depend on it)
    hidden: int = 256
    layers: int = 2
    action_dim: int = 64
    #: score each legal action also from the observation entries it refers to (agents.az_net.ActionFeatures)
    action_features: bool = True

    def check(self) -> AZSettings:
        """These settings once every number is in range; a ``ValueError`` naming the first that is not."""
        positive = ("players", "positions", "simulations", "games", "train_steps", "batch_size", "buffer",
                    "gate_games", "eval_games", "hidden", "layers", "action_dim", "warm_workers")
        for name in positive:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"az setting {name} must be a whole number >= 1, got {value!r}")
        for name in ("temperature_moves", "gate_every", "eval_every", "eval_simulations", "warm_games",
                     "warm_steps", "seed"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"az setting {name} must be a whole number >= 0, got {value!r}")
        if not 0 < self.gate_threshold <= 1:
            raise ValueError(f"az setting gate_threshold must be in (0, 1], got {self.gate_threshold!r}")
        if not 0 <= self.dirichlet_frac < 1 or not self.dirichlet_alpha > 0:
            raise ValueError(f"az settings dirichlet_alpha must be > 0 and dirichlet_frac in [0, 1), got "
                             f"{self.dirichlet_alpha!r}, {self.dirichlet_frac!r}")
        if not self.learning_rate > 0:
            raise ValueError(f"az setting learning_rate must be > 0, got {self.learning_rate!r}")
        if not isinstance(self.action_features, bool):
            raise ValueError(f"az setting action_features must be true or false, got {self.action_features!r}")
        if self.minutes is not None and not self.minutes > 0:
            raise ValueError(f"az setting minutes must be > 0, got {self.minutes!r}")
        return self

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any], where: str) -> AZSettings:
        """Settings read back from a run's files (unknown names refused)."""
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        data = {"action_features": False, **data} if not unknown else data  # runs of before action features
        return settings_from_json(cls, data, where, "az")

    def changed(self, changes: dict[str, Any]) -> tuple[AZSettings, dict[str, dict[str, Any]]]:
        """A copy with ``changes`` (None values ignored) and the record ``name -> {was, now}``; a change of a
        :data:`FIXED_ON_RESUME` setting is refused."""
        data, record = apply_changes(self.to_json(), changes, FIXED_ON_RESUME, "shapes the network or the game")
        return AZSettings(**data).check(), record


def apply_changes(data: dict[str, Any], changes: dict[str, Any], fixed: tuple[str, ...], why: str
                  ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """``data`` with ``changes`` (None values ignored) and the record ``name -> {was, now}``; a change of a
    ``fixed`` setting is refused (``why``: what makes it fixed, for the message)."""
    data, record = dict(data), {}
    for name, value in changes.items():
        if value is None or data.get(name) == value:
            continue
        if name in fixed:
            raise ValueError(f"--resume: {name} is {data.get(name)!r} in this run and {why}; it cannot become "
                             f"{value!r} (start a new run with another --out)")
        record[name] = {"was": data.get(name), "now": value}
        data[name] = value
    return data, record


def settings_from_json(cls: Any, data: dict[str, Any], where: str, label: str) -> Any:
    """``cls(**data)`` checked, unknown names refused (``label``: the settings' name in the message)."""
    known = set(cls.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{where}: unknown {label} settings {unknown}; allowed: {', '.join(sorted(known))}")
    return cls(**data).check()
