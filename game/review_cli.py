"""``hongwu review ID|FILE [--json] [--seat N] [--samples N] [--seed N]``: the review 复盘.

A record id (``hongwu records``) is reviewed for the profile's seat and cached with the record
(a second call prints the cached result at once); a replay file (docs/REPLAY.md) is reviewed for
``--seat`` (default: its header's ``seat``) and not cached. 红五 and 找朋友 hands alike (the unit
follows the game: game points, levels). See :mod:`ai_plugins.review`.
Exit codes: 0 done, 2 bad input (unknown record, unreadable or malformed file, bad seat).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EXIT_BAD = 2


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``hongwu review``."""
    from ai_plugins.review import COSTLY_GP, DEFAULT_SAMPLES
    from ai_plugins.review_zpy import COSTLY_LEVELS

    p = sub.add_parser("review", help="review a recorded hand (复盘): the expert's view of each decision",
                       description="SOURCE is a record id (hongwu records) or a replay file, of a 红五 or a 找朋友 "
                                   "hand. For each decision of the seat the expert search estimates the chosen "
                                   "action and its best alternative: in game points for 红五 (a loss of "
                                   f"{COSTLY_GP:g} or more is flagged costly), in levels for 找朋友 (calls, buries "
                                   f"and plays; from {COSTLY_LEVELS:g} level).")
    p.add_argument("source", metavar="ID|FILE")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument("--seat", type=int, default=None, help="the seat to review (default: the recorded player's)")
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                   help=f"sampled worlds per decision (default {DEFAULT_SAMPLES})")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    p.set_defaults(func=run)
    return p


def run(ns: argparse.Namespace) -> int:
    """Run ``hongwu review``; returns the exit code."""
    from ai_plugins.review import review, table_lines
    from engine import replay as R
    from game.career import CareerError, db_path, open_store
    from game.career.reviews import review_record

    src = ns.source
    cached = False
    try:
        if src.isdigit() and not Path(src).exists():
            if not db_path().exists():
                raise CareerError(f"no record with id {src} (no career database yet)")
            store = open_store()
            try:
                rv, cached = review_record(store, int(src), ns.seat, ns.samples, ns.seed)
            finally:
                store.close()
        else:
            rv = review(R.parse(Path(src).read_text(encoding="utf-8")), ns.seat, ns.samples, ns.seed)
    except (CareerError, ValueError) as exc:  # ReplayError is a ValueError
        print(f"hongwu review: {exc}", file=sys.stderr)
        return EXIT_BAD
    except (OSError, UnicodeDecodeError) as exc:
        print(f"hongwu review: cannot read {src}: {exc}", file=sys.stderr)
        return EXIT_BAD
    if ns.json:
        d = rv.as_dict()
        d["cached"] = cached
        print(json.dumps(d, ensure_ascii=False))
    else:
        print("\n".join(table_lines(rv)) + ("\n(cached)" if cached else ""))
    return 0
