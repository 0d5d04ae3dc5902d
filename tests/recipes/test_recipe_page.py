"""docs/ecosystem.md: every Python block is a recipe, and every recipe has its test module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recipe_page import ECOSYSTEM, recipes

HERE = Path(__file__).resolve().parent


def test_every_python_block_of_the_page_is_a_named_recipe():
    text = ECOSYSTEM.read_text()
    assert len(re.findall(r"^```python$", text, re.MULTILINE)) == len(recipes(text)) >= 6


def test_every_recipe_has_a_test_module_and_every_module_a_recipe():
    names = set(recipes())
    modules = {p.stem.removeprefix("test_recipe_") for p in HERE.glob("test_recipe_*.py")} - {"page"}
    assert names == modules


def test_each_venv_recipe_has_a_requirements_file_pinning_torch():
    for path in HERE.glob("requirements-*.txt"):
        assert (HERE / f"test_recipe_{path.stem.removeprefix('requirements-')}.py").is_file(), path
        assert "torch==2.13.0" in path.read_text().split(), f"{path} must pin torch==2.13.0"
    assert {p.stem for p in HERE.glob("requirements-*.txt")} >= {
        "requirements-torchrl", "requirements-tianshou", "requirements-rllib", "requirements-agilerl"}


def test_a_recipe_named_twice_is_an_error():
    block = "<!-- recipe: x -->\n```python\npass\n```\n"
    with pytest.raises(ValueError, match="given twice"):
        recipes(block + block)
