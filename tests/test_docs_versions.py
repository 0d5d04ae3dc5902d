"""Code in the docs and notebooks names each game's current environment version: after a version bump (one
line, a game's ``ENV_VERSION``) this test lists every sample that still names an older id, which would raise
``RetiredVersionError`` or Gymnasium's ``DeprecatedEnv`` when a reader runs it. Prose may name older versions
(the Version histories do)."""

from __future__ import annotations

import re
from pathlib import Path

from mk_env.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"```(?:python|bash|sh)?\n(.*?)```", re.S)


def code_samples() -> dict[str, str]:
    """Each document's fenced code (docs/history left out: it records the past) and each notebook source."""
    samples = {}
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        if "history" not in path.relative_to(ROOT).parts:
            samples[str(path.relative_to(ROOT))] = "\n".join(FENCE.findall(path.read_text()))
    for path in [ROOT / "notebooks" / "build_notebooks.py", *sorted((ROOT / "benchmarks").glob("*.py"))]:
        samples[str(path.relative_to(ROOT))] = path.read_text()
    return samples


def retired_ids(text: str) -> list[str]:
    """The ids of older versions ``text`` names (PettingZoo's ``<game>_v<N>``, Gymnasium's ``<Name>-v<N>``)."""
    found = []
    for entry in GAMES.values():
        current = entry.env_version()
        pattern = rf"\b{entry.name}_v(\d+)\b|mk_env/{entry.gymnasium_name}-v(\d+)\b"
        for match in re.finditer(pattern, text):
            version = int(match.group(1) or match.group(2))
            if version != current:
                found.append(match.group(0))
    return found


def test_code_in_the_docs_names_the_current_versions():
    stale = {name: ids for name, text in code_samples().items() if (ids := retired_ids(text))}
    current = ", ".join(entry.env_name() for entry in GAMES.values())
    assert not stale, f"code samples name older environment versions (current: {current}): {stale}"
