"""A policy whose action head follows the action layout's blocks: P(block) x P(argument | block).

The flat action space of a game is a sequence of *blocks* (:class:`mk_env.mountain_king.rules.actions.ActionLayout`:
19 blocks, 9,790 actions for two players). A flat masked categorical pays for every one of the 9,790
logits at every decision; this head draws the block first (a masked categorical over the blocks that
hold a legal action), then the argument inside that block (a masked categorical over the block's legal
arguments), and computes argument logits only for the blocks it needs:

* acting (:meth:`FactorisedHead.sample`): the chosen block's arguments only;
* the log-probability of given actions (:meth:`FactorisedHead.log_prob`): the actions' blocks only;
* the entropy (:meth:`FactorisedHead.entropy`): every block legal in the row (exact:
  ``H = H(block) + sum_b P(b) H(argument | b)``);
* :meth:`FactorisedHead.flat_log_probs`: the whole masked distribution over the flat actions (tests,
  search targets), ``log P(a) = log P(block(a)) + log P(a | block(a))`` and ``-inf`` where illegal.

Every distribution is exact under the mask: an illegal action has probability 0, and the legal ones
sum to 1. The head is reusable: it takes only the layout's block sizes (:func:`block_sizes`) and the
width of the features it reads; :class:`FactorisedPolicy` puts it on a features module
(:class:`ObservationFeatures`: the flat observation vector, the board slice through a 1x1 convolution)
with a value head, and answers ``predict(observation, action_masks, deterministic)`` like a
Stable-Baselines3 policy, so ``ppo:PATH``, the gauntlet and the opponent pool use it unchanged
(model files: :mod:`agents.factorised_file`). Only numpy and torch are imported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

#: the logit of an illegal choice: exp() of it is exactly 0 in float32, and 0 * it is 0 (no NaN)
MASKED = -1e9
BOARD_KEY = "board"
#: an observation slice: (start, stop, shape) in the flat vector, as ``Observer.slices`` gives
Slices = Mapping[str, tuple[int, int, Sequence[int]]]


def block_sizes(layout: Any) -> tuple[int, ...]:
    """The sizes of a game's action blocks in layout order (``layout.sizes`` read in the order of
    ``layout.offset``); they sum to ``layout.size``."""
    sizes = tuple(int(layout.sizes[b]) for b in layout.offset)
    if sum(sizes) != int(layout.size):
        raise ValueError(f"the layout's blocks sum to {sum(sizes)} actions, not its size {layout.size}")
    return sizes


class FactorisedHead(nn.Module):
    """Block logits (one linear layer) and argument logits (one linear layer whose rows are the flat
    actions; block ``b`` reads its own rows only). ``h``: features ``[B, features_dim]``; ``mask``:
    the legal actions, bool ``[B, N]`` (numpy or torch)."""

    def __init__(self, features_dim: int, sizes: Sequence[int]):
        super().__init__()
        if not sizes or any(int(s) < 0 for s in sizes) or sum(sizes) < 1:
            raise ValueError(f"block sizes {list(sizes)!r}: need non-negative sizes with at least one action")
        self.sizes = tuple(int(s) for s in sizes)
        self.offsets = tuple(int(x) for x in np.concatenate([[0], np.cumsum(self.sizes)[:-1]]))
        self.n_actions = int(sum(self.sizes))
        self.blocks = nn.Linear(features_dim, len(self.sizes))
        self.arguments = nn.Linear(features_dim, self.n_actions)
        self._nonempty = [b for b, s in enumerate(self.sizes) if s > 0]
        self._starts = np.array([self.offsets[b] for b in self._nonempty])
        self.register_buffer("block_of", torch.as_tensor(
            np.repeat(np.arange(len(self.sizes)), self.sizes), dtype=torch.long), persistent=False)

    # -- masks ----------------------------------------------------------------------------------------
    def block_legal(self, mask: np.ndarray) -> np.ndarray:
        """Bool ``[B, blocks]``: which blocks hold a legal action in each row."""
        mask = np.asarray(mask, dtype=bool).reshape(-1, self.n_actions)
        out = np.zeros((mask.shape[0], len(self.sizes)), dtype=bool)
        out[:, self._nonempty] = np.logical_or.reduceat(mask, self._starts, axis=1)
        return out

    def _masks(self, mask: Any, legal: Any = None) -> tuple[torch.Tensor, torch.Tensor]:
        """(action mask, block mask) as torch bool tensors; ``legal``: :meth:`block_legal`, when known."""
        if isinstance(mask, torch.Tensor):
            mask_t = mask.to(torch.bool)
            legal = self.block_legal(mask_t.numpy()) if legal is None else legal
        else:
            mask_np = np.asarray(mask, dtype=bool).reshape(-1, self.n_actions)
            legal = self.block_legal(mask_np) if legal is None else legal
            mask_t = torch.from_numpy(mask_np)
        legal_t = torch.as_tensor(legal, dtype=torch.bool)
        if not bool(legal_t.any(1).all()):
            raise ValueError("a row of the action mask has no legal action: nothing can be chosen")
        return mask_t, legal_t

    # -- the two levels ---------------------------------------------------------------------------
    def block_log_probs(self, h: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
        """``log P(block)`` ``[B, blocks]`` over the legal blocks (:data:`MASKED` elsewhere)."""
        return F.log_softmax(self.blocks(h).masked_fill(~legal, MASKED), dim=-1)

    def argument_log_probs(self, h: torch.Tensor, mask: torch.Tensor, block: int) -> torch.Tensor:
        """``log P(argument | block)`` ``[B, size]`` of the rows ``h`` (all in need of ``block``)."""
        lo, size = self.offsets[block], self.sizes[block]
        logits = F.linear(h, self.arguments.weight[lo:lo + size], self.arguments.bias[lo:lo + size])
        return F.log_softmax(logits.masked_fill(~mask[:, lo:lo + size], MASKED), dim=-1)

    # -- what PPO needs ---------------------------------------------------------------------------
    def evaluate(self, h: torch.Tensor, mask: Any, actions: torch.Tensor | None = None,
                 entropy: bool = True, legal: Any = None) -> tuple[torch.Tensor | None, torch.Tensor | None]:
        """(``log P(actions)`` shaped like ``actions`` ([B] or [B, K]), entropy ``[B]``), exact
        under the mask; each is ``None`` when not asked for. ``legal``: :meth:`block_legal`, when known."""
        mask_t, legal_t = self._masks(mask, legal)
        block_lp = self.block_log_probs(h, legal_t)
        ent = log_p = act_block = None
        if entropy:
            ent = -(block_lp.exp() * block_lp).sum(-1)
        if actions is not None:
            acts = actions.reshape(h.shape[0], -1).long()
            act_block = self.block_of[acts]
            log_p = block_lp.gather(1, act_block)
        for b in self._nonempty:
            if self.sizes[b] == 1:  # one argument: log P(argument | b) = 0, no entropy
                continue
            need = legal_t[:, b] if entropy else torch.zeros_like(legal_t[:, b])
            if act_block is not None:
                need = need | (act_block == b).any(1)
            rows = need.nonzero().squeeze(1)
            if rows.numel() == 0:
                continue
            arg_lp = self.argument_log_probs(h[rows], mask_t[rows], b)
            if ent is not None:
                part = -(arg_lp.exp() * arg_lp).sum(-1) * block_lp[rows, b].exp()
                ent = ent.index_add(0, rows, part)
            if act_block is not None:
                mine = act_block[rows] == b
                args = (acts[rows] - self.offsets[b]).clamp(0, self.sizes[b] - 1)
                log_p = log_p.index_add(0, rows, torch.where(mine, arg_lp.gather(1, args), 0.0))
        if log_p is not None:
            log_p = log_p.reshape(actions.shape)
        return log_p, ent

    def log_prob(self, h: torch.Tensor, mask: Any, actions: torch.Tensor) -> torch.Tensor:
        """``log P(actions)`` ([B] or [B, K]); an illegal action's is about :data:`MASKED`."""
        return self.evaluate(h, mask, actions, entropy=False)[0]

    def entropy(self, h: torch.Tensor, mask: Any) -> torch.Tensor:
        """The exact entropy ``[B]`` of the masked factorised distribution."""
        return self.evaluate(h, mask, None, entropy=True)[1]

    @torch.no_grad()
    def sample(self, h: torch.Tensor, mask: Any, greedy: bool = False,
               generator: torch.Generator | None = None, legal: Any = None
               ) -> tuple[torch.Tensor, torch.Tensor]:
        """(actions ``[B]``, their ``log P``). Sampling draws the block, then the argument in it;
        ``greedy`` takes the most likely flat action (the best argument of every legal block). No
        gradient flows through it (:meth:`evaluate` gives differentiable log-probabilities)."""
        mask_t, legal_t = self._masks(mask, legal)
        block_lp = self.block_log_probs(h, legal_t)
        if greedy:
            return self._mode(h, mask_t, legal_t, block_lp)
        blocks = _draw(block_lp, generator)
        actions = torch.as_tensor(self.offsets, dtype=torch.long)[blocks]
        log_p = block_lp.gather(1, blocks[:, None]).squeeze(1)
        for b in blocks.unique().tolist():
            if self.sizes[b] == 1:
                continue
            rows = (blocks == b).nonzero().squeeze(1)
            arg_lp = self.argument_log_probs(h[rows], mask_t[rows], b)
            args = _draw(arg_lp, generator)
            actions[rows] += args
            log_p[rows] += arg_lp.gather(1, args[:, None]).squeeze(1)
        return actions, log_p

    def _mode(self, h: torch.Tensor, mask: torch.Tensor, legal: torch.Tensor,
              block_lp: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The most likely flat action of each row and its ``log P``: over the legal blocks,
        ``log P(b) + max log P(argument | b)``."""
        best = torch.full((h.shape[0],), -float("inf"))
        actions = torch.zeros(h.shape[0], dtype=torch.long)
        for b in self._nonempty:
            rows = legal[:, b].nonzero().squeeze(1)
            if rows.numel() == 0:
                continue
            if self.sizes[b] == 1:
                value, arg = block_lp[rows, b], torch.zeros_like(rows)
            else:
                top, arg = self.argument_log_probs(h[rows], mask[rows], b).max(1)
                value = block_lp[rows, b] + top
            better = value > best[rows]
            best[rows] = torch.where(better, value, best[rows])
            actions[rows] = torch.where(better, self.offsets[b] + arg, actions[rows])
        return actions, best

    def flat_log_probs(self, h: torch.Tensor, mask: Any) -> torch.Tensor:
        """``log P(a)`` for every flat action ``[B, N]``: ``-inf`` where illegal (all blocks computed:
        for tests and search targets, not for acting)."""
        mask_t, legal_t = self._masks(mask)
        block_lp = self.block_log_probs(h, legal_t)
        logits = self.arguments(h).masked_fill(~mask_t, MASKED)
        parts = []
        for b, (lo, size) in enumerate(zip(self.offsets, self.sizes)):
            if size:
                parts.append(F.log_softmax(logits[:, lo:lo + size], -1) + block_lp[:, b:b + 1])
        return torch.cat(parts, 1).masked_fill(~mask_t, -float("inf"))


def _draw(log_p: torch.Tensor, generator: torch.Generator | None) -> torch.Tensor:
    """One index per row drawn from ``exp(log_p)`` (inverse CDF: cheaper than ``multinomial`` on small
    batches; a masked entry, of probability exactly 0, is never drawn)."""
    cdf = log_p.exp().cumsum(1)
    u = torch.rand(log_p.shape[0], 1, generator=generator) * cdf[:, -1:]
    drawn = torch.searchsorted(cdf, u, right=True).squeeze(1)
    return torch.minimum(drawn, (log_p > MASKED / 2).long().cumsum(1).argmax(1))  # u == total: last legal


class ObservationFeatures(nn.Module):
    """The flat observation vector ``[B, D]`` -> features ``[B, features_dim]``.

    The board slice ``(C, H, W)`` (when the observation has one) goes through a 1x1 convolution to
    ``board_channels`` per square, flattened, into ``board_dim`` units; every other slice, in one
    vector, into ``rest_dim`` units; the two joined by one more layer (ReLU after each). The 1x1
    convolution keeps the cost per decision small (the board is 12,495 of the 13,660 numbers of a
    two-player observation, and nearly all zero)."""

    def __init__(self, slices: Slices, board_channels: int = 8, board_dim: int = 128,
                 rest_dim: int = 128, features_dim: int = 128):
        super().__init__()
        self.features_dim = features_dim
        self.keys = list(slices)
        self.size = max(int(stop) for _, stop, _ in slices.values())
        board = slices.get(BOARD_KEY)
        self.board_shape = tuple(int(x) for x in board[2]) if board and len(board[2]) == 3 else None
        rest = [(int(a), int(b)) for k, (a, b, _) in slices.items()
                if k != BOARD_KEY or self.board_shape is None]
        self.board_span = (int(board[0]), int(board[1])) if self.board_shape else None
        self.register_buffer("rest_index", torch.as_tensor(
            np.concatenate([np.arange(a, b) for a, b in rest]), dtype=torch.long), persistent=False)
        joined = rest_dim
        if self.board_shape:
            channels, height, width = self.board_shape
            self.board_conv = nn.Conv2d(channels, board_channels, 1)
            self.board_fc = nn.Linear(board_channels * height * width, board_dim)
            joined += board_dim
        self.rest_fc = nn.Linear(len(self.rest_index), rest_dim)
        self.join = nn.Linear(joined, features_dim)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        parts = [F.relu(self.rest_fc(obs.index_select(1, self.rest_index)))]
        if self.board_shape:
            a, b = self.board_span
            board = obs[:, a:b].reshape(obs.shape[0], *self.board_shape)
            parts.insert(0, F.relu(self.board_fc(F.relu(self.board_conv(board)).flatten(1))))
        return F.relu(self.join(torch.cat(parts, 1)))


class FactorisedPolicy(nn.Module):
    """Features, the factorised action head and a value head; acts like an SB3 policy.

    ``slices``: the observation's layout (``Observer.slices``); ``sizes``: :func:`block_sizes`;
    ``features_kwargs``: the sizes of :class:`ObservationFeatures` (kept in model files)."""

    def __init__(self, slices: Slices, sizes: Sequence[int], **features_kwargs: int):
        super().__init__()
        self.features_kwargs = dict(features_kwargs)
        self.features = ObservationFeatures(slices, **features_kwargs)
        self.head = FactorisedHead(self.features.features_dim, sizes)
        self.value = nn.Linear(self.features.features_dim, 1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(features ``[B, F]``, value ``[B]``)."""
        h = self.features(obs)
        return h, self.value(h).squeeze(1)

    def flat(self, observation: Any) -> np.ndarray:
        """A float32 ``[B, D]`` batch from a flat vector, a batch of them, or an observation dict
        (its arrays in the observation's key order)."""
        if isinstance(observation, Mapping):
            missing = [k for k in self.features.keys if k not in observation]
            if missing:
                raise ValueError(f"the observation lacks {missing}; the policy reads {self.features.keys}")
            flat = np.concatenate([np.asarray(observation[k], np.float32).ravel() for k in self.features.keys])
        else:
            flat = np.asarray(observation, np.float32)
        flat = flat.reshape(-1, flat.shape[-1]) if flat.ndim else flat
        if flat.ndim != 2 or flat.shape[1] != self.features.size:
            raise ValueError(f"observation of shape {np.shape(observation)}: the policy reads "
                             f"{self.features.size} numbers per row")
        return flat

    @torch.inference_mode()
    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False,
            generator: torch.Generator | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A batch of decisions: (actions, their log-probabilities, values), numpy ``[B]`` each."""
        h, value = self(torch.from_numpy(np.ascontiguousarray(obs, np.float32)))
        actions, log_p = self.head.sample(h, mask, greedy=greedy, generator=generator)
        return actions.numpy(), log_p.numpy(), value.numpy()

    def predict(self, observation: Any, action_masks: np.ndarray | None = None,
                deterministic: bool = False, state: Any = None, episode_start: Any = None
                ) -> tuple[np.ndarray, None]:
        """Stable-Baselines3's ``policy.predict``: the action (0-d for one observation)."""
        if action_masks is None:
            raise ValueError("FactorisedPolicy.predict needs action_masks (the legal actions)")
        obs = self.flat(observation)
        mask = np.asarray(action_masks, dtype=bool).reshape(obs.shape[0], -1)
        actions = self.act(obs, mask, greedy=deterministic)[0]
        one = isinstance(observation, Mapping) or np.ndim(observation) == 1
        return (actions.reshape(()) if one else actions), None

    def set_training_mode(self, mode: bool) -> None:
        """SB3's spelling of ``train(mode)``."""
        self.train(mode)
