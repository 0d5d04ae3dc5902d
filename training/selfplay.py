"""Self-play opponents: a pool of frozen snapshots of the learner, its latest policy and fixed baselines.

The pool is described by ``--opponents``, a comma-separated list of ``SOURCE:WEIGHT`` entries:

* ``latest``: the most recent snapshot of the learner (``DIR/snapshots/``, saved every K steps);
* ``snapshots``: one of the older snapshots, drawn uniformly;
* any agent spec of :func:`agents.make_agent` (``random``, ``heuristic``, ``mcts:8``,
  ``ppo:PATH``): a fixed baseline.

At each episode every opponent seat draws its source independently with probability proportional to
the weights (``DEFAULT_OPPONENTS``: random 0.3, heuristic 0.1, latest 0.3, older snapshots 0.3). While
no snapshot exists yet the ``latest``/``snapshots`` weights fall to the baselines (and to ``random``
if the pool has none).

Snapshots are safe model files (:mod:`agents.policy_file`, no pickle), loaded inside whichever
process plays them (a subprocess worker, or the main process), lazily and cached (:func:`load_policy`);
torch models never cross process boundaries: a :class:`PolicyOpponent` pickles as its path only.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

DEFAULT_OPPONENTS = "random:0.3,heuristic:0.1,latest:0.3,snapshots:0.3"
SNAPSHOT_SOURCES = ("latest", "snapshots")
SNAPSHOT_GLOB = "snapshot_*.safetensors"
_CACHE_SIZE = 8
_MODELS: OrderedDict[tuple[str, int, int], Any] = OrderedDict()


# ================================================================================================
# policies as opponents
# ================================================================================================
def load_policy(path: str | Path):
    """The policy of a safe model file (:func:`agents.policy_file.load_policy`), loaded once per
    process and file version (small LRU cache keyed by path, size and modification time)."""
    stat = Path(path).stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key in _MODELS:
        _MODELS.move_to_end(key)
        return _MODELS[key]
    from agents.policy_file import load_policy as load_policy_file
    policy = _MODELS[key] = load_policy_file(path)
    while len(_MODELS) > _CACHE_SIZE:
        _MODELS.popitem(last=False)
    return policy


class PolicyOpponent:
    """A frozen policy as an opponent callable ``f(observation_dict, rng) -> action``.

    It samples from the policy (``deterministic=False``; the sample draws on torch's generator, not
    ``rng``). Pickles as its path: the model is loaded in whichever process uses it, and then held
    for the opponent's episode (the pool loads it when it draws it: an older snapshot may be pruned
    from disk meanwhile).
    """

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._policy: Any = None

    def __getstate__(self) -> dict:
        return {"path": self.path}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["path"])

    def load(self) -> Any:
        """The policy, loaded (:func:`load_policy`) on first use and held from then on."""
        if self._policy is None:
            self._policy = load_policy(self.path)
        return self._policy

    def __call__(self, observation: dict, rng: np.random.Generator) -> int:
        action, _ = self.load().predict(observation["observation"],
                                        action_masks=observation["action_mask"].astype(bool),
                                        deterministic=False)
        return int(action)

    def __repr__(self) -> str:
        return f"PolicyOpponent({self.path!r})"


# ================================================================================================
# the pool
# ================================================================================================
def parse_opponents(specs: str) -> dict[str, float]:
    """``"random:0.3,latest:0.7"`` -> ``{"random": 0.3, "latest": 0.7}`` (weights need not sum to 1).

    A spec with a colon of its own (``ppo:PATH``, ``mcts:8``) takes its weight after a last ``@``:
    ``mcts:8@0.2``; without a weight an entry weighs 1.
    """
    from agents import make_agent
    if not isinstance(specs, str) or not specs.strip():
        raise ValueError(f"--opponents {specs!r}: give SOURCE:WEIGHT entries, e.g. {DEFAULT_OPPONENTS}")
    out: dict[str, float] = {}
    for entry in (e.strip() for e in specs.split(",")):
        if "@" in entry:
            source, _, weight = entry.rpartition("@")
        else:
            source, sep, weight = entry.rpartition(":")
            if not sep or not _is_number(weight):
                source, weight = entry, "1"
        try:
            w = float(weight)
        except ValueError:
            raise ValueError(f"--opponents entry {entry!r}: weight {weight!r} is not a number") from None
        if not w >= 0:
            raise ValueError(f"--opponents entry {entry!r}: weight must be >= 0")
        if source not in SNAPSHOT_SOURCES:
            try:
                make_agent(source)
            except ValueError as e:
                raise ValueError(f"--opponents entry {entry!r}: {e}; or use "
                                 f"{' / '.join(SNAPSHOT_SOURCES)}") from None
        out[source] = out.get(source, 0.0) + w
    if sum(out.values()) <= 0:
        raise ValueError(f"--opponents {specs!r}: the weights sum to 0")
    return out


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class OpponentPool:
    """Draws the opponents of one episode from snapshots, the latest policy and fixed baselines."""

    def __init__(self, weights: dict[str, float] | str = DEFAULT_OPPONENTS,
                 snapshot_dir: str | Path | None = None):
        self.weights = parse_opponents(weights) if isinstance(weights, str) else dict(weights)
        self.snapshot_dir = None if snapshot_dir is None else Path(snapshot_dir)
        self._agents: dict[str, Any] = {}

    def snapshots(self) -> list[Path]:
        """Saved snapshots, oldest first (by the step count in their names)."""
        if self.snapshot_dir is None or not self.snapshot_dir.is_dir():
            return []
        return sorted(self.snapshot_dir.glob(SNAPSHOT_GLOB), key=snapshot_step)

    def probabilities(self) -> dict[str, float]:
        """The probability of each source for one seat now (snapshot sources drop out while empty)."""
        snaps = self.snapshots()
        available = {s: w for s, w in self.weights.items()
                     if s not in SNAPSHOT_SOURCES or (snaps if s == "latest" else snaps[:-1])}
        if not available or sum(available.values()) <= 0:
            available = {"random": 1.0}
        total = sum(available.values())
        return {s: w / total for s, w in available.items()}

    def new_episode(self, rng: np.random.Generator, seats: int) -> list[Any]:
        """The opponents of ``seats`` seats for one episode, each drawn independently."""
        probs = self.probabilities()
        sources = list(probs)
        snaps = self.snapshots()
        picks = rng.choice(len(sources), size=seats, p=np.array(list(probs.values())))
        return [self._opponent(sources[i], snaps, rng) for i in picks]

    def _opponent(self, source: str, snaps: list[Path], rng: np.random.Generator) -> Any:
        if source in SNAPSHOT_SOURCES:
            index = -1 if source == "latest" else int(rng.integers(len(snaps) - 1))
            opponent = PolicyOpponent(snaps[index])
            opponent.load()
            return opponent
        if source not in self._agents:
            from agents import make_agent
            self._agents[source] = make_agent(source)
        return self._agents[source]


def snapshot_step(path: Path) -> int:
    """The step count in ``snapshot_<steps>.safetensors`` (or ``model_<steps>...``)."""
    try:
        return int(Path(path).stem.rsplit("_", 1)[1])
    except (IndexError, ValueError):
        return -1


class SelfPlayWrapper(gymnasium.Wrapper):
    """Re-draws the opponents of a single-seat env from an :class:`OpponentPool` at every reset."""

    def __init__(self, env: gymnasium.Env, pool: OpponentPool):
        super().__init__(env)
        self.pool = pool
        self._rng: np.random.Generator | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        base = self.env.unwrapped
        base.opponents = self.pool.new_episode(self._rng, base.aec.game.num_players - 1)
        obs, info = self.env.reset(seed=seed, options=options)
        info["opponents"] = [_name(o) for o in base.opponents]
        return obs, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def _name(opponent: Any) -> str:
    if isinstance(opponent, PolicyOpponent):
        return Path(opponent.path).stem
    return getattr(opponent, "name", type(opponent).__name__)
