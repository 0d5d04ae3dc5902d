"""``mk-env evaluate``: a user's agent of a few lines gets its benchmark card in every game (training/card.py), the
protocol is fixed, the ladder's scale is a Bradley-Terry fit and a candidate is placed on it (issue 53, item 2)."""

from __future__ import annotations

import json
import math
import textwrap

import pytest

from agents import make_agent
from mk_env.core.errors import IllegalActionError
from mk_env.games import game_names
from training.card import GAMES_PER_RUNG, card_of, protocol, run_card, schedule
from training.card_cli import resolve_spec
from training.card_scale import _p, fit_scale, rating_on
from training.cli import main
from training.play import run_game

#: the user's agent of the docs: a policy on the game's own observation, five lines
USER_MODULE = textwrap.dedent('''
    import numpy as np

    class FirstLegal:
        def __call__(self, observation, action_mask):
            assert isinstance(observation, dict) and action_mask.dtype == np.int8
            return int(np.flatnonzero(action_mask)[0])

    def illegal(observation, action_mask):
        return int(np.flatnonzero(action_mask == 0)[0])

    class Protocol:
        def act(self, view, rng):
            return int(view.legal_actions()[-1])
''')


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """``mine.py`` in the current folder, as a user would have it."""
    (tmp_path / "mine.py").write_text(USER_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("game", game_names())
def test_a_user_policy_of_a_few_lines_gets_a_card_in_every_game(game, user_module, capsys) -> None:
    players = 3 if game != "mountain_king" else 2
    assert main(["evaluate", "mine:FirstLegal", "--game", game, "--players", str(players), "--rungs", "random",
                 "--games-per-rung", str(players), "--workers", "1", "--out", str(user_module / "cards")]) == 0
    folder = user_module / "cards" / f"{game}-{players}p" / "mine_FirstLegal"
    card = json.loads((folder / "card.json").read_text())
    assert (folder / "card.png").stat().st_size > 0 and "| `random` |" in (folder / "card.md").read_text()
    fig = card["rungs"]["random"]
    assert card["candidate"] == "mine:FirstLegal" and card["protocol"]["standard"] is False
    assert fig["games"] == players and 0 <= fig["win_rate"] <= 1 and fig["pairs"] == players * (players - 1)
    assert fig["decisions"] > 0 and fig["ms_per_decision"] > 0
    games = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert sorted(g["seat"] for g in games) == list(range(players))  # the candidate's seat rotated
    assert "card: " in capsys.readouterr().out
    if game == "mountain_king":  # its committed scale (training/ladder/mountain_king-2p.json) rates the card
        assert card["rating"]["elo"] < card["rating"]["scale"]["ratings"]["heuristic"]


def test_the_protocol_deals_the_same_games_to_every_candidate() -> None:
    proto = protocol("cave_troll", 3)
    assert proto["standard"] and proto["rungs"] == ["random", "heuristic", "mcts:16"]
    assert proto["games_per_rung"] == GAMES_PER_RUNG[3] and GAMES_PER_RUNG[3] % 3 == 0
    a, b = schedule("x:A", proto), schedule("y:B", proto)
    assert [(j["seed"], j["seat"], j["rung"]) for j in a] == [(j["seed"], j["seat"], j["rung"]) for j in b]
    assert all(j["agents"][j["seat"]] == "x:A" and j["agents"].count(j["rung"]) == 2 for j in a)
    own = protocol("cave_troll", 3, candidate="heuristic")  # a rung's own card: the other rungs
    assert own["rungs"] == ["random", "mcts:16"] and own["standard"]
    assert protocol("cave_troll", 3, seed_set=1)["seed_set"] == 1


@pytest.mark.parametrize("kwargs, match", [
    ({"players": 5, "game": "cave_troll"}, "is for 2, 3, 4"),
    ({"rungs": ["mcts:99"]}, "the rungs of mountain_king at 2 players are random, heuristic"),
    ({"seed_set": 9}, "use 0"),
    ({"games_per_rung": 0}, "at least 1"),
])
def test_a_protocol_outside_the_allowed_is_refused(kwargs, match) -> None:
    args = {"game": "mountain_king", "players": 2, **kwargs}
    with pytest.raises(ValueError, match=match):
        protocol(**args)


def test_the_4_player_ladder_leaves_the_2_player_networks_out() -> None:
    assert protocol("mountain_king", 4)["rungs"] == ["random", "heuristic", "mcts:16"]


def test_a_card_resumes_and_refuses_another_protocol_in_its_folder(tmp_path) -> None:
    proto = protocol("mountain_king", 2, rungs=["random"], games_per_rung=2)
    first = run_card("random", {**proto, "rungs": ["random"]}, tmp_path)
    log = (tmp_path / "games.jsonl").read_text()
    again = run_card("random", {**proto, "rungs": ["random"]}, tmp_path)
    assert (tmp_path / "games.jsonl").read_text() == log and again["rungs"] == first["rungs"]
    with pytest.raises(ValueError, match="other settings"):
        run_card("random", {**proto, "games_per_rung": 4}, tmp_path)


def _figures(elo: float, other: float, pairs: int) -> dict:
    share = _p(elo - other)
    return {"head_to_head": share, "pairs": pairs}


def test_the_scale_recovers_known_ratings_and_places_a_candidate() -> None:
    true = {"random": 0.0, "heuristic": 300.0, "mcts:16": 500.0}
    cards = {a: {"rungs": {b: _figures(true[a], true[b], 100_000) for b in true if b != a}} for a in true}
    fitted = fit_scale(cards, list(true))
    assert all(abs(fitted[r] - true[r]) < 2 for r in true)
    scale = {"game": "g", "players": 2, "protocol_version": 1, "ratings": fitted}
    placed = rating_on(scale, {r: _figures(400.0, true[r], 100_000) for r in true})
    assert abs(placed["elo"] - 400) < 2 and placed["elo_ci95"][0] < placed["elo"] < placed["elo_ci95"][1]
    never = rating_on(scale, {r: {"head_to_head": 0.0, "pairs": 40} for r in true})
    assert math.isfinite(never["elo"]) and never["elo"] < 0  # a candidate that never wins stays finite
    assert rating_on(scale, {"other": {"head_to_head": 1.0, "pairs": 4}}) is None


def test_card_statistics_count_shared_first_places_as_shares() -> None:
    games = [{"rung": "random", "seat": 0, "ranks": [0, 0], "scores": [10, 10], "decisions": 5, "seconds": 0.5},
             {"rung": "random", "seat": 1, "ranks": [1, 0], "scores": [3, 9], "decisions": 5, "seconds": 0.5}]
    card = card_of("x:A", protocol("mountain_king", 2, rungs=["random"]), games)
    fig = card["rungs"]["random"]
    assert fig["wins"] == 1.5 and fig["head_to_head"] == 0.75 and fig["margin"] == 3.0
    assert fig["ms_per_decision"] == 100.0 and card["points"] == "honour" and card["rating"] is None


def test_model_files_resolve_to_their_kind() -> None:
    assert resolve_spec("agents/checkpoints/default.safetensors").startswith("ppo:")
    assert resolve_spec("agents/checkpoints/aznet_default.safetensors").startswith("aznet:")
    with pytest.raises(ValueError, match="unknown agent spec"):
        resolve_spec("nothing-like-it")


def test_user_agents_of_both_kinds_play_and_an_illegal_choice_is_refused(user_module) -> None:
    assert run_game(["mine:Protocol", "random"], 3).is_terminal()
    with pytest.raises(IllegalActionError, match="agent 'mine:illegal' chose action .* not legal here"):
        run_game(["mine:illegal", "random"], 3)
    with pytest.raises(ValueError, match="module 'mine' has no 'Nothing'"):
        make_agent("mine:Nothing")
    with pytest.raises(ValueError, match="no module 'not_a_module_here'"):
        make_agent("not_a_module_here:X")


@pytest.mark.parametrize("argv, message", [
    (["evaluate"], "give the SPEC"),
    (["evaluate", "random", "--ladder"], "give no SPEC"),
    (["evaluate", "random", "--players", "9"], "argument --players"),
])
def test_evaluate_misuse_is_one_line(argv, message, capsys) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
