"""Where does an AI's lead over another come from: the auction, or playing the same hands?

A two-AI arena (``--ai A --ai B``) plays every deal twice, line-ups ``ABAB`` and ``BABA``, so
each seat's cards are held once by each AI. When the auction puts the deal in the *same seat*
both times, the same hand was bid, buried and played once by A and once by B (as dealer; the
other seats defend it): what A gains there is its play of that hand, plus the price it paid in
the auction. When the deal goes to *different seats*, the two auctions differed, and what A
gains there comes first from who got to deal. This script reads the ``"hands"`` of an arena
``--json`` file (written since session 39) and splits the AI's game points a seat-hand
(RULES.md §10) along those lines; each part's *share* is its sum over all deals divided by the
number of deals, so the shares add up to the AI's mean::

    hongwu arena --ai expert --ai basic --hands 400 --seed 2081 --think-ms 100 --budget 10 --json a.json
    python benchmarks/arena_split.py a.json

Several files joined by commas (runs extended with ``--first-deal``) are read as one run.
``--label`` names the AI (default: the first). Only two-AI 红五 runs can be split (SystemExit
otherwise, and for files without ``"hands"``). A measurement script: nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_plugins.ratings import ci95_half_width  # noqa: E402


def load(path: str) -> tuple[dict[str, Any], dict[int, list[dict[str, Any]]]]:
    """``(the first file's summary, {deal: [hand record per line-up, in line-up order]})`` of
    an arena ``--json`` file or of several joined by commas. SystemExit for a file without
    hand records, a run that is not of two AIs in two line-ups, or a deal in two files."""
    first: dict[str, Any] | None = None
    deals: dict[int, list[dict[str, Any]]] = {}
    for part in path.split(","):
        with open(part, encoding="utf-8") as fh:
            data = json.load(fh)
        if "hands" not in data:
            raise SystemExit(f"{part}: no hand records (written by an older arena, or 找朋友)")
        if len(data.get("lineups", ())) != 2 or len(data.get("legend", {})) != 2:
            raise SystemExit(f"{part}: only a run of two AIs (line-ups ABAB and BABA) can be split")
        first = first or data
        seen = set()
        for h in data["hands"]:
            d = int(h["deal"])
            if d in deals and d not in seen:
                raise SystemExit(f"{part}: deal {d} is in two of the joined runs")
            seen.add(d)
            deals.setdefault(d, []).append(h)
    assert first is not None
    return first, deals


def letter_of(summary: dict[str, Any], label: str) -> str:
    """The line-up letter (``"A"`` or ``"B"``) of AI ``label`` in a run's ``summary`` (its
    ``"legend"``). SystemExit if the run has no such AI."""
    legend = summary["legend"]
    letter = next((k for k, v in legend.items() if v == label), None)
    if letter is None:
        raise SystemExit(f"no AI {label!r} in the run (has {', '.join(legend.values())})")
    return letter


def side_of_hand(summary: dict[str, Any], hand: dict[str, Any], letter: str) -> tuple[bool, float]:
    """``(whether the AI of line-up letter ``letter`` dealt, the mean of its seats' game
    points)`` in one hand record of an arena ``--json`` file (RULES.md §10)."""
    lineup = summary["lineups"][hand["lineup"]]
    mine = [g for s, g in enumerate(hand["game_points"]) if lineup[s] == letter]
    return lineup[hand["dealer"]] == letter, statistics.fmean(mine)


def split(summary: dict[str, Any], deals: dict[int, list[dict[str, Any]]],
          label: str) -> dict[str, Any]:
    """The split of AI ``label``'s game points (see the module docstring).

    Returns ``{"deals": n, "mean": (mean, ci95 half-width), "parts": {name: {"deals": n,
    "mean": (..), "share": float}}, "same_hand": {"dealer_gp", "points", "bid": (mean, half)}}``;
    ``same_hand`` compares the dealer's game points, card points taken (final + bid) and bid of
    ``label`` with the other AI's on the deals dealt from the same seat (A minus B). Half-widths
    are None with fewer than two deals. SystemExit if ``label`` is not in the run."""
    legend = summary["legend"]
    letter = letter_of(summary, label)
    other = next(v for k, v in legend.items() if k != letter)
    names = {"same": "the same seat dealt both times (the same hand, once each)",
             "mine": f"different seats, {label} dealt both times",
             "split": "different seats, each AI dealt once",
             "theirs": f"different seats, {other} dealt both times"}
    per: dict[str, list[float]] = {k: [] for k in names}
    allm: list[float] = []
    gp, pts, bid = [], [], []
    for d in sorted(deals):
        hands = deals[d]
        if len(hands) != 2:
            continue
        sides = [side_of_hand(summary, h, letter) for h in hands]
        m = statistics.fmean(x for _, x in sides)
        allm.append(m)
        dealers = [h["dealer"] for h in hands]
        kinds = [dealt for dealt, _ in sides]
        if dealers[0] == dealers[1]:
            per["same"].append(m)
            a, b = (hands[0], hands[1]) if kinds[0] else (hands[1], hands[0])
            gp.append(a["game_points"][a["dealer"]] - b["game_points"][b["dealer"]])
            pts.append(a["final"] + a["bid"] - b["final"] - b["bid"])
            bid.append(a["bid"] - b["bid"])
        else:
            per["mine" if all(kinds) else "theirs" if not any(kinds) else "split"].append(m)

    def stat(xs: list[float]) -> tuple[float | None, float | None]:
        return (statistics.fmean(xs) if xs else None, ci95_half_width(xs) if len(xs) > 1 else None)

    n = len(allm)
    return {"deals": n, "label": label, "other": other, "mean": stat(allm),
            "parts": {names[k]: {"deals": len(v), "mean": stat(v), "share": sum(v) / n if n else 0.0}
                      for k, v in per.items()},
            "same_hand": {"dealer_gp": stat(gp), "points": stat(pts), "bid": stat(bid)}}


def _fmt(stat: tuple[float | None, float | None], spec: str = "+.2f") -> str:
    m, h = stat
    if m is None:
        return "-"
    return format(m, spec) + ("" if h is None else f" ± {format(h, spec.lstrip('+'))}")


def main(argv: list[str] | None = None) -> int:
    """Print the split of the run named on the command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="arena --json file; A.json,B.json joins runs of later deals")
    ap.add_argument("--label", help="the AI to split (default: the run's first AI)")
    ns = ap.parse_args(argv)
    summary, deals = load(ns.run)
    label = ns.label or summary["legend"]["A"]
    out = split(summary, deals, label)
    print(f"{label} against {out['other']}: {_fmt(out['mean'])} game points a seat-hand over "
          f"{out['deals']} deals ({summary['decks']} decks, seed {summary['seed']})")
    for name, part in out["parts"].items():
        print(f"  {name}: {part['deals']} deals, {_fmt(part['mean'])} a seat-hand, "
              f"share {part['share']:+.2f}")
    s = out["same_hand"]
    print(f"  on the same hands, {label}'s dealer minus {out['other']}'s: game points "
          f"{_fmt(s['dealer_gp'])}, card points taken {_fmt(s['points'], '+.1f')}, "
          f"bid {_fmt(s['bid'], '+.1f')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
