"""The README's ladder tables, generated from the committed benchmark cards (issue 53: "the README's tables are
generated from them").

A table stands in the README between ``<!-- ladder GAME-Np -->`` and ``<!-- /ladder -->``. It lists each rung of
the ladder's scale (``training/ladder/GAME-Np.json``) with its rating on the scale, the rating of its own card
(``docs/ladder/GAME-Np/<rung>/card.json``) with its interval, its time a decision and a link to the card.

    python -m training.ladder_readme            # rewrite the tables of README.md from the cards
    python -m training.ladder_readme --check    # exit 1 if a table is not what the cards give

``tests/training/test_ladder_readme.py`` runs the check, so a card re-made without its table fails CI.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from .card_cli import card_folder

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- ladder (?P<key>[\w]+-\d+p) -->\n)(?P<body>.*?)(<!-- /ladder -->)", re.DOTALL)


def ladder_table(key: str, root: Path = ROOT) -> str:
    """The markdown table of ladder ``key`` (``GAME-Np``) from its scale and its rungs' cards."""
    scale = json.loads((root / "training" / "ladder" / f"{key}.json").read_text())
    game, players = scale["game"], int(scale["players"])
    lines = ["| rung | on the ladder's scale | its own card (95% CI) | ms a decision | card |",
             "|---|---:|---:|---:|---|"]
    for spec, rating in sorted(scale["ratings"].items(), key=lambda item: item[1]):
        folder = card_folder(root / "docs" / "ladder", game, players, spec)
        card = json.loads((folder / "card.json").read_text())
        own = card["rating"]
        low, high = own["elo_ci95"]
        link = (folder / "card.md").relative_to(root).as_posix()
        lines.append(f"| `{spec}` | {_whole(rating)} | {_whole(own['elo'])} ({_whole(low)} to {_whole(high)}) | "
                     f"{card['ms_per_decision']:.1f} | [{spec}]({link}) |")
    protocol = f"protocol {scale['protocol_version']}, seed set {scale['seed_set']}"
    return "\n".join(lines) + f"\n\n({game}, {players} players, {protocol}.)\n"


def _whole(x: float) -> int:
    """``x`` rounded to a whole number (never "-0")."""
    return int(round(x)) + 0


def update(text: str, root: Path = ROOT) -> str:
    """``text`` with every ladder table rewritten from the cards."""
    return BLOCK.sub(lambda m: m.group(1) + ladder_table(m.group("key"), root) + m.group(4), text)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="exit 1 if a table differs from what the cards give")
    p.add_argument("--readme", type=Path, default=ROOT / "README.md")
    a = p.parse_args(argv)
    text = a.readme.read_text()
    if not BLOCK.search(text):
        raise SystemExit(f"{a.readme}: no '<!-- ladder GAME-Np -->' block")
    fresh = update(text)
    if a.check:
        if fresh != text:
            print(f"{a.readme}: a ladder table differs from its cards; run: python -m training.ladder_readme")
            return 1
        return 0
    a.readme.write_text(fresh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
