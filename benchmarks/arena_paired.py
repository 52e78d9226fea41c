"""Compare arena runs deal by deal: is variant B of an AI better than variant A?

Two ``hongwu arena --json`` files of runs on the same seed and deals (typically ``--ai A
--ai basic`` and ``--ai B --ai basic``) hold each AI's mean game points per deal
(``per_deal``). The difference B − A per deal removes the luck both runs share (the same cards,
the same opponent), so it needs fewer deals than comparing the two intervals. Prints, for each
file after the first, the mean of the per-deal differences of the chosen AI with a 95% interval
(normal approximation over deals), next to each run's own mean::

    hongwu arena --ai expert --ai basic --hands 60 --seed 9 --think-ms 100 --json /tmp/a.json
    hongwu arena --ai expert@confidence=0.5 --ai basic --hands 60 --seed 9 --think-ms 100 --json /tmp/b.json
    python benchmarks/arena_paired.py /tmp/a.json /tmp/b.json

``--label`` names the AI to compare (default: the first AI of each file). Runs are paired on
the deals they share (by deal index), and a run may be several files joined by commas: an
arena extended with ``--first-deal`` (e.g. ``a.json,a2.json`` for deals 0–199 and 200–399).
Repeated runs of the same version on the same deals joined by ``+`` (``a.json+a_again.json``)
count as one run whose per-deal figure is their mean, on the deals all of them played: a
steadier baseline where a timed search varies from run to run.

``--by-dealer`` (two-AI runs with hand records, ``benchmarks/arena_split.py``; not with
``+``) also pairs the runs hand by hand (deal and line-up) and splits the difference of the
AI's mean game points a seat-hand by who dealt: the hands its side dealt in both runs, and
those the other AI dealt in both. A change that only acts when the AI deals (its bury, its
dealer's searches) leaves the other part to the runs' own spread, so the first part measures
it with less noise::

    python benchmarks/arena_paired.py a.json,a2.json b.json,b2.json --by-dealer
A measurement script: nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # arena_split, also when loaded by path

from ai_plugins.ratings import ci95_half_width  # noqa: E402
from arena_split import letter_of, side_of_hand, load as load_hands  # noqa: E402


def paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """``(mean of b − a, 95% half-width)`` over deals; raises ValueError if the lengths differ
    or fewer than two deals."""
    if len(a) != len(b) or len(a) < 2:
        raise ValueError(f"need two runs of the same ≥ 2 deals (got {len(a)} and {len(b)})")
    d = [y - x for x, y in zip(a, b)]
    return statistics.fmean(d), ci95_half_width(d)


def _series(path: str, label: str | None) -> tuple[str, dict[int, float]]:
    """:func:`_joined` of each ``+``-separated repeat in ``path``, averaged per deal over the
    deals every repeat played (the label of the first)."""
    repeats = [_joined(part, label) for part in path.split("+")]
    deals = set.intersection(*(set(r[1]) for r in repeats))
    return repeats[0][0], {d: statistics.fmean(r[1][d] for r in repeats) for d in sorted(deals)}


def _joined(path: str, label: str | None) -> tuple[str, dict[int, float]]:
    """``(AI label, {deal index: mean game points})`` of one arena ``--json`` file, or of
    several joined by commas (runs of the same seed on later deals, ``--first-deal``); a deal
    played twice raises SystemExit, as do a file that cannot be read, a missing AI or a file
    without per-deal numbers."""
    name, out = None, {}
    for part in path.split(","):
        try:
            with open(part, encoding="utf-8") as fh:
                data = json.load(fh)
        except OSError as e:
            raise SystemExit(f"{part}: {e.strerror}") from None
        ais = data["ais"]
        name = label if label is not None else next(iter(ais))
        if name not in ais:
            raise SystemExit(f"{part}: no AI {name!r} (has {', '.join(ais)})")
        if "per_deal" not in ais[name]:
            raise SystemExit(f"{part}: no per-deal numbers (written by an older arena)")
        first = int(data.get("first_deal", 0))
        for i, x in enumerate(ais[name]["per_deal"]):
            if first + i in out:
                raise SystemExit(f"{part}: deal {first + i} is in two of the joined runs")
            out[first + i] = float(x)
    assert name is not None
    return name, out


def common(a: dict[int, float], b: dict[int, float]) -> tuple[list[float], list[float]]:
    """The two runs' numbers on the deals both played, in deal order."""
    deals = sorted(set(a) & set(b))
    return [a[d] for d in deals], [b[d] for d in deals]


def hand_means(path: str, label: str | None) -> dict[tuple[int, int], tuple[bool, float]]:
    """``{(deal, line-up): (whether AI label's side dealt, its mean game points a seat)}``
    from the hand records of an arena ``--json`` file (or several joined by commas; see
    :func:`arena_split.load`, whose SystemExits apply). ``label`` None: the run's first AI.
    SystemExit if the run has no AI ``label``."""
    summary, deals = load_hands(path)
    try:
        letter = letter_of(summary, label or summary["legend"]["A"])
    except SystemExit as exc:
        raise SystemExit(f"{path}: {exc}") from None
    return {(d, int(h["lineup"])): side_of_hand(summary, h, letter)
            for d, hands in deals.items() for h in hands}


def by_dealer(a: dict[tuple[int, int], tuple[bool, float]], b: dict[tuple[int, int], tuple[bool, float]]
              ) -> dict[str, tuple[int, float, float]]:
    """The hand-by-hand comparison of :func:`hand_means` ``a`` (baseline) and ``b`` on the
    hands both played: ``{"dealt": (hands, mean b − a, 95% half-width), "other": (...)}`` for
    the hands the AI's side dealt in both runs and those the other side dealt in both (mean
    and half-width NaN below two hands), and ``"differs": (hands, nan, nan)`` for hands
    whose dealer's side differs between the runs."""
    parts: dict[str, list[float]] = {"dealt": [], "other": [], "differs": []}
    for key in sorted(set(a) & set(b)):
        (da, xa), (db, xb) = a[key], b[key]
        parts["dealt" if da and db else "other" if not (da or db) else "differs"].append(xb - xa)
    nan = float("nan")
    return {k: (len(v), statistics.fmean(v) if len(v) > 1 else nan, ci95_half_width(v) if len(v) > 1 else nan)
            for k, v in parts.items()}


def main(argv: list[str] | None = None) -> int:
    """Print the paired comparison of the runs named on the command line (each run a file
    or comma-joined files; runs are compared on the deals both played)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="arena --json files, the baseline first; "
                    "A.json,B.json joins runs of later deals (--first-deal), "
                    "A.json+A2.json averages repeats of the same deals")
    ap.add_argument("--label", help="the AI to compare (default: each file's first AI)")
    ap.add_argument("--by-dealer", action="store_true",
                    help="also split the difference hand by hand by who dealt (two-AI runs)")
    ns = ap.parse_args(argv)
    if ns.by_dealer and any("+" in r for r in ns.runs):
        raise SystemExit("--by-dealer compares single runs (no + repeats)")
    base_name, base = _series(ns.runs[0], ns.label)
    m0 = statistics.fmean(base.values())
    print(f"{ns.runs[0]}: {base_name} {m0:+.2f} over {len(base)} deals (baseline)")
    base_hands = hand_means(ns.runs[0], ns.label) if ns.by_dealer else None
    for path in ns.runs[1:]:
        name, other = _series(path, ns.label)
        a, b = common(base, other)
        if len(a) < 2:
            raise SystemExit(f"{path}: fewer than 2 deals in common with the baseline")
        diff, half = paired(a, b)
        print(f"{path}: {name} {statistics.fmean(b):+.2f} (baseline {statistics.fmean(a):+.2f}) "
              f"over {len(a)} common deals; paired difference {diff:+.2f} ± {half:.2f}")
        if ns.by_dealer:
            split = by_dealer(base_hands, hand_means(path, ns.label))
            for key, text in (("dealt", f"hands {name}'s side dealt in both runs"),
                              ("other", "hands the other AI dealt in both runs")):
                n, m, h = split[key]
                print(f"  {text}: {n}, paired difference {m:+.2f} ± {h:.2f} a seat-hand")
            print(f"  hands whose dealer's side differs between the runs: {split['differs'][0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
