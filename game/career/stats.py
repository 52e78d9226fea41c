"""Statistics of a profile's career, computed in SQL over its records (README "Career").

:func:`stats` answers in one aggregate query plus one column scan (the points series), so it
stays fast on a large store (benchmarks/career_speed.py: 100,000 hands)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.scoring import TITLES


@dataclass(frozen=True)
class Stats:
    """A profile's statistics: ``profile``; ``hands``; ``dealer_hands`` and ``dealer_rate``
    (share of hands it was dealer, 0–1); ``dealer_wins`` and ``dealer_success_rate`` (share of
    its dealer hands with a final above 0; None without dealer hands); ``mean_bid`` (its
    winning bids as dealer; None without); ``mean_bid_all`` (the dealer's bid over all hands);
    ``best`` / ``worst`` (``{"id", "game_points", "time"}`` of its best and worst hand, None
    without hands); ``red_fives_won`` / ``red_fives_lost`` (captured by it / from it);
    ``coins`` (net over the records); ``points`` (accumulated); ``titles`` (``[{"title",
    "en", "threshold", "record_id", "time"}]`` each title reached, the first hand reaching
    it; 赤脚 has record_id None); ``series`` (accumulated game points after each hand, oldest
    first: the chart's data)."""

    profile: str
    hands: int
    dealer_hands: int
    dealer_rate: float
    dealer_wins: int
    dealer_success_rate: float | None
    mean_bid: float | None
    mean_bid_all: float | None
    best: dict | None
    worst: dict | None
    red_fives_won: int
    red_fives_lost: int
    coins: int
    points: int
    titles: list[dict]
    series: list[int]

    def as_dict(self, series: bool = True) -> dict[str, Any]:
        """Plain form (``hongwu stats --json``); ``series`` False leaves the series out."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        if not series:
            d.pop("series")
        return d


def stats(store: Any, profile_name: str) -> Stats:
    """The :class:`Stats` of profile ``profile_name`` in ``store``. Raises CareerError for an
    unknown profile."""
    p = store.profile(profile_name)
    c = store.conn
    (hands, dh, dw, mb, mba, rw, rl, coins) = c.execute(
        "SELECT count(*), total(dealer = seat), total(dealer = seat AND dealer_final > 0),"
        " avg(CASE WHEN dealer = seat THEN bid END), avg(bid), total(red_fives_won), total(red_fives_lost),"
        " total(my_coins) FROM records WHERE profile_id = ?", (p.id,)).fetchone()
    dh, dw, rw, rl, coins = int(dh), int(dw), int(rw), int(rl), int(coins)

    def one(order: str) -> dict | None:
        row = c.execute(f"SELECT id, my_points, time FROM records WHERE profile_id = ? ORDER BY my_points {order},"
                        " id LIMIT 1", (p.id,)).fetchone()
        return {"id": row[0], "game_points": row[1], "time": row[2]} if row else None

    rows = c.execute("SELECT id, time, total_after FROM records WHERE profile_id = ? ORDER BY id", (p.id,)).fetchall()
    series = [r[2] for r in rows]
    titles = [{"title": TITLES[0][1], "en": TITLES[0][2], "threshold": 0, "record_id": None, "time": None}]
    k = 1
    for rid, t, total in rows:  # first hand at or past each threshold
        while k < len(TITLES) and total >= TITLES[k][0]:
            titles.append({"title": TITLES[k][1], "en": TITLES[k][2], "threshold": TITLES[k][0],
                           "record_id": rid, "time": t})
            k += 1
    return Stats(p.name, hands, dh, dh / hands if hands else 0.0, dw, dw / dh if dh else None, mb, mba,
                 one("DESC"), one("ASC"), rw, rl, coins, p.points, titles, series)
