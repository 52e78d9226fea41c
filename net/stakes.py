"""Coins at a LAN table (RULES.md §12, "Coins at a LAN table"; PROTOCOL.md ``Table.stake``,
``Settlement.coins``, ``DAILY_CAP``): the host's per-name daily coin ledger.

The host knows its players only by the names they give in ``hello``, so the caps are kept
per player *name* and per local calendar day of the host's clock: a player who joins under
another name starts that day afresh (the caps bind names, not people). AI seats never win or
lose coins. The arithmetic is the engine's (:mod:`engine.coins`); this module only stores the
clamped changes and answers "how far is NAME today".

Storage: one SQLite table ``coin_ledger`` in the host's journal file (net/journal.py), so the
figures survive a restart (with or without ``--resume``: a restart must not reset anyone's
day); with ``--no-journal`` the same table lives in an in-memory database for the run. One row
per human seat per settled staked hand::

    coin_ledger(run TEXT, table_name TEXT, hand_no INT, seat INT, name TEXT, day TEXT,
                coins INT, time REAL)

``run`` tells one host session's hand numbers from another's (hand numbers start again at 1
when a host starts without ``--resume``).
"""
from __future__ import annotations

import datetime as _dt
import secrets
import sqlite3
import time
from typing import Any, Sequence

from engine.coins import DAY_CAP, HAND_CAP, at_daily_cap, clamp_coins, raw_change

SCHEMA = """
CREATE TABLE IF NOT EXISTS coin_ledger (
    run TEXT NOT NULL, table_name TEXT NOT NULL, hand_no INTEGER NOT NULL, seat INTEGER NOT NULL,
    name TEXT NOT NULL, day TEXT NOT NULL, coins INTEGER NOT NULL, time REAL NOT NULL,
    PRIMARY KEY (run, table_name, hand_no, seat));
CREATE INDEX IF NOT EXISTS coin_ledger_day ON coin_ledger (day, name);
"""
"""The ledger's table (additive to the journal's schema: an older journal file gets it on
opening, its schema version unchanged)."""


def local_day(now: float) -> str:
    """The host's local calendar day of Unix time ``now``, ``YYYY-MM-DD``."""
    return time.strftime("%Y-%m-%d", time.localtime(now))


def cap_lifts_at(now: float) -> str:
    """When a daily cap reached at Unix time ``now`` lifts: the next local midnight of the
    host, ISO 8601 with its UTC offset, e.g. ``2026-12-02T00:00+01:00``."""
    d = _dt.datetime.fromtimestamp(now).date() + _dt.timedelta(days=1)
    return _dt.datetime.combine(d, _dt.time()).astimezone().isoformat(timespec="minutes")


class CoinLedger:
    """The host's coin ledger on ``conn`` (an autocommit ``sqlite3`` connection, the
    journal's or an in-memory one); ``run`` identifies this host session (see the module doc).

    :meth:`day_net` is served from a cache filled from the file once per (day, name)."""

    def __init__(self, conn: sqlite3.Connection, run: str | None = None) -> None:
        self.conn = conn
        self.run = run or secrets.token_hex(8)
        conn.executescript(SCHEMA)
        self._nets: dict[tuple[str, str], int] = {}

    @classmethod
    def memory(cls) -> "CoinLedger":
        """A ledger that lasts as long as the process (a host run with ``--no-journal``)."""
        return cls(sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False))

    def day_net(self, name: str, day: str) -> int:
        """``name``'s net clamped coins on ``day`` (all tables of this host, all its runs)."""
        key = (day, name)
        net = self._nets.get(key)
        if net is None:
            row = self.conn.execute("SELECT COALESCE(SUM(coins), 0) FROM coin_ledger "
                                    "WHERE day=? AND name=?", (day, name)).fetchone()
            net = self._nets[key] = int(row[0])
        return net

    def hand(self, table: str, hand_no: int, seats: int) -> list[int] | None:
        """The coins recorded for hand ``hand_no`` of ``table`` in this run, one per seat (0
        for seats without a row: AIs), or None when that hand has no rows."""
        rows = self.conn.execute("SELECT seat, coins FROM coin_ledger WHERE run=? AND "
                                 "table_name=? AND hand_no=?", (self.run, table, hand_no)).fetchall()
        if not rows:
            return None
        out = [0] * seats
        for seat, coins in rows:
            if 0 <= seat < seats:
                out[seat] = int(coins)
        return out

    def settle(self, table: str, hand_no: int, game_points: Sequence[int],
               names: Sequence[str | None], stake: int, now: float) -> list[int]:
        """Clamp and record one settled hand: ``names`` per seat (None: an AI or empty seat,
        which gets 0). Each human seat's change is ``clamp_coins(gp * stake, net so far
        today)`` (:mod:`engine.coins`; a name seated twice is clamped seat after seat).
        Returns the coins per seat; the rows are committed in one transaction before it
        returns. A hand already recorded (same run, table, hand) is not counted twice: its
        recorded coins are returned. Raises ``sqlite3.Error`` when the file cannot be written."""
        done = self.hand(table, hand_no, len(names))
        if done is not None:
            return done
        day = local_day(now)
        coins = [0] * len(names)
        rows = []
        for seat, (gp, name) in enumerate(zip(game_points, names)):
            if not name:
                continue
            c = clamp_coins(raw_change(gp, stake), self.day_net(name, day), HAND_CAP, DAY_CAP)
            coins[seat] = c
            rows.append((self.run, table, hand_no, seat, name, day, c, now))
            self._nets[(day, name)] = self.day_net(name, day) + c
        try:
            self.conn.execute("BEGIN")
            self.conn.executemany("INSERT INTO coin_ledger VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            self.conn.execute("COMMIT")
        except sqlite3.Error:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            self._nets.clear()  # re-read from the file next time
            raise
        return coins

    def refusal(self, name: str, now: float) -> dict[str, Any] | None:
        """None when ``name`` may start a staked hand at ``now``, else the ``Refusal`` map
        ``{"code": "daily_coin_cap", "params": {"name", "day_net", "cap", "until"}}``
        (``until``: :func:`cap_lifts_at`)."""
        net = self.day_net(name, local_day(now))
        if not at_daily_cap(net, DAY_CAP):
            return None
        return {"code": "daily_coin_cap",
                "params": {"name": name, "day_net": net, "cap": DAY_CAP, "until": cap_lifts_at(now)}}


def refusal_message(refusal: dict[str, Any]) -> str:
    """The English sentence for a ``daily_coin_cap`` refusal (the ``DAILY_CAP`` error's
    message)."""
    p = refusal["params"]
    return (f"{p['name']} has reached the daily coin cap ({p['day_net']:+,} today, cap "
            f"±{p['cap']:,}); staked hands open again at {p['until']} (host's local time)")
