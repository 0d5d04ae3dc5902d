"""``ppo:PATH``: a trained sb3-contrib MaskablePPO policy.

``PATH`` is a safe model file (``.safetensors``, :mod:`agents.policy_file`): weights and a JSON
description, nothing that runs code on load. ``ppo:default`` is the small policy shipped in
``agents/checkpoints/default.safetensors`` (see docs/training.md for its recipe). A Stable-Baselines3
``.zip`` unpickles code on load, so it needs an explicit ``ppo:PATH?trust`` (``trust=True`` in
Python, ``--trust`` on the command line); see docs/security.md.

The policy acts on the same observation as the single-seat training env: the inner ``observation``
dict of :mod:`mk_env.env` for its seat, with the legal mask. The agent leaves torch's thread count
alone: the process decides it (``mk-env`` runs torch on one thread per process, docs/training.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mk_env.env.observation import Observer
from mk_env.env.version import ENV_NAME, layout_fingerprint
from mk_env.rules.game import Game
from mk_env.rules.view import PlayerView

from .base import BaseAgent

DEFAULT_CHECKPOINT = Path(__file__).parent / "checkpoints" / "default.safetensors"
TRUST_FLAG = "trust"


class PPOAgent(BaseAgent):
    """Acts with ``policy.predict(observation, action_masks=mask, deterministic=True)``."""

    name = "ppo"

    def __init__(self, path: str | Path, trust: bool = False):
        from .policy_file import is_sb3_zip, load_policy, read_config
        try:
            self.policy = load_policy(path, trust=trust)
        except ImportError as e:  # pragma: no cover - depends on the install
            raise ValueError(f"agent spec 'ppo:{path}' needs stable-baselines3, sb3-contrib and "
                             f"safetensors (pip install 'mk-env[train]'): {e}") from None
        self.path = Path(path)
        self.config = None if is_sb3_zip(path) else read_config(path)
        self._game: Game | None = None  # the game last acted in, checked and with its observer
        self._observer: Observer | None = None

    def observation(self, view: PlayerView) -> dict:
        """The seat's observation dict, as the single-seat training env showed it to the learner:
        encoded here from the view's public facts (what the seat may know)."""
        return self._observer_of(view.game).encode(view.public_state(), view.seat)

    def _observer_of(self, game: Game) -> Observer:
        """The observer of ``game``, made (and the game checked) when the game changes."""
        if game is not self._game:
            self.check_game(game)
            self._game, self._observer = game, Observer(game)
        return self._observer

    def check_game(self, game: Game) -> None:
        """Refuse a game whose observation/action layout is not the one the policy was trained on."""
        if self.config is None:
            return
        mine = layout_fingerprint(game)
        if mine != self.config["layout_fingerprint"]:
            raise ValueError(f"ppo:{self.path} was trained for {self.config['players']} players "
                             f"(layout {self.config['layout_fingerprint']} of {self.config['env']}); "
                             f"this game has {game.num_players} players and layout {mine} of "
                             f"{ENV_NAME}: the policy cannot read it")

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        action, _ = self.policy.predict(self.observation(view),
                                        action_masks=view.legal_mask().astype(bool), deterministic=True)
        return int(action)  # predict gives a 0-d numpy array


def parse_spec_arg(arg: str) -> tuple[Path, bool]:
    """``"PATH"``, ``"PATH?trust"`` or ``"default"`` -> (model path, trusted)."""
    text, sep, flag = arg.partition("?")
    if sep and flag != TRUST_FLAG:
        raise ValueError(f"agent spec 'ppo:{arg}': unknown option {flag!r} after '?'; allowed: "
                         f"ppo:PATH?{TRUST_FLAG} (load an SB3 zip you trust)")
    if not text:
        raise ValueError("agent spec 'ppo' needs a model path, e.g. "
                         "'ppo:runs/x/final_model.safetensors' or 'ppo:default'")
    return (DEFAULT_CHECKPOINT if text == "default" else Path(text)), bool(sep)


def with_trust(spec: str) -> str:
    """``spec`` with ``?trust`` added when it is a ``ppo:`` spec without it (for ``--trust``)."""
    kind, _, arg = spec.partition(":")
    if kind != "ppo" or not arg or arg.endswith(f"?{TRUST_FLAG}"):
        return spec
    return f"{spec}?{TRUST_FLAG}"


def trust_agents(text: str) -> str:
    """An ``--agents`` list (comma-separated specs; ``A+B`` team pairings) with :func:`with_trust`
    applied to each spec: what ``--trust`` does in ``mk-env play`` and ``mk-env tournament``."""
    return ",".join("+".join(with_trust(part.strip()) for part in entry.split("+"))
                    for entry in text.split(","))


def from_spec(arg: str) -> PPOAgent:
    """``ppo:PATH``, ``ppo:PATH?trust`` or ``ppo:default``: the policy in that model file."""
    path, trust = parse_spec_arg(arg)
    if not path.is_file():
        raise ValueError(f"agent spec 'ppo:{arg}': no model file at {str(path)!r}")
    from .policy_file import is_sb3_zip, refuse_untrusted_zip
    if is_sb3_zip(path) and not trust:
        refuse_untrusted_zip(path, f"agent spec 'ppo:{path}?{TRUST_FLAG}' or --trust")
    return PPOAgent(path, trust)
