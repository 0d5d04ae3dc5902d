"""Feature extractors for Stable-Baselines3 policies on the mk_env observation.

They live in the agents layer because ``ppo:PATH`` models are rebuilt here: a safe model file
names its extractor by its key in :data:`EXTRACTORS` (:mod:`agents.policy_file`), never by a pickled
class path. Only torch and stable_baselines3 are imported.

:class:`MountainKingExtractor` reads the observation the way the game is laid out: the board
``(C, H, W)`` as a grid through a small CNN, every other array (horde, trollsmoots, players,
spellbook, supply, pedestal track, turn, pending sub-decision, draft) flattened through an MLP, the two
joined by one more layer. :class:`FlatExtractor` flattens everything into one MLP (the comparison
baseline of ``docs/training.md``).
"""

from __future__ import annotations

import gymnasium
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

BOARD_KEY = "board"


def _flat_size(space: gymnasium.spaces.Box) -> int:
    size = 1
    for d in space.shape:
        size *= int(d)
    return size


class MountainKingExtractor(BaseFeaturesExtractor):
    """Board through a small CNN, everything else through an MLP, joined into ``features_dim``."""

    def __init__(self, observation_space: gymnasium.spaces.Dict, cnn_channels: int = 32,
                 board_dim: int = 128, rest_dim: int = 128, features_dim: int = 256):
        super().__init__(observation_space, features_dim)
        board = observation_space[BOARD_KEY]
        channels, height, width = board.shape
        self.rest_keys = sorted(k for k in observation_space.spaces if k != BOARD_KEY)
        self.cnn = nn.Sequential(
            nn.Conv2d(channels, cnn_channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(cnn_channels, cnn_channels, 3, stride=2, padding=1), nn.ReLU(),
            nn.Flatten())
        with torch.no_grad():
            cnn_out = self.cnn(torch.zeros(1, channels, height, width)).shape[1]
        self.board_fc = nn.Sequential(nn.Linear(cnn_out, board_dim), nn.ReLU())
        rest_in = sum(_flat_size(observation_space[k]) for k in self.rest_keys)
        self.rest_mlp = nn.Sequential(nn.Linear(rest_in, rest_dim), nn.ReLU())
        self.join = nn.Sequential(nn.Linear(board_dim + rest_dim, features_dim), nn.ReLU())

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        board = self.board_fc(self.cnn(observations[BOARD_KEY]))
        rest = torch.cat([observations[k].flatten(1) for k in self.rest_keys], dim=1)
        return self.join(torch.cat([board, self.rest_mlp(rest)], dim=1))


class FlatExtractor(BaseFeaturesExtractor):
    """Every array flattened and concatenated, then one hidden layer."""

    def __init__(self, observation_space: gymnasium.spaces.Dict, features_dim: int = 256):
        super().__init__(observation_space, features_dim)
        self.keys = sorted(observation_space.spaces)
        size = sum(_flat_size(observation_space[k]) for k in self.keys)
        self.mlp = nn.Sequential(nn.Linear(size, features_dim), nn.ReLU())

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        return self.mlp(torch.cat([observations[k].flatten(1) for k in self.keys], dim=1))


#: ``--extractor`` name -> class
EXTRACTORS: dict[str, type[BaseFeaturesExtractor]] = {
    "cnn": MountainKingExtractor,
    "flat": FlatExtractor,
}
