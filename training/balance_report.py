"""The report of ``mk-env balance`` (:mod:`training.balance`): per seat and per start point, the win rate
(ties split) with a 95% Wilson interval against the fair share ``1/n``, flagged beyond a threshold, and
one verdict, beside the honour margin over the other seats (a finer measure, not read by the verdict); the
book's facts; the views that explain the verdict (each seat on each start point, with its honour margin
there by category; each seat against each other seat; each seat's honour by category; each seat's win rate
by who triggered the end); and the same in words and as a rich table for the command line. Reads only the
records of balance games.
"""

from __future__ import annotations

import math
from typing import Any

from .ratings import wilson_interval, win_shares

DEFAULT_THRESHOLD = 0.05
#: what the book says for each fact reported beside the seats
BOOK = {
    "first_capped": "the rulebook presents filling the trollsmoot first as valuable if well timed",
    "leftover_sets": "1 honour each in the rulebook's scoring example",
}


# ================================================================================================
# the report
# ================================================================================================
def _rate(wins: float, n: int, fair: float, threshold: float) -> dict[str, Any]:
    """A win rate with its interval, its distance from ``fair`` and whether that is too far."""
    rate = wins / n if n else 0.0
    lo, hi = wilson_interval(wins, n)
    return {"games": n, "wins": round(wins, 3), "win_rate": rate, "win_rate_ci95": [lo, hi],
            "off_fair": rate - fair, "flagged": bool(n) and abs(rate - fair) > threshold + 1e-12}


def _rates(results: Any, fair: float, threshold: float) -> dict[str, Any]:
    """:func:`_rate` per key of ``results``, an iterable of ``((a, b), win share)``: rows keyed ``"a-b"``."""
    tallies: dict[tuple[int, int], list[float]] = {}
    for key, share in results:
        tally = tallies.setdefault(key, [0, 0.0])
        tally[0] += 1
        tally[1] += share
    return {f"{a}-{b}": _rate(w, n, fair, threshold) for (a, b), (n, w) in sorted(tallies.items())}


def report(games: list[dict[str, Any]], players: int, threshold: float = DEFAULT_THRESHOLD) -> dict[str, Any]:
    """The balance of ``games`` (records of :func:`balance_game`): per seat and per start point, win rate
    (ties split) with a 95% Wilson interval, its distance from ``1/players`` and a flag beyond
    ``threshold``, mean honour and the honour margin over the other seats (:func:`_margin`); the book's facts;
    the verdict."""
    fair = 1.0 / players
    groups: dict[str, dict[int, list[float]]] = {"per_seat": {}, "per_start_point": {}}
    for g in games:
        honour = [float(s["total"]) for s in g["scores"]]
        for p, share in enumerate(win_shares(g)):
            margin = _over_others(honour, p)
            for kind, key in (("per_seat", p), ("per_start_point", g["start_points"][p])):
                tally = groups[kind].setdefault(int(key), [0, 0.0, 0.0, 0.0, 0.0])
                for i, x in enumerate((1, share, honour[p], margin, margin * margin)):
                    tally[i] += x
    out: dict[str, Any] = {"games": len(games), "players": players, "fair_win_rate": fair, "threshold": threshold}
    for kind, tallies in groups.items():
        out[kind] = {str(k): {**_rate(w, n, fair, threshold), "mean_honour": h / n, **_margin(n, m, m2)}
                     for k, (n, w, h, m, m2) in sorted(tallies.items())}
    if players == 2:
        out["per_start_pair"] = start_pairs(games, threshold)
    else:
        out["per_seat_pair"] = seat_pairs(games, threshold)
    out["per_seat_and_start_point"] = seat_on_start_point(games, fair, threshold)
    out["seat_point_margins"] = seat_point_margins(games)
    out["seat_honour"] = seat_honour(games, players)
    out["per_trigger_and_seat"] = seat_given_trigger(games, fair, threshold)
    out["book"] = book_facts(games, fair, threshold)
    flagged = [(kind, k, row) for kind in groups for k, row in out[kind].items() if row["flagged"]]
    out["fair"] = bool(games) and not flagged
    out["verdict"] = verdict(out, flagged)
    return out


def _over_others(values: list[float], p: int) -> float:
    """Seat ``p``'s value minus the mean of the other seats' in the same game (an honour margin)."""
    return values[p] - (sum(values) - values[p]) / (len(values) - 1)


def _margin(n: int, total: float, squares: float) -> dict[str, Any]:
    """The mean honour margin (a seat's honour minus the mean of the other seats' in the same game) of ``n``
    games from its sum and sum of squares, with a 95% normal interval: it moves with the content long before
    a win rate does (a few hundred games show a shift of 2 honour)."""
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return {"honour_margin": mean, "honour_margin_ci95": [mean - half, mean + half],
            "honour_margin_sd": math.sqrt(var)}


def start_pairs(games: list[dict[str, Any]], threshold: float) -> dict[str, Any]:
    """At 2 players, each pair of start points met ("a-b", a < b): how often the gate at ``a`` won (ties
    split) against an even 50%, with its interval. Shown to explain a start point's rate (which opponent
    it won against); the verdict reads seats and start points only."""
    def pair(g: dict[str, Any]) -> tuple[tuple[int, int], float]:
        a, b = (int(x) for x in g["start_points"])
        share = win_shares(g)
        return ((a, b), share[0]) if a < b else ((b, a), share[1])
    return _rates((pair(g) for g in games), 0.5, threshold)


def seat_pairs(games: list[dict[str, Any]], threshold: float) -> dict[str, Any]:
    """At 3 or more players, each pair of seats ("a-b", a < b): how often seat ``a`` finished ahead of seat
    ``b`` (by final rank, a tie counts a half) against an even 50%, with its interval. Beside the honour
    margin's spread it tells a weaker seat (behind each other seat) from one that wins less although it
    is even with each other seat, because the others' results spread wider than its own (two seats racing
    each other: one of them often ends far ahead). Shown to explain; the verdict reads seats and start
    points only."""
    def ahead(ranks: list[int], a: int, b: int) -> float:
        return 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
    return _rates((((a, b), ahead(g["ranks"], a, b)) for g in games for a in range(len(g["ranks"]))
                   for b in range(a + 1, len(g["ranks"]))), 0.5, threshold)


def seat_on_start_point(games: list[dict[str, Any]], fair: float, threshold: float) -> dict[str, Any]:
    """Each seat's win rate on each start point (``"seat-point"``), against ``1/n``: whether a seat's
    rate is its place in the turn order (low on every point) or the points it sat on. Shown to explain;
    the verdict reads seats and start points only."""
    return _rates((((p, int(g["start_points"][p])), share) for g in games for p, share in enumerate(win_shares(g))),
                  fair, threshold)


def seat_point_margins(games: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Each seat on each start point (``"seat-point"``): its mean honour margin by scoring category (its
    honour in the category minus the other seats' mean in the same game; ``total`` the whole score): on
    which points, and in what, a seat loses. Shown to explain; the verdict reads seats and start points only."""
    sums: dict[tuple[int, int], dict[str, float]] = {}
    counts: dict[tuple[int, int], int] = {}
    for g in games:
        scores = g["scores"]
        by_category = {category: [s[category] for s in scores] for category in scores[0]}
        for p in range(len(scores)):
            key = (p, int(g["start_points"][p]))
            counts[key] = counts.get(key, 0) + 1
            row = sums.setdefault(key, {})
            for category, values in by_category.items():
                row[category] = row.get(category, 0.0) + _over_others(values, p)
    return {f"{p}-{point}": {category: total / counts[(p, point)] for category, total in row.items()}
            for (p, point), row in sorted(sums.items())}


def seat_given_trigger(games: list[dict[str, Any]], fair: float, threshold: float) -> dict[str, Any]:
    """Each seat's win rate in the games whose end a given seat triggered (``"trigger-seat"``: the seat that
    took the last coronation token, then each seat): whether a seat's deficit comes with the race to fill
    the trollsmoots (low when others end the game, fair when it does). Games without the record (runs
    older than the field) or without a trigger are left out; shown to explain, not read by the verdict."""
    return _rates((((int(g["triggered_end"]), p), share) for g in games if g.get("triggered_end") is not None
                   for p, share in enumerate(win_shares(g))), fair, threshold)


def seat_honour(games: list[dict[str, Any]], players: int) -> dict[str, dict[str, float]]:
    """Each seat's mean honour by scoring category (the parts of the score breakdown: tunnels, statues,
    coronation, ...) and how often it filled its trollsmoot first (``first_to_fill``, the first
    coronation token): where a seat's honour is won or lost."""
    sums: list[dict[str, float]] = [{} for _ in range(players)]
    for g in games:
        for p in range(players):
            for category, value in g["scores"][p].items():
                sums[p][category] = sums[p].get(category, 0.0) + value
            sums[p]["first_to_fill"] = sums[p].get("first_to_fill", 0.0) + (g.get("first_capped") == p)
    n = max(len(games), 1)
    return {str(p): {category: total / n for category, total in s.items()} for p, s in enumerate(sums)}


def book_facts(games: list[dict[str, Any]], fair: float, threshold: float) -> dict[str, Any]:
    """The first capper's win rate (ties split; games where nobody capped are left out), and the mean
    resources held and leftover-set honour at the end, per seat and game."""
    capped = [g for g in games if g.get("first_capped") is not None]
    wins = sum(win_shares(g)[g["first_capped"]] for g in capped)
    seats = [(g, p) for g in games for p in range(len(g["ranks"]))]
    n = max(len(seats), 1)
    return {
        "first_capped": {**_rate(wins, len(capped), fair, threshold), "games_without": len(games) - len(capped),
                         "book": BOOK["first_capped"]},
        "mean_resources_end": sum(g["resources_end"][p] for g, p in seats) / n,
        "mean_leftover_sets": sum(g["scores"][p]["leftover_sets"] for g, p in seats) / n,
        "leftover_sets_book": BOOK["leftover_sets"],
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def verdict(out: dict[str, Any], flagged: list[tuple[str, str, dict]]) -> str:
    """One line: fair, or which seats and start points are not (win rate and interval)."""
    fair, points = out["fair_win_rate"], round(100 * out["threshold"], 1)
    if not out["games"]:
        return "no games played"
    if not flagged:
        return (f"FAIR: every seat and start point within {points:g} points of {_pct(fair)} "
                f"({out['games']} games, {out['players']} players)")
    names = {"per_seat": "seat", "per_start_point": "start point"}
    parts = [f"{names[kind]} {k} {_pct(r['win_rate'])} (CI {_pct(r['win_rate_ci95'][0])}-"
             f"{_pct(r['win_rate_ci95'][1])})" for kind, k, r in flagged]
    return (f"UNFAIR: {', '.join(parts)}: more than {points:g} points from {_pct(fair)} "
            f"({out['games']} games, {out['players']} players)")


def table(result: dict[str, Any]):
    """A rich table: one row per seat and per start point, flagged rows marked."""
    from rich.table import Table
    cfg = result["config"]
    t = Table(title=f"Balance: {cfg['players']} players, {cfg['board_side']} side, "
                    f"{result['games']} games ({', '.join(cfg['agents'])}; gates {cfg['gates']})")
    for col in ("", "games", "win rate", "95% CI", "vs fair", "mean honour", "vs the others", "flag"):
        t.add_column(col, justify="left" if col in ("", "flag") else "right")
    for kind, name in (("per_seat", "seat"), ("per_start_point", "start point")):
        for k, r in result[kind].items():
            lo, hi = r["win_rate_ci95"]
            t.add_row(f"{name} {k}", str(r["games"]), _pct(r["win_rate"]), f"{_pct(lo)}-{_pct(hi)}",
                      f"{100 * r['off_fair']:+.1f}", f"{r['mean_honour']:.1f}", _margin_text(r),
                      "UNFAIR" if r["flagged"] else "")
    for k, r in result.get("per_start_pair", {}).items():  # 2 players: the first point's rate in each pair
        lo, hi = r["win_rate_ci95"]
        t.add_row(f"pair {k}", str(r["games"]), _pct(r["win_rate"]), f"{_pct(lo)}-{_pct(hi)}",
                  f"{100 * r['off_fair']:+.1f}", "", "", "(uneven)" if r["flagged"] else "")
    return t


def _margin_text(row: dict[str, Any]) -> str:
    """``+1.2 +- 0.8``: a row's honour margin over the other seats and its interval's half-width (reports
    written before the margin existed show nothing)."""
    if "honour_margin" not in row:
        return ""
    lo, hi = row["honour_margin_ci95"]
    return f"{row['honour_margin']:+.1f} +- {(hi - lo) / 2:.1f}"


def seat_lines(result: dict[str, Any]) -> list[str]:
    """Per seat, in words: its win rate and honour margin on each start point (with the categories it is
    won or lost in), and where its honour comes from."""
    by_point: dict[str, list[str]] = {}
    margins = result.get("seat_point_margins", {})
    for key, r in result.get("per_seat_and_start_point", {}).items():
        seat, point = key.split("-")
        by_point.setdefault(seat, []).append(f"{point}: {_pct(r['win_rate'])} of {r['games']}"
                                             f"{_point_margin_text(margins.get(key))}")
    lines = []
    for seat, honour in result.get("seat_honour", {}).items():
        parts = [f"{k.replace('_', ' ')} {v:.1f}" for k, v in honour.items() if k not in ("total", "first_to_fill")]
        lines.append(f"seat {seat}: on start point {', '.join(by_point.get(seat, []))}; honour "
                     f"{honour.get('total', 0.0):.1f} ({', '.join(parts)}); filled its trollsmoot first in "
                     f"{_pct(honour.get('first_to_fill', 0.0))} of games")
    return lines


def _point_margin_text(margin: dict[str, float] | None) -> str:
    """`` (-6.8 honour: tunnels -4.0, statues -3.9)``: a seat's margin on a point and the (at most two)
    categories that make a whole honour or more of it; nothing for reports written before the field."""
    if not margin:
        return ""
    big = sorted(((abs(v), k) for k, v in margin.items() if k != "total" and abs(v) >= 1.0), reverse=True)[:2]
    parts = [f"{k.replace('_', ' ')} {margin[k]:+.1f}" for _, k in big]
    detail = f": {', '.join(parts)}" if parts else ""
    return f" ({margin.get('total', 0.0):+.1f} honour{detail})"


def pair_lines(result: dict[str, Any]) -> list[str]:
    """Per seat, in words: how often it finished ahead of each other seat, and the spread (standard
    deviation) of its honour margin beside the other seats'; nothing at 2 players or for reports written
    before the fields."""
    pairs = result.get("per_seat_pair", {})
    spread = {k: r["honour_margin_sd"] for k, r in result["per_seat"].items() if "honour_margin_sd" in r}
    if not pairs or len(spread) != len(result["per_seat"]):
        return []
    lines = []
    for seat in result["per_seat"]:
        parts = [_ahead_text(pairs, seat, other) for other in result["per_seat"] if other != seat]
        others = ", ".join(f"{spread[k]:.1f}" for k in spread if k != seat)
        lines.append(f"seat {seat} finished ahead of {', '.join(parts)}; its honour margin spreads "
                     f"{spread[seat]:.1f} (sd; the others' {others})")
    return lines


def _ahead(pairs: dict[str, Any], seat: str, other: str) -> tuple[float, float, float, dict[str, Any]]:
    """How often ``seat`` finished ahead of ``other``, its interval and the pair's row, from whichever way
    round the pair is keyed."""
    r = pairs[f"{seat}-{other}"] if int(seat) < int(other) else pairs[f"{other}-{seat}"]
    rate, (lo, hi) = r["win_rate"], r["win_rate_ci95"]
    if int(seat) > int(other):
        rate, lo, hi = 1.0 - rate, 1.0 - hi, 1.0 - lo
    return rate, lo, hi, r


def _ahead_text(pairs: dict[str, Any], seat: str, other: str) -> str:
    """``seat 1 in 49.6% (CI 46.5%-52.7%) of 1000``."""
    rate, lo, hi, r = _ahead(pairs, seat, other)
    flag = " (uneven)" if r["flagged"] else ""
    return f"seat {other} in {_pct(rate)} (CI {_pct(lo)}-{_pct(hi)}) of {r['games']}{flag}"


def trigger_lines(result: dict[str, Any]) -> list[str]:
    """Per seat that triggered the end: how many games, and each seat's win rate in them."""
    rows: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    for key, r in result.get("per_trigger_and_seat", {}).items():
        trigger, seat = key.split("-")
        rows.setdefault(trigger, []).append(f"seat {seat} {_pct(r['win_rate'])}")
        counts[trigger] = r["games"]
    return [f"end triggered by seat {t} in {counts[t]} game{'' if counts[t] == 1 else 's'}: {', '.join(parts)}"
            for t, parts in rows.items()]


def book_lines(result: dict[str, Any]) -> list[str]:
    """The book's facts in words."""
    b = result["book"]
    c = b["first_capped"]
    lo, hi = c["win_rate_ci95"]
    return [f"first to fill a trollsmoot wins {_pct(c['win_rate'])} (CI {_pct(lo)}-{_pct(hi)}) of "
            f"{c['games']} games ({c['games_without']} without; {b['first_capped']['book']})",
            f"at the end a player holds {b['mean_resources_end']:.1f} resources on average; leftover sets "
            f"{b['mean_leftover_sets']:.1f} honour ({b['leftover_sets_book']})"]


# ================================================================================================
# many reports side by side (mk-env balance-summary)
# ================================================================================================
#: the columns of the summary table, in order
SUMMARY_COLUMNS = ("table", "agents", "gates", "seed", "games", "seats, win %", "start points, win %",
                   "furthest seat's honour margin", "furthest seat ahead of each other seat", "verdict")


def _rate_text(row: dict[str, Any]) -> str:
    """``35.5``, or ``**26.6** (24.7-28.5)`` when flagged: a win rate in a summary cell."""
    if not row["flagged"]:
        return f"{100 * row['win_rate']:.1f}"
    lo, hi = row["win_rate_ci95"]
    return f"**{100 * row['win_rate']:.1f}** ({100 * lo:.1f}-{100 * hi:.1f})"


def furthest_seat(result: dict[str, Any]) -> str:
    """The seat whose win rate is furthest from the fair share ``1/n`` (above or below; between two as far,
    the one that won less): the seat a verdict turns on, as the second seat of 4 or the third of 3."""
    seats, fair = result["per_seat"], result["fair_win_rate"]
    return max(seats, key=lambda k: (round(abs(seats[k]["win_rate"] - fair), 9), -seats[k]["win_rate"]))


def summary_row(result: dict[str, Any]) -> dict[str, str]:
    """One report (a ``balance.json``) in a line, by :data:`SUMMARY_COLUMNS`: each seat's win rate (a
    flagged one with its interval), the start points' range and flagged ones, the honour margin and the
    head-to-head rates of the seat furthest from the fair share (:func:`furthest_seat`), and the verdict's
    first word."""
    cfg, seats = result["config"], result["per_seat"]
    points = [r["win_rate"] for r in result["per_start_point"].values()]
    flagged_points = [f"{k}: {_rate_text(r)}" for k, r in result["per_start_point"].items() if r["flagged"]]
    far = furthest_seat(result)
    pairs = result.get("per_seat_pair", {})
    ahead = [f"seat {other} {_pct(_ahead(pairs, far, other)[0])}" for other in seats if other != far] if pairs else []
    return {
        "table": f"{cfg['players']}p {cfg['board_side']}",
        "agents": ", ".join(cfg["agents"]),
        "gates": cfg.get("gates", "drawn"),
        "seed": str(cfg.get("seed", "-")),
        "games": str(result["games"]),
        "seats, win %": " / ".join(_rate_text(r) for r in seats.values()),
        "start points, win %": f"{100 * min(points):.1f}-{100 * max(points):.1f}"
                               + (f"; {', '.join(flagged_points)}" if flagged_points else ""),
        "furthest seat's honour margin": f"seat {far}: {_margin_text(seats[far]) or '-'}",
        "furthest seat ahead of each other seat": f"seat {far}: {', '.join(ahead)}" if ahead else "-",
        "verdict": result["verdict"].split(":")[0],
    }


def summary_table(rows: list[dict[str, str]]) -> str:
    """A markdown table of summary rows (:func:`summary_row`), one per report."""
    lines = ["| " + " | ".join(SUMMARY_COLUMNS) + " |", "|" + "---|" * len(SUMMARY_COLUMNS)]
    lines += ["| " + " | ".join(row[c] for c in SUMMARY_COLUMNS) + " |" for row in rows]
    return "\n".join(lines)
