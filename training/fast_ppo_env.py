"""Many games in one process for :mod:`training.fast_ppo`: the learner's seat in each, its opponents
batched.

:class:`VecGames` holds ``n`` games of one suite game (rules states, no PettingZoo wrapper: the
learner needs only its seat's flat observation, the legal mask and a reward). The learner plays one
seat of each game, drawn at every new game; the other seats are drawn per game from the run's
:class:`~training.selfplay.OpponentPool` (snapshots of the learner, fixed agents). The games move in
*ticks*: in each, every game where the learner is to move takes one learner decision (the learner's
one batched forward, :meth:`VecGames.poll` / :meth:`VecGames.apply`), and every game where an
opponent is to move takes one decision of that opponent (:meth:`VecGames.opponents_move`): the
policies (snapshots, :class:`~training.selfplay.PolicyOpponent`) in **one batched forward per policy**
for all the games where it is to move, the agents (``heuristic``, ``random``...) one by one. So no
game waits for another, and no forward runs for one decision. A finished game is recorded
(:attr:`VecGames.finished`) and replaced by a new one at once.

Rewards (``reward``):

* ``lead`` (default of ``--algo ppo``): the change of the learner's honour lead (its honour minus the
  best other seat's, as if the game ended now) between its decisions, / 100, plus the win reward at
  the end (+1 win, -1/(n-1) otherwise). The lead telescopes: an episode's rewards sum to its final
  lead / 100 plus the win reward, so the shaping says "score more than the best opponent" and
  never pays for points the opponents match (``dense``'s own-honour gain does);
* ``dense``: the learner's own honour change / 100 plus the win reward (the MaskablePPO default);
* ``margin``: the final lead / 100 at the end only; ``win``: the win reward at the end only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.policy_description import env_module
from mk_env.games import make_game
from mk_env.core.view import PlayerView

from .selfplay import OpponentPool, PolicyOpponent

FAST_REWARDS = ("lead", "dense", "margin", "win")
SCALE = 100.0  # honour per unit of reward


class VecGames:
    """``n`` games with the learner in one seat of each; see the module docstring."""

    def __init__(self, n: int, players: int, pool: OpponentPool, reward: str = "lead",
                 game: str = "mountain_king", game_options: dict[str, Any] | None = None, seed: int = 0,
                 generator: Any = None):
        if reward not in FAST_REWARDS:
            raise ValueError(f"--reward {reward!r}: allowed for --algo ppo: {', '.join(FAST_REWARDS)}")
        if n < 1:
            raise ValueError(f"--envs {n}: need at least 1")
        self.n, self.players, self.pool, self.reward = n, players, pool, reward
        self.game = make_game(game, players, **(game_options or {}))
        observer_class = env_module(game).raw_env.observer_class
        self.observers = [observer_class(self.game) for _ in range(n)]  # one each: their memos hold
        self.size = self.observers[0].size
        self.n_actions = int(self.game.layout.size)
        self.rng = np.random.default_rng(seed)
        self.generator = generator  # torch generator of the opponents' sampling (None: torch's own)
        self.states: list[Any] = [None] * n
        self.seats = np.zeros(n, np.int64)
        self.opponents: list[list[Any]] = [[] for _ in range(n)]
        self._lead = np.zeros(n)  # the learner's lead (or own honour, for dense) at its last decision
        self._steps = np.zeros(n, np.int64)
        self.finished: list[dict[str, Any]] = []  # one record per finished game, until the caller takes them
        for i in range(n):
            self._new_game(i)

    def _new_game(self, i: int) -> None:
        self.states[i] = self.game.new_initial_state(int(self.rng.integers(2 ** 63)))
        self.seats[i] = int(self.rng.integers(self.players))
        drawn = self.pool.new_episode(self.rng, self.players - 1)
        self.opponents[i] = drawn[:self.seats[i]] + [None] + drawn[self.seats[i]:]
        self._steps[i] = 0
        self._lead[i] = self._measure(i)

    def _measure(self, i: int) -> float:
        """What the shaped reward differences: the lead (``lead``), own honour (``dense``), else 0."""
        if self.reward not in ("lead", "dense"):
            return 0.0
        st, seat = self.states[i], int(self.seats[i])
        totals = [st.score_breakdown(p)["total"] for p in range(self.players)]
        if self.reward == "dense":
            return totals[seat] / SCALE
        return (totals[seat] - max(t for p, t in enumerate(totals) if p != seat)) / SCALE

    # -- the learner's side ---------------------------------------------------------------------------
    def poll(self) -> tuple[np.ndarray, np.ndarray, list[tuple[int, float]]]:
        """Finish the games that ended (each replaced by a new one) and find the learner's turns:
        (games where the learner is to move, the reward of each since the learner's previous decision
        in that game, ``[(game, last reward)]`` of the games that ended)."""
        ended = [(i, self._finish(i)) for i in range(self.n) if self.states[i].is_terminal()]
        ready = np.array([i for i in range(self.n) if self.states[i].current_player() == self.seats[i]],
                         np.int64)
        rewards = np.zeros(len(ready), np.float32)
        for k, i in enumerate(ready.tolist()):
            now = self._measure(i)
            rewards[k], self._lead[i] = now - self._lead[i], now
        return ready, rewards, ended

    def observe(self, games: np.ndarray, seats: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(observations float32 ``[k, D]``, legal masks bool ``[k, A]``) of ``seats`` (default: the
        learner's) in ``games``."""
        seats = self.seats[games] if seats is None else seats
        obs = np.empty((len(games), self.size), np.float32)
        mask = np.zeros((len(games), self.n_actions), bool)
        for row, (i, seat) in enumerate(zip(games.tolist(), seats.tolist())):
            obs[row] = self.observers[i].encode_flat(self.states[i], seat)
            mask[row, self.states[i].legal_actions()] = True
        return obs, mask

    def apply(self, games: np.ndarray, actions: np.ndarray) -> None:
        """The learner's decisions in ``games``."""
        for i, a in zip(games.tolist(), actions.tolist()):
            self.states[i].apply(a)
            self._steps[i] += 1

    # -- the opponents' side ------------------------------------------------------------------------
    def opponents_move(self) -> int:
        """One decision in every game where an opponent is to move; how many."""
        batches: dict[int, tuple[Any, list[int], list[int]]] = {}
        moved = 0
        for i, st in enumerate(self.states):
            if st.is_terminal():
                continue
            seat = st.current_player()
            if seat == self.seats[i]:
                continue
            opponent = self.opponents[i][seat]
            moved += 1
            if isinstance(opponent, PolicyOpponent):
                policy = opponent.load()
                batches.setdefault(id(policy), (policy, [], []))
                batches[id(policy)][1].append(i)
                batches[id(policy)][2].append(seat)
            else:
                st.apply(int(opponent.act(PlayerView(st, seat), self.rng)))
        for policy, games, seats in batches.values():
            obs, mask = self.observe(np.array(games), np.array(seats))
            for i, a in zip(games, policy.act(obs, mask, generator=self.generator)[0].tolist()):
                self.states[i].apply(a)
        return moved

    def _finish(self, i: int) -> float:
        """Record game ``i`` (ended), start its replacement; the learner's last reward."""
        st, seat = self.states[i], int(self.seats[i])
        totals = [st.score_breakdown(p)["total"] for p in range(self.players)]
        best_other = max(t for p, t in enumerate(totals) if p != seat)
        win = float(st.returns()[seat])
        if self.reward == "lead":
            last = (totals[seat] - best_other) / SCALE - self._lead[i] + win
        elif self.reward == "dense":
            last = totals[seat] / SCALE - self._lead[i] + win
        elif self.reward == "margin":
            last = (totals[seat] - best_other) / SCALE
        else:
            last = win
        self.finished.append({"won": st.ranks()[seat] == 0, "honour": totals[seat],
                              "best_other_honour": best_other, "learner_steps": int(self._steps[i]),
                              "opponents": [_name(o) for o in self.opponents[i] if o is not None]})
        self._new_game(i)
        return float(last)


def _name(opponent: Any) -> str:
    if isinstance(opponent, PolicyOpponent):
        return "snapshot"
    return getattr(opponent, "name", type(opponent).__name__)
