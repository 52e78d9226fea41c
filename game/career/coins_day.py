"""The local calendar day coins count for, and the daily-cap refusal (RULES.md §12)."""
from __future__ import annotations

import datetime as _dt
import time
from dataclasses import dataclass

from engine.coins import DAY_CAP, at_daily_cap


def local_day(now: float | None = None) -> str:
    """The local calendar day of Unix time ``now`` (default: now) as ``YYYY-MM-DD``."""
    return time.strftime("%Y-%m-%d", time.localtime(time.time() if now is None else now))


def next_midnight(now: float | None = None) -> _dt.datetime:
    """The next local midnight after ``now`` (a naive local datetime): when a day's cap ends."""
    d = _dt.datetime.fromtimestamp(time.time() if now is None else now).date() + _dt.timedelta(days=1)
    return _dt.datetime.combine(d, _dt.time())


@dataclass(frozen=True)
class StartRefusal:
    """Why a profile may not start a staked hand now: ``profile`` (name), ``day_net`` (its net
    coins today), ``cap`` and ``until`` (the local midnight when it may play again).
    ``message`` is the English sentence the CLI prints; the client formats its own from the
    fields (``code`` ``"daily_coin_cap"``)."""

    profile: str
    day_net: int
    cap: int
    until: _dt.datetime
    code: str = "daily_coin_cap"

    @property
    def message(self) -> str:
        """e.g. ``Ann has reached the daily coin cap (+80,000,000 today); staked hands open
        again at 2026-12-02 00:00``."""
        return (f"{self.profile} has reached the daily coin cap ({self.day_net:+,} today, cap ±{self.cap:,}); "
                f"staked hands open again at {self.until:%Y-%m-%d %H:%M} (local time)")


def start_refusal(store, profile_name: str, stake: int, now: float | None = None,
                  day_cap: int = DAY_CAP) -> StartRefusal | None:
    """None when ``profile_name`` may start a hand at ``stake`` coins per game point, else the
    :class:`StartRefusal`. Hands without a stake (0) are always allowed: they move no coins
    (RULES.md §12). Raises :class:`~game.career.store.CareerError` for an unknown profile."""
    p = store.profile(profile_name)
    if stake <= 0:
        return None
    net = store.day_net(p.id, local_day(now))
    if at_daily_cap(net, day_cap):
        return StartRefusal(p.name, net, day_cap, next_midnight(now))
    return None
