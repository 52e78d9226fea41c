"""The arena on 找朋友 (``hongwu arena --ruleset zhaopengyou``): duplicate deals with the AIs
rotated through the five seats, and per-AI level gains (RULES.md "找朋友" §10).

Each deal is the first hand of a match (every seat at level 2, every seat with the declaring
right, the first-card seat drawn from the deal's seed), played once per line-up of
:func:`ai_plugins.arena.lineups` with five seats. The number that ranks the AIs is the **level
gain per hand**: the levels a seat went up in that hand (0 when its side lost), averaged over
the AI's seat-hands, with a 95% confidence interval from the per-deal means (the line-ups of
one deal are not independent). Also: how often the AI became dealer, how often its side won
when it was dealer, how often it was the friend, and its faults.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from .ratings import ci95_half_width
from .runner import make_player, play_hand
from .specs import spec_player


@dataclass(frozen=True)
class ZpySeatResult:
    """One 找朋友 seat-hand: ``ai`` (index into the AIs), ``seat``, ``gain`` (levels gained),
    ``dealer`` / ``friend`` (bools), ``side_won`` (its side won the hand), ``catcher_points``
    (the hand's P), ``faults`` (decisions lost to the stand-in); the fault details are those of
    :class:`ai_plugins.arena.SeatResult`: ``lost_kinds``, ``first_faults``, ``dropped``,
    ``printed``, ``thread_left``, ``fault_events``."""

    ai: int
    seat: int
    gain: int
    dealer: bool
    friend: bool
    side_won: bool
    catcher_points: int
    faults: int
    lost_kinds: tuple[tuple[str, int], ...] = ()
    first_faults: tuple[tuple[str, str, str], ...] = ()
    dropped: str | None = None
    printed: int = 0
    thread_left: bool = False
    fault_events: int = 0


def play_zpy_deal(config: Any, deal: int, manager: Any, lineups_: list[tuple[int, ...]],
                  dseed: int, ledger: Any = None) -> list[ZpySeatResult]:
    """Play 找朋友 deal ``deal`` (seed ``dseed``) once per line-up; one result per seat-hand.

    ``ledger`` is the run's :class:`~ai_plugins.faults.FaultLedger` (default: a quiet one for
    this deal), shared by every seat as in :func:`ai_plugins.arena.play_deal`: faults are
    counted as decisions lost, and an AI the ledger has dropped is played by ``basic``."""
    from engine.ruleset import zhaopengyou
    from engine.zhaopengyou import ZpyHand

    from .arena import ai_seed
    from .faults import FaultLedger

    ledger = ledger if ledger is not None else FaultLedger(loud=False)
    ruleset = zhaopengyou()
    out: list[ZpySeatResult] = []
    for j, lineup in enumerate(lineups_):
        hand = ZpyHand.new(ruleset, seed=dseed)
        players = []
        for seat, ai in enumerate(lineup):
            name, budget, options = spec_player(config.ais[ai], config.budget_s, config.options)
            players.append(make_player(manager, name, seat, budget, ai_seed(dseed, j, seat),
                                       options=options, ledger=ledger))
        dropped_before = dict(ledger.dropped)
        try:
            st = play_hand(hand, players, max_actions=20_000)
        finally:
            for p in players:
                p.close()
        firsts = {id(f) for f in ledger.first.values()}
        for seat, ai in enumerate(lineup):
            p = players[seat]
            newly = ledger.dropped.get(p.name) if p.name not in dropped_before else None
            dropped_before.setdefault(p.name, newly or "")
            on_dealer_side = seat in st.dealer_side
            won = (st.winner == "dealer") == on_dealer_side
            out.append(ZpySeatResult(
                ai, seat, st.gains[seat], seat == hand.dealer, hand.friend == seat, won,
                st.catcher_points, p.lost, tuple(sorted(p.lost_kinds.items())),
                tuple((f.kind, f.reason, f.traceback) for f in p.faults if id(f) in firsts),
                newly, p.sink.total_lines if p.sink is not None else 0, p.left_running,
                len(p.faults)))
    return out


def summarize_zpy(config: Any, results: dict[int, list[ZpySeatResult]], labels: list[str],
                  lineup_names: list[str]) -> dict[str, Any]:
    """``{"ruleset": "zhaopengyou", "seed", "deals", "first_deal", "lineups", "legend", "ais": {label:
    {"hands", "mean_level_gain", "ci95", "dealer_rate", "dealer_win_rate", "friend_rate",
    "win_rate", "faults", "fault_report"}}}``; rates are fractions 0..1, ``None`` where
    undefined; ``faults`` and ``fault_report`` as in :func:`ai_plugins.arena.summarize`."""
    from .arena import _fault_report

    letters = "ABCDE"
    summary: dict[str, Any] = {
        "ruleset": "zhaopengyou", "seed": config.seed, "deals": len(results),
        "first_deal": config.first_deal,
        "budget_s": config.budget_s, "lineups": lineup_names,
        "legend": {letters[i]: labels[i] for i in range(len(labels))}, "ais": {},
    }
    for i, label in enumerate(labels):
        rows = [r for d in sorted(results) for r in results[d] if r.ai == i]
        per_deal = [statistics.fmean([r.gain for r in results[d] if r.ai == i])
                    for d in sorted(results) if any(r.ai == i for r in results[d])]
        ci = ci95_half_width(per_deal)
        dealer = [r for r in rows if r.dealer]
        summary["ais"][label] = {
            "hands": len(rows),
            "mean_level_gain": statistics.fmean([r.gain for r in rows]) if rows else None,
            "ci95": ci,
            "win_rate": sum(r.side_won for r in rows) / len(rows) if rows else None,
            "dealer_rate": len(dealer) / len(rows) if rows else None,
            "dealer_win_rate": sum(r.side_won for r in dealer) / len(dealer) if dealer else None,
            "friend_rate": sum(r.friend for r in rows) / len(rows) if rows else None,
            "faults": sum(r.faults for r in rows),
            "fault_report": _fault_report(rows),
        }
    return summary


def format_zpy_summary(summary: dict[str, Any]) -> list[str]:
    """The table ``hongwu arena --ruleset zhaopengyou`` prints, as lines."""
    def pct(x: Any) -> str:
        return "-" if x is None else f"{x * 100:.1f}%"

    head = ("AI", "hands", "levels/hand (95% CI)", "side won", "dealer rate", "dealer won",
            "friend rate", "faults")
    rows = [head]
    for label, s in summary["ais"].items():
        g = "-" if s["mean_level_gain"] is None else f"{s['mean_level_gain']:.3f}"
        if s["ci95"] is not None:
            g += f" ± {s['ci95']:.3f}"
        rows.append((label, str(s["hands"]), g, pct(s["win_rate"]), pct(s["dealer_rate"]),
                     pct(s["dealer_win_rate"]), pct(s["friend_rate"]), str(s["faults"])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = [f"arena (找朋友): {summary['deals']} deals x {len(summary['lineups'])} line-ups "
             f"({', '.join(summary['lineups'])}; "
             + ", ".join(f"{k}={v}" for k, v in summary["legend"].items())
             + f"), seed {summary['seed']}"]
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return lines
