"""A benchmark card as people read it: ``card.md`` (the table) and ``card.png`` (win rates with their intervals),
beside ``card.json`` (:mod:`training.card`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mk_env.core.text import printable


def card_markdown(card: dict[str, Any]) -> str:
    """The card as a markdown section: what was measured, one row per rung, the rating."""
    proto, points = card["protocol"], card["points"]
    lines = [f"### `{printable(card['candidate'])}`: {proto['game']}, {proto['players']} players", "",
             f"Protocol {proto['version']} ({proto['env']}; {proto['games_per_rung']} games a rung, the candidate's "
             f"seat rotated; seed set {proto['seed_set']}"
             f"{'' if proto['standard'] else '; not the standard protocol: its rungs or games differ'}). "
             f"{card['ms_per_decision']:.1f} ms a decision.", "",
             f"| rung | games | win rate (95% CI) | above its seats (95% CI) | {points} margin (95% CI) | ms/decision |",
             "|---|---:|---:|---:|---:|---:|"]
    for rung, f in card["rungs"].items():
        lo, hi = f["win_rate_ci95"]
        hlo, hhi = f["head_to_head_ci95"]
        mlo, mhi = f["margin_ci95"]
        lines.append(f"| `{rung}` | {f['games']} | {f['win_rate']:.1%} ({lo:.1%}-{hi:.1%}) | "
                     f"{f['head_to_head']:.1%} ({hlo:.1%}-{hhi:.1%}) | {f['margin']:+.1f} ({mlo:+.1f} to {mhi:+.1f}) | "
                     f"{f['ms_per_decision']:.1f} |")
    rating = card.get("rating")
    lines += ["", _rating_line(rating)]
    return "\n".join(lines) + "\n"


def _rating_line(rating: dict[str, Any] | None) -> str:
    if not rating:
        return "No rating: this game and player count has no ladder scale yet (`mk-env evaluate --ladder`)."
    lo, hi = rating["elo_ci95"]
    rungs = ", ".join(f"`{r}` {v:.0f}" for r, v in rating["scale"]["ratings"].items())
    return (f"Rating on the ladder's scale: **{int(round(rating['elo'])):d}** (95% CI {lo:.0f} to {hi:.0f}; the rungs: "
            f"{rungs}).")


def write_card(card: dict[str, Any], out: Path) -> list[Path]:
    """``card.md`` and ``card.png`` in ``out``."""
    out = Path(out)
    md = out / "card.md"
    md.write_text(card_markdown(card), encoding="utf-8")
    return [md, _chart(card, out / "card.png")]


def _chart(card: dict[str, Any], path: Path) -> Path:
    """Win rate and head-to-head share per rung, with their 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rungs = list(card["rungs"])
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(rungs), 3.2))
    for k, (key, label) in enumerate((("win_rate", "win rate"), ("head_to_head", "above its seats"))):
        xs = [i + (k - 0.5) * 0.35 for i in range(len(rungs))]
        ys = [card["rungs"][r][key] for r in rungs]
        err = [[max(0.0, y - card["rungs"][r][f"{key}_ci95"][0]) for r, y in zip(rungs, ys)],
               [max(0.0, card["rungs"][r][f"{key}_ci95"][1] - y) for r, y in zip(rungs, ys)]]
        ax.bar(xs, ys, width=0.35, yerr=err, capsize=3, label=label)
    ax.set_xticks(range(len(rungs)), rungs, fontsize=8)
    ax.set_ylim(0, 1)
    ax.axhline(1 / card["protocol"]["players"], color="grey", lw=0.8, ls="--")
    rating = card.get("rating")
    title = f"{printable(card['candidate'])}: {card['protocol']['game']}, {card['protocol']['players']} players"
    ax.set_title(title + (f" (rating {rating['elo']:.0f})" if rating else ""), fontsize=9)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
