"""``ppo:PATH``: a trained policy, sb3-contrib MaskablePPO's or the factorised one of ``--algo ppo``.

``PATH`` is a safe model file (``.safetensors``, :mod:`agents.policy_file`; the factorised policy's:
:mod:`agents.factorised_file`): weights and a JSON description, nothing that runs code on load; both
kinds answer ``predict(observation, action_masks, deterministic)``. ``ppo:default`` is the small policy shipped in
``agents/checkpoints/default.safetensors`` (see docs/training.md for its recipe). A Stable-Baselines3
``.zip`` unpickles code on load, so it needs an explicit ``ppo:PATH?trust`` (``trust=True`` in
Python, ``--trust`` on the command line); see docs/security.md.

The policy acts on the same observation as the single-seat training env of its game (``game`` in the
file: :mod:`mk_env.env` for the first game, :mod:`mk_env.cave_troll.env` for Cave Troll): the inner
``observation`` dict for its seat, with the legal mask. A game other than the file's, or a layout other
than the one it was trained on, is refused with an error naming both. The agent leaves torch's thread count
alone: the process decides it (``mk-env`` runs torch on one thread per process, docs/training.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from typing import Any

from mk_env.games import DEFAULT_GAME, game_name
from mk_env.core.view import PlayerView

from .base import BaseAgent
from .policy_description import config_game, env_module

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
        self._game: Any = None  # the game last acted in, checked and with its observer
        self._observer: Any = None

    def observation(self, view: PlayerView) -> dict:
        """The seat's observation dict, as the single-seat training env showed it to the learner:
        encoded here from the view's public facts (what the seat may know)."""
        return self._observer_of(view.game).encode(view.public_state(), view.seat)

    def _observer_of(self, game: Any) -> Any:
        """The observer of ``game``, made (and the game checked) when the game changes."""
        if game is not self._game:
            self.check_game(game)
            self._game = game
            self._observer = env_module(game_name(game)).raw_env.observer_class(game)
        return self._observer

    def check_game(self, game: Any) -> None:
        """Refuse a game of another kind than the policy's, or whose observation/action layout is not
        the one the policy was trained on."""
        name = game_name(game)
        trained_for = DEFAULT_GAME if self.config is None else config_game(self.config)
        if name != trained_for:
            raise ValueError(f"ppo:{self.path} was trained for {trained_for}; this game is {name}: "
                             f"the policy cannot read it (use a model trained with mk-env train "
                             f"--game {name})")
        if self.config is None:
            return
        module = env_module(name)
        mine = module.layout_fingerprint(game)
        if mine != self.config["layout_fingerprint"]:
            raise ValueError(f"ppo:{self.path} was trained for {self.config['players']} players "
                             f"(layout {self.config['layout_fingerprint']} of {self.config['env']}); "
                             f"this game has {game.num_players} players and layout {mine} of "
                             f"{module.ENV_NAME}: the policy cannot read it")

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
