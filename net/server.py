"""The authoritative asyncio host: tables, seats, turn timers, auto-play, per-seat views.

One :class:`Server` listens on a TCP port and hosts one or more :class:`Room` (a table with
four seats and any number of observers). Each connection is a :class:`Session`. The engine's
``Game`` lives only here; every session receives only what its seat may see: events through
``Event.for_seat(seat)`` and its ``game.view(seat)`` (observers: seat None). The full state is
never sent.

Robustness rules (PROTOCOL.md "Limits"): a frame over the size limit, bytes that are not msgpack,
or a document that is not a message close that connection (after a ``goodbye``); a bad request
is answered with an error; floods are answered RATE_LIMITED and, far beyond the limit,
disconnected; a client that does not read is dropped. None of this touches other sessions.

Example (inside a coroutine)::

    server = Server(ServerConfig(bind="127.0.0.1", port=0))
    await server.start()          # server.port is the bound port
    ...
    await server.close()
"""
from __future__ import annotations

import asyncio
import gc
import concurrent.futures
import itertools
import logging
import random
import secrets
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from engine.ruleset import hongwu
from engine.state import ChooseTrump, Game, IllegalAction, Phase

from . import codec, framing, limits, protocol, stakes
from .addresses import bound_hosts, listening_addresses
from .ai import AIProvider
from .protocol import ErrorCode, ProtocolError, PROTOCOL_VERSION, SUPPORTED_VERSIONS

log = logging.getLogger(__name__)

SERVER_NAME = f"hongwu-host/{PROTOCOL_VERSION}"

#: Messages of one read handled before the session lets the event loop serve the others
#: (a flood arrives 4,000 pings to a read; the well-behaved sessions must not wait for them).
_FAIR_SLICE = 16

#: Action method -> the engine's action class name (the ``action`` param of ``wrong_phase``).
_ACTION_NAMES = {method: cls.__name__ for cls, method in codec.ACTION_METHODS.items()}


def _refusal(code: str, **params: Any) -> dict[str, Any]:
    """The ``Refusal`` map for a refusal the host makes itself before asking the engine,
    with the engine's code and parameters for the same case (engine/refusals.py)."""
    return {"code": code, "params": params}


# ============================================================================ configuration
@dataclass
class Timers:
    """Turn time limits in seconds per phase (0 = no limit). Trump: RULES §3 (30 s, then ♠).
    找朋友 only: ``deal`` a polled seat's declaration window (then it passes), ``call_friend``
    (then auto-play), ``counter`` a counter turn (then it passes); see net/zpy_room.py."""

    bid: float = 20.0
    trump: float = 30.0
    bury: float = 60.0
    play: float = 20.0
    deal: float = 3.0
    call_friend: float = 60.0
    counter: float = 10.0

    def for_phase(self, phase: Phase) -> float:
        """Seconds allowed for a turn in ``phase`` (0 for phases without turns)."""
        return float(getattr(self, phase.value, 0.0) or 0.0)

    def to_wire(self) -> dict[str, float]:
        """The ``Timers`` map."""
        return {"bid": float(self.bid), "trump": float(self.trump), "bury": float(self.bury),
                "play": float(self.play)}


@dataclass
class TableConfig:
    """One table's settings.

    ``name`` (≤ 24 chars); ``decks`` 2 or 3; ``options`` rule options (RuleOptions names);
    ``timers``; ``seed`` (int: reproducible deals; None: random); ``ai_delay_s`` seconds an
    AI seat waits before acting (so people can follow); ``auto_delay_s`` seconds auto-play waits
    for a human seat (a chance to act first); ``ai_budget_s`` seconds per AI decision;
    ``deal_card_s`` 找朋友 only: seconds between two dealt cards sent out (the host paces
    the deal card by card, net/zpy_room.py; 0: the whole deal at once); ``auto_ai`` AI used for 托管 (None: ``basic`` or the fallback); ``fill_policy`` ``"host"``
    (only the host may seat, swap or remove AIs) or ``"seated"`` (the host or any seated
    player: a headless host; ``"anyone"`` is an old name for it; observers never may,
    PROTOCOL.md ``fill``); ``max_observers``; ``ai_seats`` seats
    filled with an AI at start (``{seat: ai_name}``); ``max_hands`` hands after which no new
    hand is dealt (None: no limit); ``seat_grace_s`` seconds a seat whose player is
    disconnected between hands is kept waiting for them before a stand-in (the auto-play AI)
    takes it over so the next hand can start (0: wait for ever; the seat stays theirs either
    way, see PROTOCOL.md section 10). The same ``seat_grace_s`` bounds how long a connected
    player who does not say ready keeps a table waiting once another seat is ready: then a
    stand-in plays the seat (auto-play, counted ready) and the hand is dealt.
    ``ruleset`` ``"hongwu"`` (four seats) or ``"zhaopengyou"`` (找朋友: five seats, three
    decks, a match carried from hand to hand; ``decks`` is then ignored and ``options`` are
    ZhaoPengyouOptions names; net/zpy_room.py). ``stake`` coins per game point (红五 only;
    0: no coins): each human seat's coins per hand, clamped per player name and host day
    (RULES.md §12, net/stakes.py). ``xray`` (``hongwu host --xray``; off by default): a
    learners' table whose AI seats' reasoning — the candidates each weighed, cards of its own
    hand among them — goes to the sessions that ask with ``xray`` (PROTOCOL.md ``xray``,
    section 7); never at a staked table (ValueError).
    """

    name: str = "Hong Wu"
    decks: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    timers: Timers = field(default_factory=Timers)
    seed: int | None = None
    ai_delay_s: float = 0.6
    auto_delay_s: float = 1.0
    deal_card_s: float = 0.05
    ai_budget_s: float = 2.0
    auto_ai: str | None = None
    fill_policy: str = "host"
    max_observers: int = 32
    ai_seats: dict[int, str] = field(default_factory=dict)
    max_hands: int | None = None
    seat_grace_s: float = 60.0
    ruleset: str = "hongwu"
    stake: int = 0
    xray: bool = False


@dataclass
class ServerConfig:
    """Server settings.

    ``bind`` address (tests: ``"127.0.0.1"``) and ``port`` (0 = ephemeral); ``tables``;
    ``max_frame`` bytes per frame; ``rate`` messages/second sustained and ``burst`` messages
    per connection (token bucket); ``flood`` refused messages outstanding (forgiven at
    ``rate`` per second) before the connection is closed; ``hello_timeout`` / ``idle_timeout`` seconds; ``max_connections``;
    ``max_write_buffer`` bytes waiting in the host for one client (beyond the operating
    system's ``send_buffer`` bytes, fixed per socket) before it is dropped as too slow
    (SLOW_CONSUMER, PROTOCOL.md section 9);
    ``host_key`` (None: a random one, see :attr:`Server.host_key`);
    ``max_per_address`` connections and ``max_prehello_per_address`` not yet past hello from
    one address, ``token_reserve`` places of ``max_connections`` kept for reconnects (see
    :mod:`net.limits`); ``chat_rate``/``chat_burst`` chat lines per second per table (all its
    sessions together) and ``chat_session_rate``/``chat_session_burst`` per session;
    ``accept_batch`` the listen backlog, which is also how many new connections the event loop
    takes in one go (a burst of hostile connects then delays the tables by a few ms at most).
    """

    bind: str = "0.0.0.0"
    port: int = protocol.DEFAULT_PORT
    tables: list[TableConfig] = field(default_factory=lambda: [TableConfig()])
    max_frame: int = framing.MAX_FRAME
    rate: float = 50.0
    burst: float = 200.0
    flood: float = 200.0
    hello_timeout: float = 10.0
    idle_timeout: float = 120.0
    max_connections: int = 512
    max_write_buffer: int = 1 << 20
    host_key: str | None = None
    send_buffer: int = 64 * 1024
    accept_batch: int = 16
    max_per_address: int = 64
    max_prehello_per_address: int = 8
    token_reserve: int = 16
    chat_rate: float = 4.0
    chat_burst: float = 8.0
    chat_session_rate: float = 1.0
    chat_session_burst: float = 4.0

    def caps(self) -> limits.Caps:
        """The connection caps of this configuration."""
        return limits.Caps(self.max_connections, self.max_per_address,
                           self.max_prehello_per_address, self.token_reserve)


def same_secret(given: Any, expected: str | None) -> bool:
    """Whether ``given`` (a token or key from the wire) equals ``expected``, compared in constant
    time.  Any string works, ASCII or not (both are compared as UTF-8 bytes); anything else,
    or an unset ``expected``, is simply False (PROTOCOL.md section 3)."""
    if not isinstance(given, str) or not expected:
        return False
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8"))


def _peer_address(writer: asyncio.StreamWriter) -> str:
    """The peer's IP address text of a connection ("" when unknown)."""
    peer = writer.get_extra_info("peername")
    if isinstance(peer, (tuple, list)) and peer:
        return str(peer[0])
    return str(peer or "")


def fill_policy(name: str) -> str:
    """The wire name of a table's fill policy: ``"host"`` or ``"seated"`` (``"anyone"``,
    its old name, means ``"seated"``: observers never change seats)."""
    return "seated" if name in ("seated", "anyone") else "host"


def clean_name(name: str, fallback: str = "player") -> str:
    """A display name without control characters, trimmed to ``protocol.NAME_MAX``."""
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C").strip()
    return text[: protocol.NAME_MAX] or fallback


def clean_title(title: Any) -> str | None:
    """A ``hello.title`` as shown on plates: control characters dropped, trimmed to
    ``protocol.TITLE_MAX``; None when nothing visible is left."""
    if not isinstance(title, str):
        return None
    text = "".join(ch for ch in title if unicodedata.category(ch)[0] != "C").strip()
    return text[: protocol.TITLE_MAX] or None


def _table_of(obj: Any) -> Any:
    """The ``Table`` map inside an answer or notification (itself, ``table``, or
    ``snapshot.table``), or None."""
    if not isinstance(obj, dict):
        return None
    if "seats" in obj:
        return obj
    for key in ("table", "snapshot"):
        inner = _table_of(obj.get(key))
        if inner is not None:
            return inner
    return None


def has_titles(obj: Any) -> bool:
    """True when the Table map in ``obj`` carries a seat ``title`` (version 3 only)."""
    table = _table_of(obj)
    return table is not None and any("title" in s for s in table.get("seats") or ())


def without_titles(obj: Any) -> Any:
    """A copy of ``obj`` whose Table map's seats have no ``title`` (for sessions that speak
    a version before :data:`~net.protocol.TITLES_SINCE`); ``obj`` itself when it has none."""
    if not has_titles(obj):
        return obj
    if "seats" in obj:
        return {**obj, "seats": [{k: v for k, v in s.items() if k != "title"} for s in obj["seats"]]}
    return {k: (without_titles(v) if k in ("table", "snapshot") else v) for k, v in obj.items()}


# ============================================================================ seats / rooms
@dataclass
class SeatState:
    """One seat of a room. ``kind`` empty/human/ai; ``token`` the reconnect token of the human
    holding it; ``session`` the connected session (None when disconnected); ``auto`` whether
    the seat is auto-played now and ``auto_reason`` why."""

    index: int
    kind: str = "empty"
    name: str | None = None
    ai_name: str | None = None
    token: str | None = None
    session: "Session | None" = None
    ready: bool = False
    auto: bool = False
    auto_reason: str | None = None
    score: int = 0
    player: Any = None  # AI player for kind "ai" or for auto-play of a human seat
    left: bool = False  # the player said bye during a hand: free the seat after it
    stand_in: bool = False  # away past the grace time: auto-played and kept ready
    resumes: int = 0  # times the seat was resumed with its token (host console)
    title: str | None = None  # the player's title from its hello (protocol 3), for the plates
    capped: str | None = None  # staked table: when this player's daily coin cap lifts (else None)

    def to_wire(self) -> dict[str, Any]:
        """The ``Seat`` map (``title`` only when the player gave one)."""
        out = {
            "seat": self.index, "kind": self.kind, "name": self.name, "ai": self.ai_name,
            "ready": self.kind == "ai" or self.ready,
            "connected": self.kind == "ai" or self.session is not None,
            "auto": self.kind == "ai" or self.auto, "score": self.score,
        }
        if self.title and self.kind == "human":
            out["title"] = self.title
        if self.capped and self.kind == "human":
            out["capped"] = self.capped
        return out

    def clear(self) -> None:
        """Back to an empty seat (the score stays with the seat)."""
        if self.player is not None and hasattr(self.player, "close"):
            try:
                self.player.close()
            except Exception:  # pragma: no cover - an AI's problem
                log.exception("closing an AI player failed")
        self.kind, self.name, self.ai_name, self.token = "empty", None, None, None
        self.session, self.ready, self.auto, self.auto_reason, self.player = (
            None, False, False, None, None)
        self.left = False
        self.stand_in = False
        self.resumes = 0
        self.title = None
        self.capped = None


class Room:
    """One table: four seats, observers, the current ``Game`` and the turn machinery.

    All methods run in the event loop thread. Methods called on behalf of a session raise
    :class:`ProtocolError` for requests that cannot be granted; they never raise anything else
    for bad input.
    """

    def __init__(self, server: "Server", config: TableConfig) -> None:
        self.server = server
        self.config = config
        self.name = clean_name(config.name, "Hong Wu")
        self.ruleset = self._make_ruleset(config)
        self.seats = [SeatState(i) for i in range(self.ruleset.players)]
        self.observers: set[Session] = set()
        self.game: Game | None = None
        self.hand_no = 0
        self.rng = random.Random(config.seed if config.seed is not None
                                 else random.SystemRandom().getrandbits(64))
        self.turn_id = 0
        self.deadline: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._ai_task: asyncio.Task[None] | None = None
        self._start_handle: asyncio.Handle | None = None
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._ready_timers: dict[int, asyncio.TimerHandle] = {}
        self._refills: dict[int, asyncio.TimerHandle] = {}  # AI seats emptied by a player
        self.chat_budget = limits.Bucket(server.config.chat_rate, server.config.chat_burst, 0.0)
        self._tricks_wire: tuple[Game | None, list[list[Any]]] = (None, [])
        self.closed = False
        self.journal: Any = None  # net.journal.TableLog when the host keeps a journal
        self.hand_coins: list[int] | None = None  # staked table: coins per seat of the settled hand
        self.coins_by_hand: dict[int, list[int]] = {}  # the last few hands' coins (host console)
        if config.stake < 0:
            raise ValueError("stake: coins per game point, 0 or more")
        if config.xray and config.stake:
            raise ValueError("xray shows the AI seats' candidate cards: not at a staked table")
        for seat, ai in config.ai_seats.items():
            self._seat_ai(seat, ai)

    # ------------------------------------------------------------------ ruleset hooks
    # (net/zpy_room.py's ZpyRoom overrides these for 找朋友)
    views_always = False  # send a full view after every batch of events, whatever the version

    @staticmethod
    def _make_ruleset(config: TableConfig) -> Any:
        return hongwu(config.decks, **config.options)

    def check_protocol(self, version: int) -> None:
        """Raise a fatal VERSION_MISMATCH when a session speaking ``version`` cannot join: a
        staked table needs version :data:`~net.protocol.STAKES_SINCE` (its clients must show
        coins and understand DAILY_CAP)."""
        if self.config.stake and version < protocol.STAKES_SINCE:
            raise ProtocolError(
                ErrorCode.VERSION_MISMATCH,
                f"table {self.name!r} plays for coins (stake {self.config.stake}): it needs "
                f"protocol {protocol.STAKES_SINCE}, this session speaks {version}", fatal=True)

    def _new_hand(self) -> Any:
        """The next hand (None: no further hand)."""
        return Game.new(self.ruleset, self.rng.getrandbits(63), hand_no=self.hand_no + 1)

    def _hand_points(self, g: Any) -> list[int]:
        """Score change per seat of the settled hand ``g``."""
        return list(g.settlement.game_points)

    def _event_wire(self, ev: Any) -> dict[str, Any]:
        out = codec.event_out(ev)
        if self.hand_coins is not None and out.get("settlement") is not None:
            out["settlement"] = {**out["settlement"], "coins": list(self.hand_coins)}
        return out

    def _view_wire(self, view: Any) -> dict[str, Any]:
        out = codec.view_out(view, self.tricks_wire())
        if self.hand_coins is not None and out.get("settlement") is not None:
            out["settlement"] = {**out["settlement"], "coins": list(self.hand_coins)}
        return out

    def _announce_turn(self) -> None:
        self.broadcast("turn", {"turn": self.turn_wire()})

    def _seat_view(self, seat: int | None) -> Any:
        """The engine view a session of ``seat`` is sent (None: observer); a 找朋友 table
        shows the deal as far as it has been paced out (net/zpy_room.py)."""
        assert self.game is not None
        return self.game.view(seat)

    def _events_shown(self) -> int:
        """How many of the hand's events the sessions have been sent (and the views reflect)."""
        return 0 if self.game is None else len(self.game.events)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise ProtocolError(ErrorCode.BAD_PARAMS,
                                f"seat: this table has seats 0..{len(self.seats) - 1}")

    # ------------------------------------------------------------------ info
    @property
    def in_hand(self) -> bool:
        """True while a hand is being played."""
        return self.game is not None and not self.game.is_over

    def sessions(self) -> list["Session"]:
        """Every connected session of this room (seated first, then observers)."""
        out = [s.session for s in self.seats if s.session is not None]
        out.extend(self.observers)
        return out

    def table_wire(self) -> dict[str, Any]:
        """The ``Table`` map."""
        self._review_caps()
        return {
            "name": self.name, "decks": self.ruleset.decks,
            "options": codec.options_out(self.ruleset), "hand_no": self.hand_no,
            "in_hand": self.in_hand, "seats": [s.to_wire() for s in self.seats],
            "observers": len(self.observers), "timers": self.config.timers.to_wire(),
            "fill": fill_policy(self.config.fill_policy),
            **({"stake": self.config.stake} if self.config.stake else {}),
            **({"xray": True} if self.config.xray else {}),
        }

    def summary(self) -> dict[str, Any]:
        """The ``TableSummary`` map."""
        return {"name": self.name, "decks": self.ruleset.decks,
                "free_seats": sum(s.kind == "empty" for s in self.seats),
                "in_hand": self.in_hand, **({"xray": True} if self.config.xray else {})}

    def turn_wire(self) -> dict[str, Any] | None:
        """The ``Turn`` map (None before the first hand)."""
        g = self.game
        if g is None:
            return None
        seat = g.to_act
        left = None
        if self.deadline is not None:
            left = max(0.0, round(self.deadline - self.server.loop.time(), 3))
        auto = seat is not None and (self.seats[seat].kind == "ai" or self.seats[seat].auto)
        return {"hand_no": self.hand_no, "phase": g.phase.value, "seat": seat,
                "timeout": left, "auto": bool(auto)}

    def tricks_wire(self) -> list[list[Any]]:
        """The current hand's finished tricks in wire form (``Trick`` tuples), encoded once
        each and kept until the next hand: every full view and snapshot shares them."""
        g = self.game
        assert g is not None
        memo = self._tricks_wire
        if memo[0] is not g:
            memo = self._tricks_wire = (g, [])
        done = memo[1]
        for t in g.tricks[len(done):]:
            done.append(codec.trick_out(t))
        return done

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """The ``Snapshot`` map for ``seat`` (None: observer)."""
        g = self.game
        return {
            "table": self.table_wire(),
            "view": None if g is None else self._view_wire(self._seat_view(seat)),
            "turn": self.turn_wire(),
            "events": self._events_shown(),
        }

    # ------------------------------------------------------------------ joining
    def join(self, session: "Session", name: str, seat: int | None, observer: bool) -> None:
        """Seat ``session`` (the wished seat if free, else the first free one) or make it an
        observer (asked for, or no free seat). Raises TABLE_FULL when observers are full too."""
        if not observer:
            free = [s.index for s in self.seats if s.kind == "empty"]
            if seat is not None and seat in free:
                free = [seat]
            if free:
                st = self.seats[free[0]]
                st.kind, st.name, st.session = "human", name, session
                st.title = session.title
                st.token = secrets.token_urlsafe(18)
                st.ready, st.auto, st.auto_reason = False, False, None
                session.seat, session.token = st.index, st.token
                log.info("%s: %s sits at seat %d (session %d)", self.name, name, st.index,
                         session.sid)
                self.broadcast_table()
                return
        if len(self.observers) >= self.config.max_observers:
            raise ProtocolError(ErrorCode.TABLE_FULL, "no free seat and no room to watch")
        self.observers.add(session)
        session.seat, session.token = None, None
        log.info("%s: %s watches (session %d)", self.name, name, session.sid)
        self.broadcast_table()

    def resume(self, session: "Session", token: str, name: str) -> None:
        """Give ``session`` the seat that ``token`` names (a reconnect). A session still
        holding it is told REPLACED and closed. Raises BAD_TOKEN."""
        st = next((s for s in self.seats if s.token is not None and same_secret(token, s.token)), None)
        if st is None and self.journal is not None:  # a token from before a host restart
            st = self.journal.claim(self, token)  # rotated: the seat gets a new token
        if st is None or st.kind != "human":
            raise ProtocolError(ErrorCode.BAD_TOKEN)
        old = st.session
        st.session = None
        if old is not None and old is not session:
            old.seat = None
            old.room = None
            old.close(ErrorCode.REPLACED)
        st.session, st.name = session, name
        st.title = session.title
        session.seat, session.token = st.index, st.token
        st.resumes += 1
        self._cancel_grace(st.index)
        if st.stand_in:
            st.stand_in = False
            if not self.in_hand:
                st.ready = False  # back in person: the player readies for the next hand
        log.info("%s: %s resumes seat %d (session %d)", self.name, name, st.index, session.sid)
        if st.auto and st.auto_reason in ("disconnect", None):
            self._set_auto(st, False, "reconnect")
        self.broadcast_table()

    def detach(self, session: "Session") -> None:
        """The connection of ``session`` ended. A player who said ``bye`` gives the seat up
        (after the current hand, auto-played until then). Otherwise the seat stays reserved
        for its token: auto-played during a hand, not ready between hands."""
        self.observers.discard(session)
        seat = session.seat
        if seat is None or self.seats[seat].session is not session:
            self.broadcast_table()
            return
        st = self.seats[seat]
        st.session = None
        st.ready = False
        if session.leaving:
            if not self.in_hand:
                score = st.score
                st.clear()
                st.score = score
                log.info("%s: seat %d left", self.name, seat)
                self.broadcast_table()
                return
            st.left = True
        log.info("%s: seat %d (%s) disconnected", self.name, seat, st.name)
        if self.in_hand and not st.auto:
            self._set_auto(st, True, "disconnect")
        if not self.in_hand:
            self._start_grace(st)
        self.broadcast_table()

    # ------------------------------------------------------------------ seat grace
    def _start_grace(self, st: SeatState) -> None:
        """Between hands: give the disconnected player of ``st`` ``seat_grace_s`` seconds to
        come back before a stand-in takes the seat over (:meth:`_grace_expired`)."""
        grace = self.config.seat_grace_s
        if (not grace or grace <= 0 or self.closed or st.kind != "human"
                or st.session is not None or st.stand_in or st.left):
            return
        self._cancel_grace(st.index)
        self._grace[st.index] = self.server.loop.call_later(
            grace, self._grace_expired, st.index, st.token)
        log.info("%s: seat %d has %.1f s to come back", self.name, st.index, grace)

    def _cancel_grace(self, seat: int) -> None:
        handle = self._grace.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _grace_expired(self, seat: int, token: str | None) -> None:
        """The player of ``seat`` did not come back in time: the seat (still theirs: the token
        resumes it) is auto-played and counts as ready, so the next hand can start."""
        self._grace.pop(seat, None)
        st = self.seats[seat]
        if (self.closed or self.in_hand or st.kind != "human" or st.token != token
                or st.session is not None or st.stand_in):
            return
        st.stand_in = True
        st.ready = True
        log.info("%s: seat %d (%s) did not come back: auto-played from now on", self.name,
                 seat, st.name)
        if st.auto:
            self.broadcast_table()
        else:
            self._set_auto(st, True, "disconnect")
        self._schedule_start()

    # ------------------------------------------------------------------ ready grace
    def _review_ready(self) -> None:
        """Between hands, while some seat is ready (or an AI): give every connected human
        seat that is not ready ``seat_grace_s`` seconds (:meth:`_ready_expired`), except the
        host's own (host rights decide when the table plays anyway); otherwise
        (a hand running, nobody waiting, no grace configured) no such timer runs."""
        grace = self.config.seat_grace_s
        waiting = any(s.kind == "ai" or (s.kind == "human" and s.ready) for s in self.seats)
        live = bool(grace and grace > 0) and not self.closed and not self.in_hand and waiting
        for st in self.seats:
            holdout = (live and st.kind == "human" and st.session is not None
                       and not st.ready and not st.session.host
                       and not st.capped)  # a capped player may not be made ready (§12)
            handle = self._ready_timers.get(st.index)
            if holdout and handle is None:
                self._ready_timers[st.index] = self.server.loop.call_later(
                    grace, self._ready_expired, st.index, st.token)
            elif not holdout and handle is not None:
                self._ready_timers.pop(st.index).cancel()

    def _ready_expired(self, seat: int, token: str | None) -> None:
        """A seated, connected player kept the table waiting ``seat_grace_s`` without saying
        ready: auto-play takes the seat over, counted ready for the next hand, which is dealt.
        The seat stays theirs; acting or ``auto`` off takes it back."""
        self._ready_timers.pop(seat, None)
        st = self.seats[seat]
        if (self.closed or self.in_hand or st.kind != "human" or st.token != token
                or st.session is None or st.ready or st.capped):
            return
        st.ready = True  # for this hand: after it the player is asked again
        log.info("%s: seat %d (%s) did not say ready in time: auto-played", self.name, seat,
                 st.name)
        if st.auto:
            self.broadcast_table()
        else:
            self._set_auto(st, True, "timeout")
        self._schedule_start()

    def _start_refill(self, seat: int, ai: str) -> None:
        """A seated player (not the host) emptied the AI seat ``seat``: if nobody has sat
        there ``seat_grace_s`` seconds later, the AI ``ai`` takes it back, so emptying seats
        cannot keep a table from dealing either (PROTOCOL.md ``fill``)."""
        grace = self.config.seat_grace_s
        if not grace or grace <= 0 or self.closed:
            return
        old = self._refills.pop(seat, None)
        if old is not None:
            old.cancel()
        self._refills[seat] = self.server.loop.call_later(
            grace, self._refill_expired, seat, ai)

    def _refill_expired(self, seat: int, ai: str) -> None:
        self._refills.pop(seat, None)
        if self.closed or self.in_hand or self.seats[seat].kind != "empty":
            return
        log.info("%s: seat %d stayed empty: AI %s is back", self.name, seat, ai)
        self._seat_ai(seat, ai)
        self.broadcast_table()

    # ------------------------------------------------------------------ lobby requests
    def sit(self, session: "Session", seat: int, name: str) -> dict[str, Any]:
        """Move ``session`` to the free ``seat`` (observers take it; players move)."""
        self._check_seat(seat)
        if self.in_hand:
            raise ProtocolError(ErrorCode.HAND_IN_PROGRESS)
        if session.seat == seat:
            return self.table_wire()
        target = self.seats[seat]
        if target.kind != "empty":
            raise ProtocolError(ErrorCode.SEAT_TAKEN)
        if session.seat is not None:
            old = self.seats[session.seat]
            target.kind, target.name, target.token, target.session = (
                "human", old.name, old.token, session)
            target.title = old.title
            target.ready = False
            old_score = old.score
            old.clear()
            old.score = old_score
        else:
            self.observers.discard(session)
            target.kind, target.name, target.session = "human", name, session
            target.title = session.title
            target.token = secrets.token_urlsafe(18)
            target.ready = False
        session.seat, session.token = seat, target.token
        self.broadcast_table()
        return self.table_wire()

    def stand(self, session: "Session") -> dict[str, Any]:
        """Give up the seat and watch."""
        if self.in_hand:
            raise ProtocolError(ErrorCode.HAND_IN_PROGRESS)
        st = self.seats[session.seat]  # type: ignore[index]
        st.clear()
        session.seat, session.token = None, None
        self.observers.add(session)
        self.broadcast_table()
        return self.table_wire()

    def ready(self, session: "Session", ready: bool) -> dict[str, Any]:
        """Mark the seat (not) ready; starts a hand when every seat is ready. At a staked
        table a player at its daily coin cap is refused readiness: DAILY_CAP, with a
        ``daily_coin_cap`` refusal saying until when (RULES.md §12)."""
        st = self.seats[session.seat]  # type: ignore[index]
        if ready:
            refusal = self._cap_refusal(st)
            if refusal is not None:
                st.ready = False
                self.broadcast_table()  # everyone sees the seat's ``capped``
                raise ProtocolError(ErrorCode.DAILY_CAP, stakes.refusal_message(refusal),
                                    refusal=refusal)
        st.ready = bool(ready)
        self.broadcast_table()
        self._schedule_start()
        return self.table_wire()

    def fill(self, session: "Session", seat: int, ai: str | None) -> dict[str, Any]:
        """Seat the AI ``ai`` at an empty or disconnected seat, or (``ai`` None) empty an AI
        seat. Between hands only; only the host, or a seated player when ``fill_policy`` is
        ``"seated"`` (observers never): else FORBIDDEN (PROTOCOL.md ``fill``)."""
        if not session.host:
            if fill_policy(self.config.fill_policy) != "seated":
                raise ProtocolError(ErrorCode.FORBIDDEN, "only the host may change seats here")
            if session.seat is None:
                raise ProtocolError(ErrorCode.FORBIDDEN,
                                    "only the host or a seated player may change seats")
        self._check_seat(seat)
        if self.in_hand:
            raise ProtocolError(ErrorCode.HAND_IN_PROGRESS)
        st = self.seats[seat]
        if ai is None:
            if st.kind != "ai":
                raise ProtocolError(ErrorCode.SEAT_TAKEN, "that seat holds no AI")
            removed = st.ai_name
            score = st.score
            st.clear()
            st.score = score
            if not session.host and removed:
                self._start_refill(seat, removed)
            self.broadcast_table()
            return self.table_wire()
        if st.kind == "human" and st.session is not None:
            raise ProtocolError(ErrorCode.SEAT_TAKEN)
        if not self.server.ai.exists(ai):
            raise ProtocolError(ErrorCode.UNKNOWN_AI, f"no AI named {ai[:40]!r} on this host")
        self._seat_ai(seat, ai)
        self.broadcast_table()
        self._schedule_start()
        return self.table_wire()

    def _seat_ai(self, seat: int, ai: str) -> None:
        self._cancel_grace(seat)
        st = self.seats[seat]
        score = st.score
        st.clear()
        st.score = score
        st.kind, st.ai_name, st.name = "ai", ai, f"{ai} AI"
        st.player = self.server.ai.make(ai, seat, self.config.ai_budget_s,
                                        self.rng.getrandbits(32))
        log.info("%s: seat %d is played by AI %s", self.name, seat, ai)

    def set_auto(self, session: "Session", on: bool) -> dict[str, Any]:
        """Turn auto-play of the session's seat on or off."""
        st = self.seats[session.seat]  # type: ignore[index]
        if st.auto != on:
            self._set_auto(st, on, "request")
        return {"seat": st.index, "auto": st.auto}

    def chat(self, session: "Session", text: str) -> None:
        """Relay a chat line (control characters removed) to everyone at the table.
        Raises BAD_PARAMS for a line with no visible character (PROTOCOL.md ``chat``)."""
        text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()
        if not text:
            raise ProtocolError(ErrorCode.BAD_PARAMS, "text: a chat line needs at least one visible character")
        now = self.server.loop.time()
        cfg = self.server.config
        if not session.chat_budget.has(now):
            raise ProtocolError(ErrorCode.RATE_LIMITED, f"chat: at most {cfg.chat_session_rate:g} "
                                "line(s) a second from one session")
        if not self.chat_budget.take(now):  # a refused line costs the session nothing
            raise ProtocolError(ErrorCode.RATE_LIMITED, f"chat: this table relays at most "
                                f"{cfg.chat_rate:g} lines a second in all")
        session.chat_budget.take(now)
        self.broadcast("chat", {"seat": session.seat, "name": session.name, "text": text})

    # ------------------------------------------------------------------ actions
    def act(self, session: "Session", method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Apply the action request ``method`` of the session's seat.

        Raises NO_HAND, NOT_YOUR_TURN, WRONG_PHASE, BAD_PARAMS or ILLEGAL_ACTION (with the
        engine's reason); on success the seat's auto-play (if on) is turned off.
        """
        g = self.game
        seat = session.seat
        if g is None or not self.in_hand:
            settled = g is not None and g.phase is Phase.SETTLE
            raise ProtocolError(ErrorCode.NO_HAND,
                                refusal=_refusal("hand_over") if settled else None)
        if g.to_act != seat:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN, f"it is seat {g.to_act}'s turn, not seat {seat}'s",
                refusal=_refusal("not_your_turn", seat=seat, to_act=g.to_act))
        if codec.METHOD_PHASES.get(method) is not g.phase:
            raise ProtocolError(
                ErrorCode.WRONG_PHASE, f"{method} is not possible in the {g.phase.value} phase",
                refusal=_refusal("wrong_phase", action=_ACTION_NAMES.get(method, method),
                                 phase=g.phase.value))
        action = codec.action_in(method, params, seat)  # type: ignore[arg-type]
        st = self.seats[seat]  # type: ignore[index]
        was_auto = st.auto
        st.auto = False  # so that a following turn of the same seat is not auto-played
        try:
            self.apply(action)
        except IllegalAction as exc:
            st.auto = was_auto
            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, str(exc) or "illegal action",
                                refusal=codec.refusal_out(exc)) from None
        if was_auto:
            st.auto_reason = None
            self._announce_auto(st, "action")
        return {}

    def apply(self, action: Any) -> None:
        """Apply an engine action, send every session its events and view, then set up the
        next turn. Raises ``IllegalAction`` (nothing changed then)."""
        g = self.game
        assert g is not None
        start = len(g.events)
        events = g.apply(action)
        if self.journal is not None:  # committed before anyone hears of it
            self.journal.action(self, action)
        if g.is_over:
            self._settle_coins()  # the Settlement goes out with its coins
        self._send_events(start, events)
        if g.is_over:
            self._end_hand()
        self._next_turn()

    # ------------------------------------------------------------------ coins
    def _cap_refusal(self, st: SeatState) -> dict[str, Any] | None:
        """The ``daily_coin_cap`` refusal for the human seat ``st`` at a staked table, or None."""
        ledger = self.server.ledger
        if not self.config.stake or ledger is None or st.kind != "human" or not st.name:
            return None
        return ledger.refusal(st.name, self.server.clock())

    def _review_caps(self) -> None:
        """Set each seat's ``capped`` (when its player's daily cap lifts, or None); a capped
        seat is never ready (RULES.md §12)."""
        for st in self.seats:
            refusal = self._cap_refusal(st)
            st.capped = None if refusal is None else refusal["params"]["until"]
            if st.capped:
                st.ready = False

    def _settle_coins(self) -> None:
        """At a staked table: clamp and record the settled hand's coins per human seat
        (:meth:`net.stakes.CoinLedger.settle`) into :attr:`hand_coins`, sent in the
        Settlement's ``coins``. A ledger that cannot be written is logged; the hand then
        carries no coins."""
        g = self.game
        self.hand_coins = None
        ledger = self.server.ledger
        if not self.config.stake or ledger is None or g is None or g.settlement is None:
            return
        names = [st.name if st.kind == "human" else None for st in self.seats]
        try:
            self.hand_coins = ledger.settle(self.name, self.hand_no, self._hand_points(g), names,
                                            self.config.stake, self.server.clock())
            self.coins_by_hand[self.hand_no] = list(self.hand_coins)
            for old in [h for h in self.coins_by_hand if h <= self.hand_no - 16]:
                del self.coins_by_hand[old]
        except Exception:
            log.exception("%s: hand %d: the coins could not be recorded", self.name, self.hand_no)

    # ------------------------------------------------------------------ hands
    def _schedule_start(self) -> None:
        if self._start_handle is None and not self.closed:
            self._start_handle = self.server.loop.call_soon(self._maybe_start)

    def _maybe_start(self) -> None:
        self._start_handle = None
        self._review_ready()
        if self.closed or self.in_hand:
            return
        self._review_caps()  # a player at its daily coin cap holds the table (RULES.md §12)
        if not all(s.kind == "ai" or (s.kind == "human" and s.ready) for s in self.seats):
            return
        if self.config.max_hands is not None and self.hand_no >= self.config.max_hands:
            return
        game = self._new_hand()
        if game is None:
            return
        self.hand_no += 1
        self.game = game
        self.hand_coins = None
        if self.journal is not None:
            self.journal.hand_started(self)
        self._review_ready()  # a hand runs: no ready timers
        log.info("%s: hand %d starts", self.name, self.hand_no)
        self.broadcast_table()
        self._send_events(0, self.game.events)
        self._next_turn()

    def _end_hand(self) -> None:
        g = self.game
        assert g is not None and g.settlement is not None
        points = self._hand_points(g)
        for st, gp in zip(self.seats, points):
            st.score += gp
            if st.kind == "human" and not (st.stand_in and st.session is None):
                st.ready = False  # a stand-in stays ready: the table goes on without waiting
            if st.left and st.session is None:
                score = st.score
                st.clear()
                st.score = score
            elif st.kind == "human" and st.session is None:
                self._start_grace(st)
        log.info("%s: hand %d settled: %s%s", self.name, self.hand_no, points,
                 f", coins {self.hand_coins}" if self.hand_coins is not None else "")
        self.broadcast_table()
        self._schedule_start()  # an all-AI table goes on by itself

    # ------------------------------------------------------------------ turns
    def _cancel_turn(self) -> None:
        self.turn_id += 1
        self.deadline = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._ai_task is not None and not self._ai_task.done():
            self._ai_task.cancel()
        self._ai_task = None

    def _next_turn(self, announce: bool = True) -> None:
        """Cancel the running timer/AI and set up the turn of ``game.to_act``."""
        self._cancel_turn()
        g = self.game
        if g is None or self.closed:
            return
        seat = g.to_act
        if seat is not None:
            st = self.seats[seat]
            if st.kind == "ai":
                self._start_ai(seat, self.config.ai_delay_s)
            elif st.auto:
                self._start_ai(seat, self.config.auto_delay_s)
            else:
                limit = self.turn_limit(seat, g.phase)
                if limit > 0:
                    loop = self.server.loop
                    self.deadline = loop.time() + limit
                    self._timer = loop.call_later(limit, self._on_timeout, self.turn_id)
        if announce:
            self._announce_turn()

    def turn_limit(self, seat: int, phase: Any) -> float:
        """Seconds the human ``seat`` has for its turn in ``phase`` (0: no limit): the
        table's timer for the phase (:class:`Timers`, RULES.md §3)."""
        return self.config.timers.for_phase(phase)

    def _on_timeout(self, turn_id: int) -> None:
        if turn_id != self.turn_id or self.game is None or not self.in_hand:
            return
        g = self.game
        seat = g.to_act
        assert seat is not None
        self._timer = None
        log.info("%s: seat %d timed out in %s", self.name, seat, g.phase.value)
        if g.phase is Phase.TRUMP:
            try:
                self.apply(ChooseTrump(seat, "S", timed_out=True))
            except IllegalAction:  # pragma: no cover - the engine accepts ♠ always
                log.exception("time-out trump rejected")
            return
        st = self.seats[seat]
        self._set_auto(st, True, "timeout", reschedule=False)
        self._cancel_turn()
        self._start_ai(seat, 0.0)
        self._announce_turn()

    def _set_auto(self, st: SeatState, on: bool, reason: str, reschedule: bool = True) -> None:
        """Switch auto-play of seat ``st``, tell everyone, and (``reschedule``) redo the
        current turn if it is that seat's."""
        st.auto, st.auto_reason = on, reason if on else None
        self._announce_auto(st, reason)
        if reschedule and self.in_hand and self.game is not None \
                and self.game.to_act == st.index:
            self._next_turn()

    def _announce_auto(self, st: SeatState, reason: str) -> None:
        log.info("%s: seat %d auto-play %s (%s)", self.name, st.index,
                 "on" if st.auto else "off", reason)
        self.broadcast("auto", {"seat": st.index, "on": st.auto, "reason": reason})
        self.broadcast_table()

    def _player_for(self, seat: int) -> Any:
        st = self.seats[seat]
        if st.player is None:
            name = self.config.auto_ai or self.server.ai.default_name()
            st.player = self.server.ai.make(name, seat, self.config.ai_budget_s,
                                            self.rng.getrandbits(32))
        return st.player

    def _start_ai(self, seat: int, delay: float) -> None:
        self._ai_task = self.server.loop.create_task(self._ai_move(seat, self.turn_id, delay))

    async def _ai_move(self, seat: int, turn_id: int, delay: float) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            g = self.game
            if turn_id != self.turn_id or g is None or g.to_act != seat:
                return
            view = g.view(seat)
            player = self._player_for(seat)
            action = await self.server.loop.run_in_executor(self.server.executor,
                                                             player.act, view)
            if turn_id != self.turn_id or self.game is not g or g.to_act != seat:
                return
            self._ai_task = None  # this move is done: apply() must not cancel itself
            hand_no, phase = self.hand_no, g.phase
            try:
                self.apply(action)
                if self.reasoning_public(phase):
                    self._send_reasoning(seat, player, hand_no, g)
            except IllegalAction as exc:
                log.warning("%s: engine rejected seat %d's AI action %r: %s", self.name, seat,
                            action, exc)
                fallback = getattr(player, "fallback_action", None)
                alt = fallback(view, f"engine rejected the action: {exc}") if fallback else None
                try:
                    self.apply(alt if alt is not None else _first_legal(seat, view))
                except IllegalAction:
                    self.apply(_first_legal(seat, view))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s: AI move for seat %d failed", self.name, seat)

    # ------------------------------------------------------------------ X-ray
    def set_xray(self, session: "Session", on: bool) -> dict[str, Any]:
        """The session's ``xray`` request: receive the AI seats' reasoning or not. FORBIDDEN
        at a table the host did not open with ``xray`` (asking for off is always granted)."""
        if on and not self.config.xray:
            raise ProtocolError(ErrorCode.FORBIDDEN, "this table does not show AI reasoning (the "
                                "host opens learners' tables with hongwu host --xray)")
        session.xray = bool(on)
        return {"on": session.xray}

    def reasoning_public(self, phase: Any) -> bool:
        """Whether a decision taken in ``phase`` is announced to everyone (so its reasoning
        may follow it at an X-ray table): every 红五 decision is (net/zpy_room.py: not the
        找朋友 deal and counter windows, where only the polled seat learns it was polled)."""
        return True

    def _send_reasoning(self, seat: int, player: Any, hand_no: int, game: Any) -> None:
        """After an AI seat's decision was applied and its events sent: its reasoning (the
        candidates it weighed, best first) as a ``reasoning`` notification to the sessions
        that asked with ``xray`` — only at an X-ray table, only for seats of kind ``ai`` (a
        human seat in 托管 or a stand-in never: its candidates are that player's cards),
        only when the AI gave reasoning (PROTOCOL.md section 7)."""
        st = self.seats[seat]
        if not self.config.xray or st.kind != "ai" or hand_no != self.hand_no:
            return
        reasons = getattr(player, "last_reasoning", None)
        if not reasons:
            return
        targets = [s for s in self.sessions() if getattr(s, "xray", False)]
        if not targets:
            return
        cands = [{"action": str(r.action), "value": float(r.value), "note": str(r.note)}
                 for r in reasons[:protocol.REASONING_MAX]]
        data = framing.encode(protocol.notification("reasoning", {
            "hand_no": hand_no, "seat": seat, "events": len(game.events), "candidates": cands}),
            self.server.config.max_frame)
        for s in targets:
            s.send_bytes(data)

    # ------------------------------------------------------------------ sending
    def broadcast(self, method: str, params: dict[str, Any]) -> None:
        """Send the same notification to every session of the room (sessions older than
        :data:`~net.protocol.TITLES_SINCE` get it without the seats' titles)."""
        data = framing.encode(protocol.notification(method, params), self.server.config.max_frame)
        older = None
        for s in self.sessions():
            if s.protocol < protocol.TITLES_SINCE and has_titles(params):
                if older is None:
                    older = framing.encode(protocol.notification(method, without_titles(params)),
                                           self.server.config.max_frame)
                s.send_bytes(older)
            else:
                s.send_bytes(data)

    def broadcast_table(self) -> None:
        """Send every session the ``table`` notification (seats changed: the ready timers
        and the start of a hand are looked at again, once, soon; the seats are recorded in
        the journal first, when there is one)."""
        if self.journal is not None:
            self.journal.seats(self)
        self.broadcast("table", {"table": self.table_wire()})
        self._schedule_start()

    def _send_events(self, start: int, events: list[Any]) -> None:
        """Send each session ``events`` (numbered from ``start``) as its seat may see them,
        then its full view where its protocol version asks for one: after every change for
        version 1; for version 2 only when the batch deals a new hand (``start == 0``), the
        client folding the events in between itself (PROTOCOL.md §3, ``engine.viewfold``).

        Encodings are shared: a public event is encoded once for everyone, a seat's batch
        once for all its sessions."""
        g = self.game
        assert g is not None
        max_frame = self.server.config.max_frame
        hand_no = self.hand_no
        public: dict[int, bytes] = {}  # event index -> its frame, when everyone sees it alike
        batches: dict[tuple[int | None, bool], bytes] = {}
        for s in self.sessions():
            seat = s.seat
            full = s.protocol == 1 or start == 0 or self.views_always
            data = batches.get((seat, full))
            if data is None:
                parts = []
                for i, ev in enumerate(events):
                    seen = ev.for_seat(seat)
                    if seen is None:
                        continue
                    frame = public.get(i) if seen is ev else None
                    if frame is None:
                        frame = framing.encode(protocol.notification("event", {
                            "hand_no": hand_no, "n": start + i,
                            "event": self._event_wire(seen)}), max_frame)
                        if seen is ev:
                            public[i] = frame
                    parts.append(frame)
                if full:
                    parts.append(framing.encode(protocol.notification("view", {
                        "hand_no": hand_no, "events": self._events_shown(),
                        "view": self._view_wire(self._seat_view(seat))}), max_frame))
                data = batches[(seat, full)] = b"".join(parts)
            s.send_bytes(data)

    def close(self) -> None:
        """Stop timers and AI tasks (server shutdown)."""
        self.closed = True
        self._cancel_turn()
        if self._start_handle is not None:
            self._start_handle.cancel()
        for seat in list(self._grace):
            self._cancel_grace(seat)
        for handle in [*self._ready_timers.values(), *self._refills.values()]:
            handle.cancel()
        self._ready_timers.clear()
        self._refills.clear()
        for st in self.seats:
            if st.player is not None and hasattr(st.player, "close"):
                try:
                    st.player.close()
                except Exception:  # pragma: no cover
                    pass


def _first_legal(seat: int, view: Any) -> Any:
    from .ai import FirstLegal

    return FirstLegal(seat).act(view)


# ============================================================================ sessions
class Session:
    """One client connection: decoding, rate limiting, dispatch, sending.

    Attributes: ``sid`` (int), ``name``, ``room`` (after hello), ``seat`` (int or None),
    ``token``, ``host`` (bool), ``peer`` (address tuple), ``address`` (the peer's IP address
    text, for the per-address caps), ``welcomed`` (past hello), ``protocol`` (the version the
    session speaks, from its hello), ``chat_budget`` (its :class:`~net.limits.Bucket` of chat
    lines), ``slow_drop`` (bytes that waited in the host when it was dropped as a slow reader,
    else None).
    """

    def __init__(self, server: "Server", reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, sid: int) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.sid = sid
        self.peer = writer.get_extra_info("peername")
        self.address = _peer_address(writer)
        self.decoder = framing.Decoder(server.config.max_frame)
        self.name = "?"
        self.room: Room | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.host = False
        self.protocol = PROTOCOL_VERSION  # the version named in hello
        self.title: str | None = None  # the player's title from hello (version 3)
        self.xray = False  # asked for the AI seats' reasoning (X-ray tables only)
        self._out: list[bytes] = []  # frames queued for the next write (send_bytes)
        self._out_size = 0
        self._flush_soon = False
        self.closing = False
        self.leaving = False
        cfg = server.config
        self._tokens = cfg.burst
        self._last = server.loop.time()
        self.dropped = 0.0  # refusals not yet forgiven (see _allow)
        self.chat_budget = limits.Bucket(cfg.chat_session_rate, cfg.chat_session_burst,
                                         self._last)
        self._held: list[bytes] | None = None  # frames kept back until the Welcome is sent
        self.slow_drop: int | None = None  # bytes waiting in the host when dropped as slow

    @property
    def welcomed(self) -> bool:
        """True once hello was accepted (the session belongs to a room)."""
        return self.room is not None

    # ------------------------------------------------------------------ sending
    def send_bytes(self, data: bytes) -> None:
        """Queue encoded frames; drop the connection if the client is not reading.

        Frames queued during one turn of the event loop leave in one write (an action's
        events, the turn and the answer: one system call and one TCP segment, not ten),
        in the order they were queued; :meth:`close` writes what is queued first."""
        if self.closing:
            return
        if self._held is not None:  # answering hello: notifications follow the Welcome
            self._held.append(data)
            return
        transport = self.writer.transport
        if transport is None or transport.is_closing():
            return
        self._out_size += len(data)
        waiting = transport.get_write_buffer_size() + self._out_size
        if waiting > self.server.config.max_write_buffer:
            # The one slow-reader rule (PROTOCOL.md section 9): more than max_write_buffer
            # bytes waiting in the host for this session, counted here for every frame.
            log.warning("session %d: client too slow (%d bytes waiting), dropping it",
                        self.sid, waiting)
            self.slow_drop = waiting
            self.closing = True
            self._out, self._out_size = [], 0
            transport.abort()
            return
        self._out.append(data)
        if not self._flush_soon:
            self._flush_soon = True
            self.server.loop.call_soon(self.flush)

    def flush(self) -> None:
        """Write the queued frames now (one write). Safe to call at any time."""
        self._flush_soon = False
        if not self._out:
            return
        data = self._out[0] if len(self._out) == 1 else b"".join(self._out)
        self._out, self._out_size = [], 0
        transport = self.writer.transport
        if transport is None or transport.is_closing():
            return
        self.writer.write(data)

    def send(self, message: list[Any]) -> None:
        """Encode and queue one message (without the seats' titles for a session older than
        :data:`~net.protocol.TITLES_SINCE`)."""
        if self.protocol < protocol.TITLES_SINCE and len(message) >= 3 and has_titles(message[-1]):
            message = [*message[:-1], without_titles(message[-1])]
        try:
            data = framing.encode(message, self.server.config.max_frame)
        except framing.FrameTooLarge:  # pragma: no cover - our own messages are small
            log.exception("session %d: outgoing message too large", self.sid)
            data = framing.encode(protocol.response(message[1], ProtocolError(
                ErrorCode.INTERNAL, "answer too large").to_wire()))
        self.send_bytes(data)

    def notify(self, method: str, params: dict[str, Any]) -> None:
        """Send one notification."""
        self.send(protocol.notification(method, params))

    def close(self, code: ErrorCode, message: str | None = None) -> None:
        """Say ``goodbye`` with ``code`` and close the connection (once)."""
        if self.closing:
            return
        err = ProtocolError(code, message)
        log.info("session %d (%s): closing: %s", self.sid, self.name, err)
        self.notify("goodbye", {"error": err.to_wire()})
        self.flush()
        self.closing = True
        try:
            self.writer.close()
        except Exception:  # pragma: no cover
            pass

    # ------------------------------------------------------------------ reading
    def _allow(self) -> int:
        """Token bucket: 1 allowed, 0 rate limited, -1 flood (close).

        Refusals are counted, and forgiven at ``rate`` per second (not reset by the odd
        allowed message): a client a little over the rate is only refused, one sending many
        times the rate is cut off after about ``flood`` refusals (PROTOCOL.md section 9)."""
        cfg = self.server.config
        now = self.server.loop.time()
        elapsed = now - self._last
        self._tokens = min(cfg.burst, self._tokens + elapsed * cfg.rate)
        self.dropped = max(0.0, self.dropped - elapsed * cfg.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 1
        self.dropped += 1
        return -1 if self.dropped > cfg.flood else 0

    async def run(self) -> None:
        """Serve the connection until it ends; never raises."""
        cfg = self.server.config
        try:
            while not self.closing:
                timeout = cfg.hello_timeout if self.room is None else cfg.idle_timeout
                try:
                    data = await asyncio.wait_for(self.reader.read(65536), timeout)
                except asyncio.TimeoutError:
                    self.close(ErrorCode.TIMEOUT, "no hello in time" if self.room is None
                               else "idle too long")
                    break
                if not data:
                    break
                try:
                    docs = self.decoder.feed(data)
                except framing.FrameError as exc:
                    self.close(ErrorCode(exc.code), exc.message)
                    break
                # Requests are read (and charged to the rate limit) as they arrive, even
                # from a client that does not read its answers: that one is dropped by the
                # slow-reader rule in send_bytes, never by a backlog counted late.
                for n, doc in enumerate(docs, 1):
                    if self.closing:
                        break
                    self._handle(doc)
                    if n % _FAIR_SLICE == 0:
                        await asyncio.sleep(0)  # a long batch lets the other sessions in
        except (ConnectionError, OSError) as exc:
            log.debug("session %d: connection error %r", self.sid, exc)
        except asyncio.CancelledError:
            pass
        except Exception:  # pragma: no cover - a bug: drop this client, keep the server
            log.exception("session %d: unexpected error", self.sid)
        finally:
            self._finish()

    def _finish(self) -> None:
        self.closing = True
        room = self.room
        self.room = None
        if room is not None:
            try:
                room.detach(self)
            except Exception:  # pragma: no cover
                log.exception("session %d: detach failed", self.sid)
        try:
            self.writer.close()
        except Exception:  # pragma: no cover
            pass
        self.server._forget(self)

    def _handle(self, doc: Any) -> None:
        allowed = self._allow()
        if allowed < 0:
            self.close(ErrorCode.FLOOD)
            return
        try:
            msg = protocol.parse_message(doc)
        except ProtocolError as exc:
            self.close(exc.code, exc.message)
            return
        if not isinstance(msg, protocol.Request):
            log.debug("session %d: ignoring a %s from the client", self.sid,
                      type(msg).__name__)
            return
        if not allowed:
            self.send(protocol.response(msg.msgid, ProtocolError(
                ErrorCode.RATE_LIMITED).to_wire()))
            return
        if msg.method == "hello" and self.room is None:
            self._held = []  # what hello causes is sent after its answer (PROTOCOL.md §3)
        try:
            result = self._dispatch(msg)
        except ProtocolError as exc:
            self._release_held(protocol.response(msg.msgid, exc.to_wire()))
            if exc.fatal:
                self.close(exc.code, exc.message)
            return
        except Exception:
            log.exception("session %d: %s failed", self.sid, msg.method)
            self._release_held(protocol.response(msg.msgid,
                                                 ProtocolError(ErrorCode.INTERNAL).to_wire()))
            return
        self._release_held(protocol.response(msg.msgid, None, result))
        if msg.method == "bye":
            self.close(ErrorCode.LEAVING, "bye")

    def _release_held(self, answer: list[Any]) -> None:
        """Send ``answer`` (a response), then the frames held back while it was prepared."""
        held, self._held = self._held, None
        self.send(answer)
        for data in held or ():
            self.send_bytes(data)

    def _dispatch(self, req: protocol.Request) -> Any:
        params = protocol.validate_request(req)
        method = protocol.METHODS[req.method]
        if method.after_hello and self.room is None:
            raise ProtocolError(ErrorCode.HELLO_REQUIRED)
        if method.seated and self.seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED)
        return getattr(self, "rpc_" + req.method)(params)

    # ------------------------------------------------------------------ methods
    def rpc_hello(self, p: dict[str, Any]) -> dict[str, Any]:
        """Open the session (see PROTOCOL.md ``hello``)."""
        if self.room is not None:
            raise ProtocolError(ErrorCode.ALREADY_HELLO)
        if p["protocol"] not in SUPPORTED_VERSIONS:
            raise ProtocolError(ErrorCode.VERSION_MISMATCH,
                                f"this server speaks protocol "
                                f"{' or '.join(map(str, SUPPORTED_VERSIONS))}, "
                                f"not {p['protocol']}", fatal=True)
        self.protocol = p["protocol"]
        room = self.server.room(p.get("table"))
        room.check_protocol(self.protocol)
        name = clean_name(p["name"], "")
        if not name:
            raise ProtocolError(ErrorCode.BAD_PARAMS, "name: needs at least one visible character")
        self.name = name
        self.title = clean_title(p.get("title")) if self.protocol >= protocol.TITLES_SINCE else None
        self.host = same_secret(p.get("host_key"), self.server.host_key)
        if not limits.hello_reserve_ok(self.server.welcomed_count(), self.server.config.caps(),
                                       bool(p.get("token")) or self.host):
            raise ProtocolError(ErrorCode.SHUTDOWN, "the host is full (the places left are "
                                "kept for players coming back)", fatal=True)
        resumed = False
        if p.get("token"):
            room.resume(self, p["token"], name)
            resumed = True
        else:
            room.join(self, name, p.get("seat"), bool(p.get("observer")))
        self.room = room
        return {
            "protocol": self.protocol, "server": SERVER_NAME, "session": self.sid,
            "token": self.token, "seat": self.seat, "host": self.host, "resumed": resumed,
            "snapshot": room.snapshot(self.seat),
        }

    def rpc_tables(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """Summaries of every table."""
        return [r.summary() for r in self.server.rooms]

    def rpc_ping(self, p: dict[str, Any]) -> dict[str, Any]:
        """Liveness: the server's wall clock."""
        return {"time": time.time()}

    def rpc_sit(self, p: dict[str, Any]) -> dict[str, Any]:
        """Take a free seat."""
        assert self.room is not None
        table = self.room.sit(self, p["seat"], self.name)
        return {"seat": self.seat, "token": self.token, "table": table}

    def rpc_stand(self, p: dict[str, Any]) -> dict[str, Any]:
        """Leave the seat, keep watching."""
        assert self.room is not None
        return self.room.stand(self)

    def rpc_ready(self, p: dict[str, Any]) -> dict[str, Any]:
        """Ready for the next hand."""
        assert self.room is not None
        return self.room.ready(self, p["ready"])

    def rpc_fill(self, p: dict[str, Any]) -> dict[str, Any]:
        """Seat or remove an AI."""
        assert self.room is not None
        return self.room.fill(self, p["seat"], p["ai"])

    def rpc_list_ais(self, p: dict[str, Any]) -> list[dict[str, str]]:
        """The host's AIs."""
        return self.server.ai.list()

    def _act(self, method: str, p: dict[str, Any]) -> dict[str, Any]:
        assert self.room is not None
        return self.room.act(self, method, p)

    def rpc_bid(self, p: dict[str, Any]) -> dict[str, Any]:
        """Bid or pass."""
        return self._act("bid", p)

    def rpc_trump(self, p: dict[str, Any]) -> dict[str, Any]:
        """Name trump."""
        return self._act("trump", p)

    def rpc_bury(self, p: dict[str, Any]) -> dict[str, Any]:
        """Bury the kitty."""
        return self._act("bury", p)

    def rpc_play(self, p: dict[str, Any]) -> dict[str, Any]:
        """Lead or follow."""
        return self._act("play", p)

    def rpc_declare(self, p: dict[str, Any]) -> dict[str, Any]:
        """找朋友: declare in a deal window, or counter (net/zpy_room.py)."""
        return self._act("declare", p)

    def rpc_pass(self, p: dict[str, Any]) -> dict[str, Any]:
        """找朋友: pass a deal window or a counter turn."""
        return self._act("pass", p)

    def rpc_call_friend(self, p: dict[str, Any]) -> dict[str, Any]:
        """找朋友: the dealer calls the friend."""
        return self._act("call_friend", p)

    def rpc_auto(self, p: dict[str, Any]) -> dict[str, Any]:
        """Auto-play on/off."""
        assert self.room is not None
        return self.room.set_auto(self, p["on"])

    def rpc_xray(self, p: dict[str, Any]) -> dict[str, Any]:
        """X-ray on/off for this session (X-ray tables only)."""
        assert self.room is not None
        return self.room.set_xray(self, p["on"])

    def rpc_snapshot(self, p: dict[str, Any]) -> dict[str, Any]:
        """Everything this session may see now."""
        assert self.room is not None
        return self.room.snapshot(self.seat)

    def rpc_chat(self, p: dict[str, Any]) -> dict[str, Any]:
        """Say something to the table."""
        assert self.room is not None
        self.room.chat(self, p["text"])
        return {}

    def rpc_bye(self, p: dict[str, Any]) -> dict[str, Any]:
        """Leave (the connection closes after the answer; the seat is given up)."""
        self.leaving = True
        return {}


def settle_heap() -> None:
    """Collect garbage once, then move every surviving object out of the cyclic collector's
    reach (``gc.freeze``): modules, the rules caches, the tables set up so far. Full
    collections during play then scan only objects made since, which keeps the pauses they
    cause short (the 50-table benchmark saw 38 ms stalls without this). Process-wide, so only
    a dedicated host process calls it, once it is set up (``hongwu host --headless``)."""
    gc.collect()
    gc.freeze()


# ============================================================================ server
class Server:
    """The host: a TCP listener and its rooms.

    Arguments: ``config`` (:class:`ServerConfig`), ``ai`` (:class:`~net.ai.AIProvider`;
    default: plugins when installed), ``journal`` (a :class:`net.journal.Journal`: every
    table is recorded as it goes, and with ``journal.resume`` restored from it on
    :meth:`start`; None: no journal). Attributes after :meth:`start`: ``port`` (bound TCP
    port), ``bound`` (the hosts its sockets are bound to), ``addresses`` (the ``HOST:PORT``
    texts it can be joined at, from them: see :func:`net.addresses.listening_addresses`),
    ``rooms``, ``host_key`` (grants host rights in
    ``hello``), ``sessions``.
    """

    def __init__(self, config: ServerConfig | None = None, ai: AIProvider | None = None,
                 journal: Any = None, clock: Any = time.time) -> None:
        self.config = config or ServerConfig()
        self.clock = clock  # Unix seconds: the host's day for the coin caps (net/stakes.py)
        #: the per-name daily coin ledger (net/stakes.py): in the journal, else in memory
        self.ledger: Any = None
        self.ai = ai or AIProvider()
        self.journal = journal  # net.journal.Journal, or None: nothing survives a restart
        self.host_key = self.config.host_key or secrets.token_urlsafe(18)
        self.rooms: list[Room] = []
        self.sessions: set[Session] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.base_events.Server | None = None
        self._ids = itertools.count(1)
        self.executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=4, thread_name_prefix="hongwu-host-ai")
        self.port: int | None = None
        self.bound: list[str] = []
        self.addresses: list[str] = []
        self.loop: asyncio.AbstractEventLoop = None  # type: ignore[assignment]

    def room(self, name: str | None) -> Room:
        """The room called ``name`` (None: the first). Raises UNKNOWN_TABLE."""
        if name is None:
            return self.rooms[0]
        for r in self.rooms:
            if r.name == name:
                return r
        raise ProtocolError(ErrorCode.UNKNOWN_TABLE, f"no table named {name[:40]!r}")

    async def start(self) -> int:
        """Create the rooms and start listening; returns the bound port.

        Raises ``OSError`` when the address cannot be bound.
        """
        self.loop = asyncio.get_running_loop()
        if self.ledger is None:
            self.ledger = (self.journal.ledger() if self.journal is not None
                           else stakes.CoinLedger.memory())
        if not self.rooms and self.journal is not None:
            self.rooms = self.journal.rooms(self)  # restored (--resume) or new and recorded
            if self.ledger.conn is not self.journal.conn:  # the file was set aside meanwhile
                self.ledger = self.journal.ledger()
        if not self.rooms:
            from .zpy_room import make_room  # 找朋友 tables (net/zpy_room.py)

            self.rooms = [make_room(self, tc) for tc in self.config.tables]
            for room in self.rooms:
                room._schedule_start()
        self._server = await asyncio.start_server(
            self._accept, self.config.bind, self.config.port, limit=self.config.max_frame,
            backlog=self.config.accept_batch)
        self.port = self._server.sockets[0].getsockname()[1]
        self.bound = bound_hosts(self._server.sockets)
        # off the loop: for a wildcard it looks up this machine's addresses (host name lookup)
        self.addresses = await self.loop.run_in_executor(
            self.executor, listening_addresses, (), self.port, self.bound)
        log.info("hosting %d table(s) on %s:%d", len(self.rooms), self.config.bind, self.port)
        return self.port

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sid = next(self._ids)
        verdict = limits.admit(_peer_address(writer), self.sessions, self.config.caps())
        if not verdict.ok:
            log.warning("refusing connection %d: %s", sid, verdict.reason)
            writer.write(framing.encode(protocol.notification("goodbye", {
                "error": ProtocolError(ErrorCode.SHUTDOWN, verdict.reason).to_wire()})))
            writer.close()
            return
        for old in verdict.evict:  # sockets that never said hello make room (net/limits.py)
            old.close(ErrorCode.TIMEOUT, f"no hello yet, closed to make room: {verdict.reason}")
        limits.fix_send_buffer(writer.get_extra_info("socket"), self.config.send_buffer)
        session = Session(self, reader, writer, sid)
        self.sessions.add(session)
        log.debug("session %d from %s", sid, session.peer)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await session.run()
        finally:
            if task is not None:
                self._tasks.discard(task)

    def _forget(self, session: Session) -> None:
        self.sessions.discard(session)

    def welcomed_count(self) -> int:
        """Sessions past hello and not closing (the reconnect reserve counts them)."""
        return sum(1 for s in self.sessions if s.room is not None and not s.closing)


    async def close(self, timeout: float = 3.0) -> None:
        """Say goodbye (SHUTDOWN) to every session, stop listening and all tasks."""
        if self._server is not None:
            self._server.close()
        for room in self.rooms:
            room.close()
        for s in list(self.sessions):
            s.close(ErrorCode.SHUTDOWN)
        tasks = list(self._tasks)
        if tasks:
            done, pending = await asyncio.wait(tasks, timeout=timeout)
            for t in pending:
                t.cancel()
            if pending:
                await asyncio.wait(pending, timeout=timeout)
        if self._server is not None:
            try:
                await asyncio.wait_for(self._server.wait_closed(), timeout)
            except asyncio.TimeoutError:  # pragma: no cover
                pass
        self.executor.shutdown(wait=False, cancel_futures=True)
        log.info("host stopped")

    async def serve_forever(self) -> None:
        """Run until cancelled."""
        assert self._server is not None
        await self._server.serve_forever()
