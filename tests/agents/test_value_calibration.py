"""benchmarks/value_calibration.py: the likelihood of results under ``tanh(margin / scale)``, the grid fit
finding the scale that made the data, one record per turn start, bad arguments refused."""

from __future__ import annotations

import numpy as np
import pytest
from script_loader import load_script


@pytest.fixture(scope="module")
def calibration():
    return load_script("benchmarks/value_calibration.py")


def test_the_fit_finds_the_scale_and_offset_that_made_the_results(calibration) -> None:
    rng = np.random.default_rng(0)
    margin = rng.normal(0, 30, 20000)
    won = (rng.random(len(margin)) < (1 + np.tanh((margin + 5) / 20)) / 2).astype(float)
    scale, offset, ll = calibration.best_fit(margin, won)
    assert abs(scale - 20) <= 2 and abs(offset - 5) <= 2
    assert ll >= calibration.log_likelihood(margin, won, 10.0) > -np.log(2) * 2
    assert calibration.turns_scale(np.array([0.0, 5.0, 20.0])).tolist() == [12.0, 27.0, 45.0]


def test_a_game_gives_one_record_per_turn_start(calibration) -> None:
    rows = calibration.turn_starts(2000)
    assert len(rows) > 20
    results = {r[3] for r in rows}
    assert results <= {0.0, 0.5, 1.0} and all(r[1] >= 0 for r in rows)


def test_bad_arguments_are_refused(calibration) -> None:
    with pytest.raises(SystemExit, match="--games must be >= 1"):
        calibration.main(["--games", "0"])
