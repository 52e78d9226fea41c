"""Fit how the lean play-out's result maps to real play (ai_plugins/builtin/data/playout_calibration.json).

The expert's play search (:mod:`ai_plugins.builtin.fastsim`) finishes every sampled world with a
fast perfect-information policy. Its card points for the dealer are a noisy estimate of what
real play would give from the same cards: the regression of the real points on the play-out's
is flatter than 1 and the residual spread large early in a hand, small near its end. The search
utility (:func:`ai_plugins.builtin.fastsim.calibrated_utility`) takes both into account.

What this script does, seeded and reproducible: ``--deals`` deals per deck count (deal i uses
``Game.new(seed=SEED*1000003+i)``) are bid, trumped, buried and played to the end by ``basic``
on every seat (the "real" play). At each trick boundary the true position is also played out
by the lean policy (:func:`ai_plugins.builtin.fastsim.play_out_fast`). For each share of the
cards still in the hands (``BUCKETS`` equal bins of 0..1) an ordinary least-squares line maps the
play-out's *future* dealer card points (from that boundary on: tricks, kitty when it counts,
red-five 20s, RULES.md §10) to the real future points, with the residual standard deviation.

    PYTHONPATH=. python tools/fit_playout_calibration.py --deals 400

Writes the JSON (``{"2": [[a, b, sd], ...], "3": [...]}``, bucket 0 = the last cards, plus the
fit's figures under ``"fit"``) and prints the table.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_plugins.builtin.basic import auctioned  # noqa: E402
from ai_plugins.builtin.fastsim import (  # noqa: E402
    BUCKETS, CALIBRATION_FILE_TRACTORS, lean_from_game, play_out_fast,
)
from engine.ruleset import hongwu  # noqa: E402
from engine.scoring import settle  # noqa: E402
from engine.state import Phase, Play  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "ai_plugins" / "builtin" / "data" / "playout_calibration.json"


def rows_for(decks: int, deals: int, seed: int, tractors: bool = False) -> list[tuple[float, int, int, int]]:
    """``(share of cards left, dealer points so far, play-out points, real points)`` at every
    trick boundary of ``deals`` deals played by ``basic`` (the play-outs with the ``tractors``
    switch of :func:`play_out_fast`)."""
    rs = hongwu(decks)
    rows = []
    for d in range(deals):
        g, ais = auctioned(rs, seed * 1000003 + d, ai_seed=0)
        total = sum(len(h) for h in g.hands)
        snaps = []
        while g.phase is Phase.PLAY:
            if not g.current:
                known = g.points_won[g.dealer]
                pts, rf, last = play_out_fast(lean_from_game(g), [], tractors)
                st = settle(g.ruleset, g.dealer, g.bid, pts, g.buried, last, rf, g.failed_throws)
                snaps.append((sum(len(h) for h in g.hands) / total, known, st.dealer_final + st.bid))
            s = g.to_act
            v = g.view(s)
            g.apply(Play(s, tuple(ais[s].choose_play(v, g.play_options(s)))))
        real = g.settlement.dealer_final + g.settlement.bid
        rows.extend((f, k, p, real) for f, k, p in snaps)
    return rows


def fit(rows: list[tuple[float, int, int, int]]) -> tuple[list[list[float]], list[dict]]:
    """Per bucket ``[a, b, sd]`` (real future ≈ a + b × play-out future, residual sd) and the
    fit's figures (rows, mean future points both ways)."""
    table, figures = [], []
    for k in range(BUCKETS):
        lo, hi = k / BUCKETS, (k + 1) / BUCKETS
        sel = [r for r in rows if lo < r[0] <= hi or (k == 0 and r[0] == 0)]
        x = [p - known for _, known, p, _ in sel]
        y = [real - known for _, known, _, real in sel]
        if len(sel) < 10:
            table.append([0.0, 1.0, 0.0])
            figures.append({"rows": len(sel)})
            continue
        mx, my = statistics.fmean(x), statistics.fmean(y)
        sxx = sum((a - mx) ** 2 for a in x)
        b = sum((a - mx) * (c - my) for a, c in zip(x, y)) / sxx if sxx else 1.0
        a = my - b * mx
        sd = statistics.pstdev([c - (a + b * v) for v, c in zip(x, y)])
        table.append([round(a, 2), round(b, 3), round(sd, 2)])
        figures.append({"rows": len(sel), "playout_future": round(mx, 1), "real_future": round(my, 1)})
    return table, figures


def main(argv: list[str] | None = None) -> int:
    """Generate, fit and write the calibration (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=400, help="deals per deck count (default 400)")
    ap.add_argument("--seed", type=int, default=17, help="base seed (default 17)")
    ap.add_argument("--out", help=f"the JSON file to write (default {OUT}, with --tractors "
                    f"{OUT.with_name(CALIBRATION_FILE_TRACTORS).name} beside it)")
    ap.add_argument("--tractors", action="store_true",
                    help="fit play-outs that lead and answer tractors (the expert's tractors=1)")
    ns = ap.parse_args(argv)
    ns.out = ns.out or str(OUT.with_name(CALIBRATION_FILE_TRACTORS) if ns.tractors else OUT)
    out = {"buckets": BUCKETS, "fit": {}}
    for decks in (2, 3):
        table, figures = fit(rows_for(decks, ns.deals, ns.seed, ns.tractors))
        out[str(decks)] = table
        out["fit"][str(decks)] = {"deals": ns.deals, "seed": ns.seed, "buckets": figures}
        if ns.tractors:
            out["fit"][str(decks)]["tractors"] = True
        print(f"{decks} decks ({ns.deals} deals): bucket  a      b      sd   rows")
        for k, ((a, b, sd), f) in enumerate(zip(table, figures)):
            print(f"  {k / BUCKETS:.1f}-{(k + 1) / BUCKETS:.1f}  {a:6.1f} {b:6.3f} {sd:6.1f}  {f['rows']}")
    Path(ns.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {ns.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
