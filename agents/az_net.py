"""The policy-value network of the AlphaZero-style agents (``az:PATH``, ``aznet:PATH``) and its model file.

:class:`PolicyValueNet` reads one seat's flat observation (the env's ``Observer.encode_flat``: the same
arrays as the single-seat env, egocentric, public facts only) through a trunk whose first layer reads only
the non-zero entries (:class:`SparseBatch`, an ``EmbeddingBag``: about 13 times less work than a dense
layer on the first game's observation) and gives

* **priors over the legal actions only**: the trunk's features are turned into a query vector; each
  action number has a learned embedding and bias; an action's logit is query . embedding + bias. Only the
  legal actions' rows are gathered (a decision has tens of legal actions against the layout's 9,790),
  so no 9,790-wide softmax is ever computed. With :class:`ActionFeatures` (networks built by
  :func:`new_net`), an action's vector also carries what it refers to in the observation (the troll in
  the horde slot it recruits, the squares it digs: the game's ``action_references``), so the score sees
  what it chooses rather than learning it per action number. :class:`LegalActionHead` is the one place
  to swap for another head (e.g. a factorised one) with the same ``logits(...)`` call;
* **a value per seat** in ``[-1, 1]`` (tanh), egocentric: row 0 is the observing seat, then the others
  in turn order (the observation's player axis). :func:`seat_values` turns them into values by seat.

The model file is the safe format of :mod:`agents.policy_file` (a ``.safetensors`` file, JSON metadata
``mk_env``, no pickle): format :data:`FORMAT`, the game, players, options, the env name and the
fingerprint of its observation/action layout, the network's sizes (bounded), optionally Adam's moments
(``optimizer/...``) and the training run's settings. Loading refuses a file of another format, version,
game layout or network shape with one line naming both sides.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
from torch import nn

from mk_env.games import game_name

from .policy_description import MAX_LAYERS, MAX_WIDTH, ModelFileError, env_layout, env_module
from .policy_file import (SUFFIX, _load_optimizer, _read_tensors, adam, is_sb3_zip, read_metadata,
                          write_model_file)

FORMAT = "mk_env.policy_value"
FORMAT_VERSION = 1
MAX_REFERENCES = 10 ** 8  # entries of an action-reference table


@dataclass(frozen=True)
class NetShape:
    """The sizes that build a :class:`PolicyValueNet` (all stored in the model file)."""

    observation_size: int  # length of the flat observation
    actions: int  # the action layout's size
    players: int  # seats, so values per seat
    hidden: int = 256  # width of the trunk's layers
    layers: int = 2  # trunk layers (the first reads the observation's non-zero entries)
    action_dim: int = 64  # width of the action embeddings and of the policy query
    #: entries of the action-reference table (:class:`ActionFeatures`); 0: actions are scored by their
    #: number's embedding alone (the networks of before; a file without this field is read as 0)
    action_references: int = 0

    def check(self, where: str = "network") -> NetShape:
        """This shape once every size is a whole number in its allowed range."""
        limits = {"observation_size": (1, 10 ** 6), "actions": (1, 10 ** 6), "players": (1, 5),
                  "hidden": (1, MAX_WIDTH), "layers": (1, MAX_LAYERS), "action_dim": (1, MAX_WIDTH),
                  "action_references": (0, MAX_REFERENCES)}
        for name, (low, top) in limits.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= top:
                raise ModelFileError(f"{where}: {name} must be a whole number from {low} to {top}, "
                                     f"got {value!r}")
        return self


class ActionFeatures(nn.Module):
    """Each legal action's features from the observation entries it refers to (the game's
    ``action_references``: the horde slot's troll for a recruit, the squares' board channels for a dig,
    the spellbook position for a cast): ``out(relu(sum of value x embedding over those entries + b))``.

    The table is part of the network (buffers ``pointer``, ``index``, saved in the model file), so a
    network reads the observation the way it was trained to whatever the installed mk_env lists."""

    def __init__(self, observation_size: int, actions: int, references: int, action_dim: int):
        super().__init__()
        self.register_buffer("pointer", torch.zeros(actions + 1, dtype=torch.int64))
        self.register_buffer("index", torch.zeros(references, dtype=torch.int32))
        self.bag = nn.EmbeddingBag(observation_size, action_dim, mode="sum")
        nn.init.normal_(self.bag.weight, std=0.05)
        self.bag_bias = nn.Parameter(torch.zeros(action_dim))
        self.out = nn.Linear(action_dim, action_dim)

    def set_table(self, pointer: np.ndarray, index: np.ndarray) -> None:
        """Load the reference table (``pointer`` of actions + 1 entries, ``index`` into the observation)."""
        if pointer.shape != self.pointer.shape or index.shape != self.index.shape:
            raise ValueError(f"action references of shape {pointer.shape}, {index.shape}; this network "
                             f"reads {tuple(self.pointer.shape)}, {tuple(self.index.shape)}")
        self.pointer.copy_(torch.from_numpy(np.asarray(pointer, np.int64)))
        self.index.copy_(torch.from_numpy(np.asarray(index, np.int32)))

    def table_problem(self, observation_size: int) -> str | None:
        """What is wrong with the loaded table (a model file's), or None: the pointer must rise from 0 to
        the table's length and every entry must be an index into the observation."""
        pointer, index = self.pointer, self.index
        if int(pointer[0]) != 0 or int(pointer[-1]) != len(index) or bool((pointer[1:] < pointer[:-1]).any()):
            return "its action-reference pointer does not rise from 0 to the table's length"
        if len(index) and (int(index.min()) < 0 or int(index.max()) >= observation_size):
            return f"its action references point outside the observation (0..{observation_size - 1})"
        return None

    def forward(self, dense: torch.Tensor, actions: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
        """The features (N, action_dim) of ``actions`` (N,), each read from its row of ``dense`` (``rows``;
        :func:`unpad` turns a padded batch of legal actions into the two)."""
        start = self.pointer[actions]
        count = self.pointer[actions + 1] - start
        owner = torch.repeat_interleave(torch.arange(len(actions)), count)  # which action each entry is
        first = torch.cumsum(count, 0) - count
        entry = self.index[torch.arange(int(count.sum())) - first[owner] + start[owner]].long()
        weight = dense[rows[owner], entry]
        nonzero = weight != 0
        owner, entry, weight = owner[nonzero], entry[nonzero], weight[nonzero]
        counts = torch.bincount(owner, minlength=len(actions))
        bag = self.bag(entry, torch.cumsum(counts, 0) - counts, per_sample_weights=weight)
        return self.out(torch.relu(bag + self.bag_bias))


def unpad(legal: torch.Tensor, valid: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The real entries of a padded (B, L) batch of legal actions, row by row: (actions (N,), rows (N,))."""
    b, width = legal.shape
    keep = valid.reshape(-1)
    return legal.reshape(-1)[keep], torch.arange(b).repeat_interleave(width)[keep]


class LegalActionHead(nn.Module):
    """Logits of the legal actions: ``query(features) . (embedding[action] + action features) +
    bias[action]``, the action features from :class:`ActionFeatures` when the network has them."""

    def __init__(self, features: int, actions: int, action_dim: int, action_features: ActionFeatures | None
                 = None):
        super().__init__()
        self.query = nn.Linear(features, action_dim)
        self.embedding = nn.Embedding(actions, action_dim)
        self.bias = nn.Embedding(actions, 1)
        nn.init.normal_(self.embedding.weight, std=0.05)
        nn.init.zeros_(self.bias.weight)
        self.action_features = action_features

    def logits(self, features: torch.Tensor, legal: torch.Tensor, valid: torch.Tensor,
               dense: torch.Tensor | None = None) -> torch.Tensor:
        """``features`` (B, F); ``legal`` (B, L) action numbers padded with any number; ``valid`` (B, L)
        which entries are real; ``dense`` (B, D) the observations (needed with action features). Padded
        entries get ``-inf``."""
        actions, rows = unpad(legal, valid)
        vectors = self.embedding(actions)
        if self.action_features is not None:
            vectors = vectors + self.action_features(dense, actions, rows)
        scores = (self.query(features)[rows] * vectors).sum(1) + self.bias(actions).squeeze(1)
        # only the real entries are scored (a batch's widest row would otherwise size every row's work)
        return torch.full(legal.shape, float("-inf")).masked_scatter(valid, scores)


class SparseBatch(NamedTuple):
    """A batch of observations as their non-zero entries (``nn.EmbeddingBag``'s input): observations are
    mostly zeros (about 1,000 of 13,660 entries in the first game), so the first layer only touches those."""

    index: torch.Tensor  # (nnz,) int64: feature numbers, row after row
    offsets: torch.Tensor  # (B,) int64: where each row starts in ``index``
    weights: torch.Tensor  # (nnz,) float32: the values

    @classmethod
    def from_rows(cls, rows: list[tuple[np.ndarray, np.ndarray]]) -> SparseBatch:
        """From (indices, values) per row."""
        lengths = [len(i) for i, _ in rows]
        offsets = np.zeros(len(rows), np.int64)
        offsets[1:] = np.cumsum(lengths)[:-1]
        index = np.concatenate([i for i, _ in rows]).astype(np.int64) if rows else np.zeros(0, np.int64)
        weights = np.concatenate([v for _, v in rows]).astype(np.float32) if rows else np.zeros(0, np.float32)
        return cls(torch.from_numpy(index), torch.from_numpy(offsets), torch.from_numpy(weights))

    def dense(self, size: int) -> torch.Tensor:
        """The batch as a (B, ``size``) tensor."""
        out = torch.zeros(len(self.offsets), size)
        lengths = torch.diff(self.offsets, append=torch.tensor([len(self.index)]))
        out[torch.arange(len(self.offsets)).repeat_interleave(lengths), self.index] = self.weights
        return out

    @classmethod
    def from_dense(cls, observations: np.ndarray) -> SparseBatch:
        """From a (B, D) array."""
        rows = []
        for row in observations:
            index = np.flatnonzero(row)
            rows.append((index, row[index]))
        return cls.from_rows(rows)


class PolicyValueNet(nn.Module):
    """A trunk (a sparse first layer, then ``layers - 1`` dense ones) with a legal-action policy head and a
    per-seat value head."""

    def __init__(self, shape: NetShape, references: tuple[np.ndarray, np.ndarray] | None = None):
        """``references``: the game's ``(pointer, index)`` action-reference table, for a new network whose
        shape has ``action_references`` (a loaded network reads it from its file)."""
        super().__init__()
        self.shape = shape.check()
        self.embed = nn.EmbeddingBag(shape.observation_size, shape.hidden, mode="sum")
        bound = 1.0 / np.sqrt(shape.observation_size)  # nn.Linear's initialisation
        nn.init.uniform_(self.embed.weight, -bound, bound)
        self.embed_bias = nn.Parameter(torch.empty(shape.hidden).uniform_(-bound, bound))
        blocks: list[nn.Module] = []
        for _ in range(shape.layers - 1):
            blocks += [nn.Linear(shape.hidden, shape.hidden), nn.ReLU()]
        self.trunk = nn.Sequential(*blocks)
        action_features = None
        if shape.action_references:
            action_features = ActionFeatures(shape.observation_size, shape.actions, shape.action_references,
                                             shape.action_dim)
            if references is not None:
                action_features.set_table(*references)
        self.policy = LegalActionHead(shape.hidden, shape.actions, shape.action_dim, action_features)
        self.value = nn.Linear(shape.hidden, shape.players)

    def forward(self, obs: SparseBatch, legal: torch.Tensor, valid: torch.Tensor,
                dense: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits over each row's legal actions (B, L), egocentric values (B, players)); ``dense``: the same
        observations as a (B, D) tensor where the caller has them (the action features read it; else it is
        rebuilt from ``obs``)."""
        first = self.embed(obs.index, obs.offsets, per_sample_weights=obs.weights) + self.embed_bias
        features = self.trunk(torch.relu(first))
        if self.shape.action_references and dense is None:
            dense = obs.dense(self.shape.observation_size)
        return self.policy.logits(features, legal, valid, dense), torch.tanh(self.value(features))

    @torch.no_grad()
    def evaluate(self, observations: np.ndarray, legal_lists: list[np.ndarray]
                 ) -> tuple[list[np.ndarray], np.ndarray]:
        """Priors (softmax over each row's legal actions) and egocentric values, for a batch of dense
        observations (B, D): the inference call of search and of the greedy agent."""
        legal, valid = pad_legal(legal_lists)
        logits, values = self(SparseBatch.from_dense(observations), legal, valid,
                              torch.from_numpy(np.asarray(observations, np.float32)))
        probs = torch.softmax(logits, dim=1).numpy()
        return [probs[i, :len(a)] for i, a in enumerate(legal_lists)], values.numpy()


def pad_legal(legal_lists: list[np.ndarray]) -> tuple[torch.Tensor, torch.Tensor]:
    """Legal action lists -> a (B, L) tensor of action numbers (padded with 0) and its validity mask."""
    width = max(1, max(len(a) for a in legal_lists))
    legal = np.zeros((len(legal_lists), width), np.int64)
    valid = np.zeros((len(legal_lists), width), bool)
    for i, a in enumerate(legal_lists):
        legal[i, :len(a)] = a
        valid[i, :len(a)] = True
    return torch.from_numpy(legal), torch.from_numpy(valid)


def seat_values(egocentric: np.ndarray, seat: int) -> np.ndarray:
    """Values by seat from values seen by ``seat`` (row k is seat ``(seat + k) % n``)."""
    return np.roll(np.asarray(egocentric), seat)


def egocentric(values_by_seat: np.ndarray, seat: int) -> np.ndarray:
    """The inverse of :func:`seat_values`: values by seat as ``seat`` sees them (itself first)."""
    return np.roll(np.asarray(values_by_seat), -seat)


def observer_of(game: Any) -> Any:
    """The observation encoder of ``game`` (its env module's ``observer_class``)."""
    return env_module(game_name(game)).raw_env.observer_class(game)


def action_references(game: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """``game``'s action-reference table (its env module's ``action_references``), or None where its
    environment has none."""
    refer = getattr(env_module(game_name(game)), "action_references", None)
    return refer(game) if refer is not None else None


def shape_for(game: Any, hidden: int = 256, layers: int = 2, action_dim: int = 64,
              references: tuple[np.ndarray, np.ndarray] | None = None) -> NetShape:
    """The network shape for ``game``: its observation and action sizes, its seats (and the size of
    ``references``, its action-reference table, when given)."""
    st = game.new_initial_state(seed=0)
    return NetShape(int(observer_of(game).size), int(len(st.legal_mask())), int(game.num_players),
                    hidden, layers, action_dim, len(references[1]) if references is not None else 0).check()


def new_net(game: Any, hidden: int = 256, layers: int = 2, action_dim: int = 64,
            action_features: bool = True) -> PolicyValueNet:
    """A freshly initialised network for ``game``; with ``action_features`` (where the game's environment
    lists its actions' references) each legal action is also scored from what it refers to."""
    references = action_references(game) if action_features else None
    return PolicyValueNet(shape_for(game, hidden, layers, action_dim, references), references)


# ================================================================================================
# the model file
# ================================================================================================
def save_net(net: PolicyValueNet, path: str | Path, game: Any, game_options: dict[str, Any] | None = None,
             optimizer: Any = None, training: dict[str, Any] | None = None) -> Path:
    """Write ``net`` for ``game`` (a ``Game`` built with ``game_options``) to ``path`` atomically; with
    ``optimizer`` Adam's moments too (checkpoints), ``training``: JSON settings of the run."""
    name = game_name(game)
    options = dict(game_options or {})
    module = env_module(name)
    config = {"format": FORMAT, "format_version": FORMAT_VERSION, "env": module.ENV_NAME,
              "layout_fingerprint": module.layout_fingerprint(game), "game": name,
              "players": int(game.num_players), "game_options": options,
              "network": asdict(net.shape), "optimizer": None, "training": training}
    return write_model_file(path, {f"net/{k}": v for k, v in net.state_dict().items()}, config, optimizer)


def read_net_config(path: str | Path) -> dict[str, Any]:
    """The ``mk_env`` JSON of a policy-value file, checked for format, version and field types."""
    path = Path(path)
    if not path.is_file():
        raise ModelFileError(f"no model file at {str(path)!r}")
    if is_sb3_zip(path):
        raise ModelFileError(f"{path} is a Stable-Baselines3 zip, not a policy-value network "
                             f"(az:PATH takes a .safetensors file written by mk-env train --algo az)")
    config = read_metadata(path)
    if not isinstance(config, dict) or config.get("format") != FORMAT:
        got = config.get("format") if isinstance(config, dict) else None
        raise ModelFileError(f"{path}: format {got!r}, not a policy-value network ({FORMAT}); "
                             f"a MaskablePPO file is played by ppo:PATH")
    if config.get("format_version") != FORMAT_VERSION:
        raise ModelFileError(f"{path}: format version {config.get('format_version')!r}; this mk_env "
                             f"reads version {FORMAT_VERSION}")
    for key, kind in {"env": str, "layout_fingerprint": str, "game": str, "players": int,
                      "game_options": dict, "network": dict}.items():
        if not isinstance(config.get(key), kind) or isinstance(config.get(key), bool):
            raise ModelFileError(f"{path}: field {key!r} must be of type {kind.__name__}, "
                                 f"got {config.get(key)!r}")
    return config


def net_shape(config: dict[str, Any], path: str | Path) -> NetShape:
    """The file's network shape (known fields only, sizes bounded)."""
    fields = set(NetShape.__dataclass_fields__)
    if not fields - {"action_references"} <= set(config["network"]) <= fields:
        raise ModelFileError(f"{path}: network fields {sorted(config['network'])}; allowed: {sorted(fields)}")
    return NetShape(**config["network"]).check(str(path))


def load_net(path: str | Path, optimizer_for: bool = False) -> tuple[PolicyValueNet, dict[str, Any], Any]:
    """(network in eval mode, its config, Adam with the file's moments or None). The file's layout is
    checked against this mk_env's for its game."""
    config = read_net_config(path)
    mine = env_layout(config["players"], json.dumps(config["game_options"], sort_keys=True), path,
                      config["game"])
    if (config["env"], config["layout_fingerprint"]) != mine:
        raise ModelFileError(f"{path} was trained on {config['env']} with layout {config['layout_fingerprint']} "
                             f"({config['game']}, {config['players']} players); this mk_env has {mine[0]} "
                             f"with layout {mine[1]}: retrain the network")
    net = PolicyValueNet(net_shape(config, path))
    tensors = _read_tensors(path)
    weights = {k[4:]: v for k, v in tensors.items() if k.startswith("net/")}
    try:
        net.load_state_dict(weights, strict=True)
    except RuntimeError as e:
        raise ModelFileError(f"{path}: the weights do not fit the network described: {e}") from None
    features = net.policy.action_features
    problem = features.table_problem(net.shape.observation_size) if features is not None else None
    if problem:
        raise ModelFileError(f"{path}: {problem}; the file is corrupt: retrain or re-save the network")
    opt = None
    if optimizer_for:
        opt = adam(net.parameters())
        if config.get("optimizer"):
            _load_optimizer(opt, config["optimizer"], tensors, path)
    net.eval()
    return net, config, opt


def check_net_game(config: dict[str, Any], game: Any, spec: str) -> None:
    """Refuse a game the network cannot read (another game, or another layout of it)."""
    name = game_name(game)
    if name != config["game"]:
        raise ValueError(f"{spec} was trained for {config['game']}; this game is {name}")
    mine = env_module(name).layout_fingerprint(game)
    if mine != config["layout_fingerprint"]:
        raise ValueError(f"{spec} was trained for {config['players']} players (layout "
                         f"{config['layout_fingerprint']}); this game has {game.num_players} players "
                         f"and layout {mine}: the network cannot read it")


__all__ = ["FORMAT", "FORMAT_VERSION", "SUFFIX", "ActionFeatures", "LegalActionHead", "NetShape",
           "PolicyValueNet", "SparseBatch", "action_references", "adam", "check_net_game", "egocentric",
           "load_net", "net_shape", "new_net", "observer_of", "pad_legal", "read_net_config", "save_net",
           "seat_values", "shape_for", "unpad"]
