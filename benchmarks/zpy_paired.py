"""Paired comparison of two AIs on 找朋友 duplicate deals (prints figures; not a test).

The arena (``hongwu arena --ruleset zhaopengyou``) gives each AI's level gain per hand with its
own 95% interval; both AIs play the same deals, so the per-deal *difference* of their mean
gains has a much narrower interval. This script plays deals ``--start``, ``--start + --every``,
... (so that several processes can share the deals), appends one JSON line per deal to
``--out`` and, with ``--report``, prints the paired difference over every line of the files
given.

    python benchmarks/zpy_paired.py --ai expert --ai basic --deals 30 --think-ms 50 --out /tmp/a.jsonl
    python benchmarks/zpy_paired.py --report /tmp/a.jsonl
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_plugins.ratings import ci95_half_width  # noqa: E402


def play(args: argparse.Namespace) -> None:
    from ai_plugins.arena import ArenaConfig, deal_seed, lineups
    from ai_plugins.arena_zpy import play_zpy_deal

    options = {"think_ms": args.think_ms} if args.think_ms else {}
    config = ArenaConfig(ais=tuple(args.ai), deals=args.deals, seed=args.seed, options=options,
                         plugin_dirs=tuple(args.plugin_dir), user_dir=False, entry_points=False,
                         ruleset="zhaopengyou")
    manager = config.manager()
    ups = lineups(len(config.ais), config.seats)
    for d in range(args.start, args.deals, args.every):
        rows = play_zpy_deal(config, d, manager, ups, deal_seed(config.seed, d))
        means = [statistics.fmean([r.gain for r in rows if r.ai == i]) for i in range(len(config.ais))]
        with open(args.out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"deal": d, "ais": list(config.ais), "mean_gain": means}) + "\n")


def report(paths: list[str]) -> None:
    rows = {}
    for p in paths:
        with open(p, encoding="utf-8") as fh:
            for line in fh:
                r = json.loads(line)
                rows[r["deal"]] = r
    diffs = [r["mean_gain"][0] - r["mean_gain"][1] for r in rows.values()]
    ais = next(iter(rows.values()))["ais"]
    n = len(diffs)
    mean = statistics.fmean(diffs)
    ci = ci95_half_width(diffs) if n > 1 else float("nan")
    a = statistics.fmean(r["mean_gain"][0] for r in rows.values())
    b = statistics.fmean(r["mean_gain"][1] for r in rows.values())
    print(f"{n} deals: {ais[0]} {a:.3f}, {ais[1]} {b:.3f} levels/hand; "
          f"paired difference {mean:+.3f} ± {ci:.3f} (95%)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ai", action="append", default=[])
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--every", type=int, default=1)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--think-ms", type=int, default=None)
    p.add_argument("--plugin-dir", action="append", default=[])
    p.add_argument("--out", default="zpy_paired.jsonl")
    p.add_argument("--report", nargs="+", metavar="FILE")
    args = p.parse_args(argv)
    if args.report:
        report(args.report)
        return 0
    if len(args.ai) != 2:
        p.error("give --ai twice")
    play(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
