"""Recording finished hands for a profile (战绩): the object ``hongwu play`` calls when a hand
is settled (README "Career"; RULES.md §11, §12)."""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from engine import replay, replay_zpy
from engine.coins import clamp_coins, raw_change
from engine.titles import promotions

from game.career.coins_day import StartRefusal, local_day, start_refusal

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Recorded:
    """What one recorded hand did to the profile: ``record_id``; ``points_before`` /
    ``points_after`` (accumulated game points); ``coins`` (the profile's clamped change);
    ``promotions`` (titles newly reached, lowest first, Chinese; empty most hands)."""

    record_id: int
    points_before: int
    points_after: int
    coins: int
    promotions: tuple[str, ...]


@dataclass(frozen=True)
class ZpyRecorded:
    """What one recorded 找朋友 hand did: ``record_id``; ``match_id``; ``hand_no``;
    ``levels_before`` / ``levels_after`` (per seat); ``my_gain`` (the profile's levels
    gained). 找朋友 hands add no game points and no coins (RULES.md §11, §12)."""

    record_id: int
    match_id: str
    hand_no: int
    levels_before: tuple[int, ...]
    levels_after: tuple[int, ...]
    my_gain: int


def new_match_id(clock: Any = time.time) -> str:
    """A fresh match id: the start time and a random tail, e.g. ``"20261201T150102-3f9a1c"``
    (hands of one 找朋友 match share it; sorts by start time)."""
    import secrets

    return time.strftime("%Y%m%dT%H%M%S", time.localtime(clock())) + "-" + secrets.token_hex(3)


class Recorder:
    """Records every finished hand at a table for profile ``profile`` (a name) in ``store``
    (a :class:`~game.career.store.Store`), seat ``seat`` (0) being the profile's, also when
    auto-played (托管). ``stake``: coins per game point (0: no coins). ``clock``: Unix seconds.

    Call :meth:`hand_finished` with the table (a :class:`game.table.LocalTable`, or a LAN
    ``RemoteTable``) once per settled hand; it commits before returning. :meth:`refusal` says whether the next hand may start (the daily coin cap).
    Raises CareerError (unknown profile) when built.
    """

    def __init__(self, store: Any, profile: str, stake: int = 0, seat: int = 0,
                 clock: Any = time.time) -> None:
        if stake < 0:
            raise ValueError("the stake is coins per game point, 0 or more")
        self.store = store
        self.profile = store.profile(profile)
        self.stake = stake
        self.seat = seat
        self.clock = clock
        self.last: Recorded | None = None
        self._last_game: Any = None  # the game recorded last (kept, so it is never recorded twice)
        self._zpy_last: Any = None  # the 找朋友 hand recorded last
        self._zpy_match: tuple[Any, str] | None = None  # (the match object, its id)
        self._zpy_lan: tuple[str, int, str] | None = None  # a LAN match: (table key, last hand_no, its id)
        self.last_zpy: ZpyRecorded | None = None

    def refusal(self) -> StartRefusal | None:
        """None when the profile may start the next hand, else why not and until when."""
        return start_refusal(self.store, self.profile.name, self.stake, self.clock())

    def hand_finished(self, table: Any, settlement: Any = None) -> Recorded | None:
        """Record the settled hand of ``table``; returns what it did, or None when there is
        nothing new to record: this hand was recorded already, or ``settlement`` (when given)
        is not the table's current one (it dealt on already).

        A local table (with an engine ``game``) is recorded from its game, the profile at
        :attr:`seat`. A table without one (a LAN :class:`net.remote_table.RemoteTable`) is
        recorded from its settled ``view()``, the profile at the table's ``seat``
        (:func:`engine.replay.lines_from_view`)."""
        game = getattr(table, "game", None)
        if game is None:
            return self._from_view(table, settlement)
        if getattr(game, "settlement", None) is None:
            return None
        if settlement is not None and game.settlement is not settlement:
            log.warning("hand not recorded: the table has dealt another hand since")
            return None
        if game is self._last_game:
            return None
        self._last_game = game
        return self.record_game(game, self._names(table, game.ruleset.players, self.seat))

    def _names(self, table: Any, n: int, me: int) -> list[str]:
        names = getattr(table, "names", None)
        names = list(names() if callable(names) else names or getattr(table, "kinds", None) or [])
        seats = [str(names[i]).replace(" [auto]", "").replace(" [offline]", "") if i < len(names) else f"seat {i}"
                 for i in range(n)]
        seats[me] = self.profile.name
        return seats

    def _from_view(self, table: Any, settlement: Any) -> Recorded | None:
        view = table.view() if callable(getattr(table, "view", None)) else None
        me = getattr(table, "seat", None)
        if view is None or view.settlement is None or view.buried is None or me is None:
            log.info("hand not recorded: the table shows no settled hand with the kitty")
            return None
        if settlement is not None and view.settlement != settlement:
            log.warning("hand not recorded: the table has dealt another hand since")
            return None
        key = (view.hand_no, view.settlement)
        if key == self._last_game:
            return None
        self._last_game = key
        seats = self._names(table, view.ruleset.players, me)
        coins_of = getattr(table, "coins", None)  # a staked LAN table: the host's clamped coins
        host_coins = coins_of(view.hand_no) if callable(coins_of) else None
        stake = int(getattr(table, "stake", 0) or 0) if host_coins is not None else None
        return self._store(view.settlement, view.ruleset, view.trump, None, seats, me,
                           lambda **extra: "\n".join(replay.lines_from_view(view, **extra)) + "\n",
                           host_coins=host_coins, stake=stake)

    def record_game(self, game: Any, seats: list[str]) -> Recorded:
        """Record a settled engine ``game`` with seat names ``seats`` (the profile's at
        :attr:`seat`). Raises ValueError when the game is not settled."""
        if game.settlement is None:
            raise ValueError("only a settled hand can be recorded")
        return self._store(game.settlement, game.ruleset, game.trump, game.seed, seats, self.seat,
                           lambda **extra: replay.dumps(game, **extra))

    def _store(self, s: Any, ruleset: Any, trump: str, seed: int | None, seats: list[str], me: int,
               text_of: Any, host_coins: Any = None, stake: int | None = None) -> Recorded:
        """Store one settled hand. ``host_coins`` (a staked LAN table: the coins per seat the
        host clamped per player name, RULES.md §12) are recorded as given, at the table's
        ``stake``: the host's figure is authoritative for its table and is not clamped again
        here; it still counts in the profile's local daily ledger. Without them the coins are
        computed from :attr:`stake` and the profile's day so far."""
        now = self.clock()
        day = local_day(now)
        store = self.store
        if host_coins is not None and len(host_coins) == len(s.game_points):
            stake = int(stake or 0)
            coins = [int(c) for c in host_coins]
        else:
            stake = self.stake
            net = store.day_net(self.profile.id, day) if stake else 0
            coins = [clamp_coins(raw_change(g, stake), net if i == me else 0) for i, g in enumerate(s.game_points)]
        when = time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(now))
        text = text_of(seats=seats, time=when, stake=stake, coins=coins, seat=me)
        d = s.dealer
        before = store.conn.execute("SELECT points FROM profiles WHERE id = ?", (self.profile.id,)).fetchone()[0]
        opts = ruleset.options
        rid = store.add_record(self.profile.id, {
            "time": now, "day": day, "ruleset": ruleset.name,
            "options": {k: getattr(opts, k) for k in opts.__dataclass_fields__}, "seed": seed, "seats": seats,
            "seat": me, "dealer": d, "bid": s.bid, "trump": trump,
            "points": s.trick_points[d] + (s.kitty_points if s.kitty_counted else 0),
            "dealer_final": s.dealer_final, "game_points": s.game_points, "coins": coins, "stake": stake,
            "my_points": s.game_points[me], "my_coins": coins[me],
            "red_fives_won": sum(1 for f, t in s.red_fives if t == me),
            "red_fives_lost": sum(1 for f, t in s.red_fives if f == me),
            "replay": text})
        after = before + s.game_points[me]
        self.last = Recorded(rid, before, after, coins[me], tuple(promotions(before, after)))
        return self.last

    # -- 找朋友 ----------------------------------------------------------------------------
    def zpy_hand_finished(self, match: Any, seats: list[str] | None = None,
                          match_id: str | None = None) -> ZpyRecorded | None:
        """Record the settled current hand of 找朋友 ``match`` (an :class:`engine.match.ZpyMatch`,
        before or after its ``finish_hand()``, before ``next_hand()``), the profile at
        :attr:`seat`; ``seats`` names per seat (default "seat N"; the profile's is put in).
        ``match_id``: default one id per match object (:func:`new_match_id`, made on its
        first hand), so the hands of a match group together. Returns what it did, or None
        when the hand is not settled or was recorded already. Commits before returning.
        Raises ValueError for a seed-less hand that was redealt (cannot be replayed)."""
        hand = match.hand
        if hand.settlement is None or hand is self._zpy_last:
            return None
        if match_id is None:
            if self._zpy_match is None or self._zpy_match[0] is not match:
                self._zpy_match = (match, new_match_id(self.clock))
            match_id = self._zpy_match[1]
        self._zpy_last = hand
        return self.record_zpy_hand(hand, seats, match_id)

    def zpy_lan_hand_finished(self, hand: Any, seats: list[str] | None, seat: int,
                              table_key: str) -> ZpyRecorded | None:
        """Record a 找朋友 hand played at a LAN table: ``hand`` is the settled engine hand the
        client rebuilt (``net.remote_table.RemoteTable.settled_zpy_hand``, :mod:`net.zpy_log`),
        ``seat`` the profile's seat there, ``seats`` the names at the table, ``table_key``
        which table (``"host:port/name"``). The hands of one LAN match share a match id: a new
        one when the table changes or its hand numbers start again; the first hand this
        recorder sees continues the profile's latest 找朋友 match when that one is the hand
        before at the same seat with the same levels (a client restarted mid-match). Returns
        what it did, or None when ``hand`` is None, not settled, or was recorded already."""
        if hand is None or hand.settlement is None:
            return None
        last = self._zpy_lan
        if last is not None and last[0] == table_key and last[1] == hand.hand_no:
            return None
        if last is not None and last[0] == table_key and hand.hand_no > last[1]:
            match_id = last[2]
        else:
            match_id = self._continued_match(hand, seat) or new_match_id(self.clock)
        self._zpy_lan = (table_key, hand.hand_no, match_id)
        return self.record_zpy_hand(hand, seats, match_id, seat=seat)

    def _continued_match(self, hand: Any, seat: int) -> str | None:
        """The id of the profile's latest 找朋友 match when ``hand`` follows on from its last
        hand (next hand number, same seat, levels carried on, game not over), else None."""
        import json

        row = self.store.conn.execute(
            "SELECT z.match_id, z.hand_no, z.levels_after, z.game_over, r.seat FROM zpy_hands z"
            " JOIN records r ON r.id = z.record_id WHERE z.profile_id = ? ORDER BY z.record_id DESC LIMIT 1",
            (self.profile.id,)).fetchone()
        if row is None or hand.hand_no <= 1:
            return None
        match_id, hand_no, after, over, was = row
        if over or was != seat or hand_no != hand.hand_no - 1 or json.loads(after) != list(hand.levels):
            return None
        return str(match_id)

    def record_zpy_hand(self, hand: Any, seats: list[str] | None, match_id: str,
                        seat: int | None = None) -> ZpyRecorded:
        """Record a settled 找朋友 ``hand`` (:class:`engine.zhaopengyou.ZpyHand`) of match
        ``match_id`` with seat names ``seats``, the profile at ``seat`` (default
        :attr:`seat`). Raises ValueError when it is not settled."""
        st = hand.settlement
        if st is None:
            raise ValueError("only a settled hand can be recorded")
        n = hand.ruleset.players
        names = [str(x) for x in (seats or [])][:n] + [f"seat {i}" for i in range(len(seats or []), n)]
        me = self.seat if seat is None else seat
        names[me] = self.profile.name
        now = self.clock()
        when = time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(now))
        text = replay_zpy.dumps(hand, seats=names, time=when, seat=me, match_id=str(match_id))
        card, nth = hand.friend_call
        rid = self.store.add_zpy_record(self.profile.id, {
            "time": now, "day": local_day(now), "options": replay_zpy.options_dict(hand.ruleset), "seed": hand.seed,
            "seats": names, "seat": me, "dealer": hand.dealer, "trump": hand.trump, "match_id": str(match_id),
            "hand_no": hand.hand_no, "friend": hand.friend, "alone": st.alone, "friend_call": f"{card}/{nth}",
            "level": hand.level, "catcher_points": st.catcher_points, "winner": st.winner,
            "dealer_side": st.dealer_side, "levels_before": hand.levels, "levels_after": st.levels,
            "game_over": st.game_over, "game_winners": st.game_winners, "replay": text})
        self.last_zpy = ZpyRecorded(rid, str(match_id), hand.hand_no, tuple(hand.levels), tuple(st.levels),
                                    st.levels[me] - hand.levels[me])
        return self.last_zpy
