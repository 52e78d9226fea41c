"""Where the hidden cards lie at the start of play, for the ``expert`` AI's sampling prior.

Plays the auction, trump and bury of ``--deals`` deals with ``basic`` in every seat and
prints, from the defenders' side, how many trumps the dealer holds against the two other
defenders (the per-card density ratio is ``simulate.DEALER_TRUMP_WEIGHT``), and the trumps
and card points in the buried kitty (``KITTY_TRUMP_WEIGHT``, ``KITTY_POINT_WEIGHT``).

    PYTHONPATH=. python benchmarks/expert_prior.py [--decks 2] [--deals 40] [--seed 900]

Measured (40 deals, seed 900): two decks, dealer 15.1 trumps against 16.3 for the two other
defenders together (ratio 1.85), kitty 0.0 trumps and 4.5 points; three decks 20.0 against
26.3 (ratio 1.53), kitty 0.0 trumps and 1.4 points.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine.order import TRUMP_INDEX  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from play_duel import auctioned  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--decks", type=int, choices=(2, 3), default=2)
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--seed", type=int, default=900)
    ns = p.parse_args(argv)
    rs = hongwu(ns.decks)
    ws, kit, pts = [], [], []
    for h in range(ns.deals):
        g = auctioned(rs, ns.seed + h, ai_seed=0)
        sx, d = g.ctx.SUITX, g.dealer
        kit.append(sum(1 for c in g.buried if sx[c] == TRUMP_INDEX))
        pts.append(sum(c.points for c in g.buried))
        for s in range(rs.players):
            if s == d:
                continue
            td = sum(1 for c in g.hands[d] if sx[c] == TRUMP_INDEX)
            to = sum(1 for o in range(rs.players) if o not in (s, d) for c in g.hands[o] if sx[c] == TRUMP_INDEX)
            ws.append((td, to))
    k = rs.hand_size
    td = statistics.fmean(a for a, _ in ws)
    to = statistics.fmean(b for _, b in ws)
    others = rs.players - 2
    print(f"{ns.decks} decks, {ns.deals} deals: dealer {td:.1f} trumps, the other defenders {to:.1f} "
          f"together; per-card ratio {(td / k) / (to / (others * k)):.2f}")
    print(f"kitty: {statistics.fmean(kit):.1f} trumps, {statistics.fmean(pts):.1f} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
