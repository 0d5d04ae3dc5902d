"""Recipe ``agilerl`` of docs/ecosystem.md (own venv: ``bash tests/recipes/run_in_venv.sh agilerl``)."""

import math

import pytest

from recipe_page import run_recipe

pytest.importorskip("agilerl", reason="AgileRL is not installed: see docs/ecosystem.md")


def test_agilerl_recipe_self_plays_four_games_and_learns():
    ns = run_recipe("agilerl")
    assert ns["game"] == 3 and ns["env"].unwrapped.game_state.is_terminal()
    assert len(ns["memory"]) >= 4 * 10                 # the learner's decisions of four games
    assert ns["losses"] and all(math.isfinite(loss) for loss in ns["losses"])
    assert "illegal_action" not in ns["info"]         # the game ended by the rules
