"""Statistics of a profile's career (README "Career").

The store keeps running totals per profile (``profile_totals``) and the first hand reaching
each title (``titles_reached``), updated in the transaction that records a hand; best and
worst hands come from an index. So :func:`stats` reads a few rows plus the points series,
and stays fast on a large store (benchmarks/career_speed.py: 100,000 hands)."""
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
    first, or every k-th with ``series_max``: the chart's data)."""

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


def stats(store: Any, profile_name: str, series_max: int | None = None) -> Stats:
    """The :class:`Stats` of profile ``profile_name`` in ``store``. ``series_max``: at most
    about that many points in ``series`` (the hands whose record id is a multiple of k, and the
    last: an even sample, enough for a chart), None for every hand. Raises CareerError for an unknown profile."""
    p = store.profile(profile_name)
    c = store.conn
    row = c.execute("SELECT dealer_hands, dealer_wins, dealer_bid_sum, bid_sum, red_fives_won, red_fives_lost,"
                    " coins_net FROM profile_totals WHERE profile_id = ?", (p.id,)).fetchone()
    dh, dw, dbs, bs, rw, rl, coins = row or (0, 0, 0, 0, 0, 0, 0)
    hands = p.hands

    def one(order: str) -> dict | None:
        r = c.execute(f"SELECT id, my_points, time FROM records WHERE profile_id = ? AND ruleset != 'zhaopengyou'"
                      f" ORDER BY my_points {order}"
                      " LIMIT 1", (p.id,)).fetchone()
        return {"id": r[0], "game_points": r[1], "time": r[2]} if r else None

    titles = [{"title": TITLES[0][1], "en": TITLES[0][2], "threshold": 0, "record_id": None, "time": None}]
    for k, rid, t in c.execute("SELECT title, record_id, time FROM titles_reached WHERE profile_id = ? ORDER BY title",
                               (p.id,)):
        titles.append({"title": TITLES[k][1], "en": TITLES[k][2], "threshold": TITLES[k][0], "record_id": rid,
                       "time": t})
    step = max(1, -(-hands // series_max)) if series_max else 1
    if step == 1:
        series = [r[0] for r in c.execute("SELECT total_after FROM records WHERE profile_id = ? AND ruleset != 'zhaopengyou'"
                                          " ORDER BY id", (p.id,))]
    else:
        last = c.execute("SELECT max(id) FROM records WHERE profile_id = ? AND ruleset != 'zhaopengyou'",
                         (p.id,)).fetchone()[0]
        series = [r[0] for r in c.execute("SELECT total_after FROM records WHERE profile_id = ? AND"
                                          " ruleset != 'zhaopengyou' AND (id % ? = 0 OR id = ?) ORDER BY id", (p.id, step, last))]
    return Stats(p.name, hands, dh, dh / hands if hands else 0.0, dw, dw / dh if dh else None,
                 dbs / dh if dh else None, bs / hands if hands else None, one("DESC"), one("ASC"), rw, rl, coins,
                 p.points, titles, series)
