"""Recipe ``sb3`` of docs/ecosystem.md: MaskablePPO on the registered single-seat view."""

import pytest

from recipe_page import run_recipe

pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed: pip install -e '.[train]'")


def test_sb3_recipe_learns_and_predicts_a_legal_action():
    ns = run_recipe("sb3")
    model, env = ns["model"], ns["env"]
    assert model.num_timesteps >= 128
    assert env.action_masks()[int(ns["action"])]
    assert -1.0 <= ns["mean_return"] <= 1.0


def test_sb3_recipe_saved_as_a_script_runs_under_forkserver_and_spawn(tmp_path):
    """Saved as a file and run by Python, as a reader would: SubprocVecEnv starts its env processes by
    forkserver on Linux (spawn elsewhere), which re-import the script; the recipe's ``__main__`` guard keeps
    the work out of them."""
    import os
    import subprocess
    import sys

    from recipe_page import ECOSYSTEM, recipes

    script = tmp_path / "sb3_recipe.py"
    script.write_text(recipes(ECOSYSTEM.read_text())["sb3"])
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}  # one torch thread, as the tests run
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "first action:" in run.stdout
