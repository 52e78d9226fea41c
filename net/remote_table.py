"""The client's ``game.table.Table`` protocol over the network.

:class:`RemoteTable` runs a :class:`~net.client.Client` on an asyncio loop in a background
thread and offers the synchronous interface the pygame client polls every frame:

- ``seat``, ``names``, ``hand_no``; ``view()`` (an engine ``PlayerView`` kept current from
  the server's ``view`` and ``event`` notifications by a :class:`~net.viewsync.ViewTracker`);
  ``submit(action)`` (one round trip; None or the server's
  reason: an ``engine.refusals.Refusal`` with the engine's code for rule refusals);
  ``poll()`` (engine events for this seat, released together with the view that reflects
  them); ``next_hand()`` (sends ``ready``); ``totals()``; ``close()``;
- extras for the network: ``ready()``, ``set_auto()``/``auto``, ``fill()``, ``list_ais()``,
  ``sit()``, ``chat()``, ``take_chats()`` (chat lines as maps), ``table`` (last ``Table`` map), ``turn`` (last ``Turn`` map),
  ``set_xray()``/``xray_table``/``reasoning_by_seat()`` (X-ray at a learners' table),
  ``countdown()`` (the host's turn timer, counted down locally),
  ``notices()`` (human-readable lines: auto-play switches, chat, reconnects), ``connected``,
  ``wait_for_hand()``.

A dropped connection is re-established with the reconnect token (``reconnect=True``); the
next ``poll()`` then returns a :class:`Resynced` marker event and ``view()`` the server's
snapshot. Names carry visible markers: `` [auto]`` while a seat is auto-played (托管) and
`` [offline]`` while its player is disconnected.

The same class sits at 红五 and at 找朋友 tables (PROTOCOL.md section 14): the host's ``Table``
map says which (``ruleset``), views and events are decoded by :mod:`net.zpy_codec` (either
game's), the seat count comes from the table, and for 找朋友 ``view()`` is an engine
``ZpyView`` (one arrives after every batch of events), ``levels()``/``totals()`` are the
match standings and the actions ``declare``/``pass``/``call_friend`` go out as their
requests: the interface of ``game.zpy_table.ZpyLocalTable``. Every 找朋友 event is also kept
in a :class:`net.zpy_log.ZpyHandLog`, so that ``settled_zpy_hand()`` gives the last settled
hand as an engine ``ZpyHand`` (rebuilt from them and the seed the host sends once the hand is
over) for the client's career record.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from engine.events import Event

from . import codec, zpy_codec
from .client import Backoff, Client, ConnectionClosed, RemoteError, should_reconnect
from .viewsync import ViewTracker
from .zpy_log import ZpyHandLog

log = logging.getLogger(__name__)

CHAT_KEEP = 200
"""Chat lines held for ``take_chats`` between two calls (older ones are dropped)."""


@dataclass(frozen=True)
class Resynced(Event):
    """Marker event: the view was replaced by a fresh snapshot (after a reconnect); events
    in between were not seen. Clients should simply redraw from ``view()``."""

    kind: ClassVar[str] = "resync"


class RemoteTable:
    """A table hosted elsewhere. Connects and says hello in the constructor.

    Arguments: ``host``/``port`` of the server; ``name`` (display name); ``token`` (resume a
    seat); ``seat`` (preferred seat); ``observer``; ``table`` (table name on a multi-table
    host); ``host_key`` (host rights); ``timeout`` seconds for connecting and each request;
    ``reconnect`` (retry with the token when the connection drops, for up to
    ``reconnect_s`` seconds, waiting as :class:`~net.client.Backoff` says between tries: the
    host may be restarting with ``--resume``; the new Welcome's token is kept);
    ``on_token(token)`` is called (in the network thread) whenever a Welcome gives the seat a
    token, e.g. to save it for the next run (a restarted host gives a new one).

    Raises ``OSError``/``TimeoutError`` when the host cannot be reached and
    :class:`~net.client.RemoteError` when the hello is refused (version, token...).
    """

    def __init__(self, host: str, port: int, name: str, *, token: str | None = None,
                 seat: int | None = None, observer: bool = False, table: str | None = None,
                 host_key: str | None = None, timeout: float = 5.0, reconnect: bool = True,
                 reconnect_s: float = 60.0,
                 on_token: Callable[[str], Any] | None = None,
                 title: str | None = None) -> None:
        self.host, self.port, self.name = host, port, name
        self.on_token = on_token
        self.timeout = timeout
        self.reconnect = reconnect
        self.reconnect_s = reconnect_s
        self._hello_args = dict(seat=seat, observer=observer, table=table, host_key=host_key, title=title)
        self._lock = threading.Lock()
        self._coins_lock = threading.Lock()
        self._client: Client | None = None
        self._view: Any = None
        self._views = ViewTracker()
        self._resyncing = False
        self._syncing = False
        self._since_hello: set[str] = set()
        self._pending: list[tuple[int, Any]] = []  # (n, event) waiting for their view
        self._outbox: list[Any] = []
        self._notices: list[str] = []
        self._chats: list[dict[str, Any]] = []
        self.chat_in_notices = True  # a window with a chat panel sets False (take_chats)
        self.last_error: str | None = None  # the error name of the last request refused
        self._hand_seen = 0
        self._xray_wanted = False  # X-ray asked for (sent again after a reconnect)
        self._reasoning: dict[int, tuple[int, tuple]] = {}  # seat -> (hand_no, Reasoning...)
        self._coins: dict[int, tuple[int, ...]] = {}  # hand_no -> the host's coins (staked table)
        self._zpy_log = ZpyHandLog()  # a 找朋友 table: this seat's events of the hand (net.zpy_log)
        self.table: dict[str, Any] = {}
        self.turn: dict[str, Any] | None = None
        self._turn_at = time.monotonic()  # when ``turn`` arrived (its timeout counts from then)
        self.seat: int | None = None
        self.token: str | None = token
        self.host_rights = False
        self.closed = False
        self.connected = False
        self.goodbye: dict[str, Any] | None = None
        self._hand_event = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="hongwu-net",
                                        daemon=True)
        self._thread.start()
        try:
            self._run(self._connect(token), timeout * 2 + 1)
        except BaseException:
            self._stop_loop()
            raise

    # ------------------------------------------------------------------ loop helpers
    def _run(self, coro: Any, timeout: float) -> Any:
        fut = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return fut.result(timeout)
        except concurrent.futures.TimeoutError:
            fut.cancel()
            raise TimeoutError("the host did not answer in time") from None

    async def _connect(self, token: str | None) -> None:
        client = await Client.connect(self.host, self.port, timeout=self.timeout)
        with self._lock:
            # A new connection: the host's numbering is the only truth from here on. Frames
            # that arrive right behind the welcome are handled before this coroutine resumes;
            # the tracker holds their events and the welcome's older parts do not overwrite.
            self._views = ViewTracker()
            self._syncing = True
            self._since_hello: set[str] = set()
        client.on_notification = self._on_notification
        try:
            welcome = await client.hello(self.name, token=token, timeout=self.timeout,
                                         **self._hello_args)
        except BaseException:
            await client.close()
            raise
        self._client = client
        snap = welcome["snapshot"]
        with self._lock:
            self.seat = welcome["seat"]
            self.token = welcome["token"]
            self.host_rights = welcome["host"]
            if "table" not in self._since_hello:
                self.table = snap["table"]
            if "turn" not in self._since_hello:
                self.turn = snap["turn"]
                self._turn_at = time.monotonic()
            self.connected = True
            self._syncing = False
            token = self.token
            if snap["view"] is not None:
                self._set_view(snap["table"]["hand_no"], snap["events"], snap["view"],
                               resync=self._view is not None)
        if token and self.on_token is not None:
            try:
                self.on_token(token)
            except Exception:  # pragma: no cover - a caller's problem, not the connection's
                log.exception("on_token callback failed")
        self._loop.create_task(self._watch(client))
        if self._xray_wanted and self.xray_table:  # a new session: X-ray must be asked again
            self._loop.create_task(self._ask_xray(client))
        log.info("joined %s:%d as %s (seat %s)", self.host, self.port, self.name, self.seat)

    async def _ask_xray(self, client: Client) -> None:
        try:
            await client.call("xray", {"on": True}, timeout=self.timeout)
        except (RemoteError, ConnectionClosed, OSError, asyncio.TimeoutError) as exc:
            log.info("X-ray not granted again after reconnecting: %r", exc)

    async def _watch(self, client: Client) -> None:
        await client.closed.wait()
        with self._lock:
            self.connected = False
            self.goodbye = client.goodbye
        if self.closed:
            return
        if not self.reconnect or self.token is None or not should_reconnect(
                client.goodbye, after_shutdown=True):  # a host may come back (--resume)
            self._notice(f"disconnected from the host: {(client.goodbye or {}).get('message', 'connection lost')}")
            return
        self._notice("connection lost; reconnecting...")
        deadline = time.monotonic() + self.reconnect_s
        delays = Backoff(total=self.reconnect_s).delays()
        attempt = 0
        while not self.closed and time.monotonic() < deadline:
            delay = min(next(delays), max(0.0, deadline - time.monotonic()))
            attempt += 1
            log.info("reconnect attempt %d to %s:%d in %.2f s", attempt, self.host, self.port,
                     delay)
            await asyncio.sleep(delay)
            try:
                await self._connect(self.token)  # the Welcome's token replaces ours
                self._notice("reconnected")
                return
            except RemoteError as exc:
                self._notice(f"reconnect refused: {exc.message}")
                return
            except (OSError, asyncio.TimeoutError, ConnectionClosed) as exc:
                log.info("reconnect attempt %d failed: %r", attempt, exc)
        self._notice("could not reconnect to the host")

    def _notice(self, text: str) -> None:
        with self._lock:
            self._notices.append(text)
        log.info("%s", text)

    # ------------------------------------------------------------------ notifications
    def _on_notification(self, method: str, params: dict[str, Any]) -> bool:
        """Runs in the network thread; returns True (nothing is queued in the client)."""
        try:
            self._since_hello.add(method)
            if method == "event":
                self._keep_coins(params["hand_no"], params["event"].get("settlement"))
                ev = zpy_codec.any_event_in(params["event"])
                with self._lock:
                    if self.is_zhaopengyou:
                        self._zpy_log.feed(method, params, self.seat)
                    self._pending.append((params["n"], ev))
                    self._views.on_event(params["hand_no"], params["n"], ev)
                    self._release()
                    resync = self._views.needs_snapshot and not (self._resyncing
                                                                 or self._syncing)
                    self._resyncing = self._resyncing or resync
                if resync:
                    log.warning("view out of step at event %d: asking for a snapshot",
                                params["n"])
                    self._loop.create_task(self._resync())
            elif method == "view":
                with self._lock:
                    self._set_view(params["hand_no"], params["events"], params["view"])
                    if self.is_zhaopengyou:
                        self._zpy_log.feed(method, params, self.seat)
            elif method == "table":
                with self._lock:
                    self.table = params["table"]
            elif method == "turn":
                with self._lock:
                    self.turn = params["turn"]
                    self._turn_at = time.monotonic()
            elif method == "auto":
                who = self._seat_label(params["seat"])
                state = "on" if params["on"] else "off"
                self._notice(f"auto-play {state} for {who} ({params['reason']})")
            elif method == "chat":
                line = {"seat": params.get("seat"), "name": str(params.get("name", "")),
                        "text": str(params.get("text", ""))}
                with self._lock:
                    self._chats.append(line)
                    del self._chats[:-CHAT_KEEP]
                if self.chat_in_notices:
                    self._notice(f"{line['name']}: {line['text']}")
            elif method == "reasoning":  # X-ray: an AI seat's candidates after its decision
                from ai_plugins.runner import plain_reasoning

                cands = plain_reasoning(params["candidates"])
                with self._lock:
                    self._reasoning[int(params["seat"])] = (int(params["hand_no"]), cands)
            elif method == "goodbye":
                self.goodbye = params.get("error")
        except Exception:
            log.exception("bad %s notification from the host", method)
        return True

    async def _resync(self) -> None:
        """Replace an out-of-step view by a fresh snapshot (the network thread)."""
        try:
            client = self._client
            if client is None:
                return
            snap = await client.call("snapshot", timeout=self.timeout)
            with self._lock:
                if snap["view"] is not None:
                    self._set_view(snap["table"]["hand_no"], snap["events"], snap["view"],
                                   resync=True)
        except Exception as exc:  # a lost connection resyncs on reconnect anyway
            log.info("snapshot for a resync failed: %r", exc)
        finally:
            self._resyncing = False

    def _keep_coins(self, hand_no: int, settlement: Any) -> None:
        """Remember the host's clamped coins of a settled hand (``Settlement.coins``)."""
        coins = settlement.get("coins") if isinstance(settlement, dict) else None
        if isinstance(coins, list) and all(isinstance(c, int) for c in coins):
            with self._coins_lock:
                self._coins[hand_no] = tuple(coins)
                for old in [h for h in self._coins if h < hand_no - 8]:
                    del self._coins[old]

    def coins(self, hand_no: int | None = None) -> tuple[int, ...] | None:
        """The coins per seat the host gave the settled hand ``hand_no`` (default: the
        current one) at a staked table (PROTOCOL.md ``Settlement.coins``, clamped by the host
        per player name, RULES.md §12); None at a table without a stake or before the
        settlement."""
        with self._coins_lock:
            return self._coins.get(self._hand_seen if hand_no is None else hand_no)

    @property
    def stake(self) -> int:
        """The table's stake in coins per game point (``Table.stake``; 0: no coins)."""
        return int(self.table.get("stake") or 0)

    def _set_view(self, hand_no: int, events: int, wire_view: dict[str, Any],
                  resync: bool = False) -> None:
        """Install a full wire view (unless the tracker already holds a newer state) and
        release the events it reflects (lock held)."""
        self._keep_coins(hand_no, wire_view.get("settlement"))
        if zpy_codec.is_zpy_view(wire_view):
            self._zpy_log.view(hand_no, wire_view)
        if resync:
            self._pending = []
        self._views.on_view(hand_no, events, wire_view)
        self._release()
        if resync:
            self._outbox.append(Resynced())

    def _release(self) -> None:
        """Publish the tracked view and release the events it reflects (lock held)."""
        t = self._views
        if t.view is None or t.stale:
            return
        self._view = t.view
        if t.hand_no != self._hand_seen:
            self._hand_seen = t.hand_no
            self._hand_event.set()
        events = t.events
        if self._pending:
            ready = [ev for n, ev in self._pending if n < events]
            self._pending = [(n, ev) for n, ev in self._pending if n >= events]
            self._outbox.extend(ready)

    def _seat_label(self, seat: int) -> str:
        if seat == self.seat:
            return "you"
        seats = self.table.get("seats") or []
        name = seats[seat].get("name") if seat < len(seats) else None
        return name or f"seat {seat}"

    # ------------------------------------------------------------------ Table protocol
    @property
    def is_zhaopengyou(self) -> bool:
        """True at a 找朋友 table (the host's ``Table.ruleset``, PROTOCOL.md section 14)."""
        return self.table.get("ruleset") == "zhaopengyou"

    @property
    def ruleset(self) -> Any:
        """The engine ``RuleSet`` of the table (from the latest view, else the table map)."""
        return self.view().ruleset

    @property
    def seat_count(self) -> int:
        """Seats at the table: the host's ``Table.seats`` (4 for 红五, 5 for 找朋友), else the
        ruleset's ``players`` before the first ``Table`` map."""
        seats = self.table.get("seats") or []
        return len(seats) if seats else self.ruleset.players

    @property
    def zpy_options(self) -> dict[str, Any]:
        """找朋友 rule options of the table (``{name: value}``; empty at a 红五 table)."""
        return dict(self.table.get("options") or {}) if self.is_zhaopengyou else {}

    @property
    def names(self) -> tuple[str, ...]:
        """One display name per seat (:attr:`seat_count`) with markers (`` [auto]``,
        `` [offline]``)."""
        seats = self.table.get("seats") or []
        out = []
        for i in range(self.seat_count):
            s = seats[i] if i < len(seats) else {}
            name = s.get("name") or f"seat {i}"
            if s.get("kind") == "human":
                if not s.get("connected", True):
                    name += " [offline]"
                elif s.get("auto"):
                    name += " [auto]"
            out.append(name)
        return tuple(out)

    def titles(self) -> tuple[str, ...]:
        """Each seat's title as the host relays it (PROTOCOL.md ``Seat.title``), "" where the
        player gave none (and for AIs and empty seats)."""
        seats = self.table.get("seats") or []
        return tuple(str((seats[i] if i < len(seats) else {}).get("title") or "")
                     for i in range(self.seat_count))

    @property
    def hand_no(self) -> int:
        """Hands started at the table (1 for the first)."""
        return int(self.table.get("hand_no", 0))

    @property
    def auto(self) -> bool:
        """True while the own seat is auto-played (托管)."""
        seats = self.table.get("seats") or []
        if self.seat is None or self.seat >= len(seats):
            return False
        return bool(seats[self.seat].get("auto"))

    def view(self) -> Any:
        """The latest ``PlayerView`` (an empty lobby view before the first hand)."""
        with self._lock:
            if self._view is None:
                return self._lobby_view()
            return self._view

    def _lobby_view(self) -> Any:
        from engine.ruleset import hongwu
        from engine.state import Phase, PlayerView

        if self.is_zhaopengyou:
            return self._zpy_lobby_view()
        decks = int(self.table.get("decks", 2))
        rs = codec.ruleset_in(decks, self.table.get("options") or {}) if self.table \
            else hongwu(2)
        return PlayerView(
            seat=self.seat, phase=Phase.DEAL, ruleset=rs, hand_no=0, first_bidder=0, bids=(),
            legal_bid_amounts=(), dealer=None, bid=None, trump=None, to_act=None, hand=(),
            hand_sizes=(0,) * rs.players, kitty=None, buried=None, trick_no=1, trick_leader=None,
            current_trick=(), tricks=(), points_won=(0,) * rs.players, red_fives=(),
            failed_throws=(), settlement=None)

    def _zpy_lobby_view(self) -> Any:
        """An empty 找朋友 view before the first hand (the table's options and standings)."""
        from engine.zhaopengyou import ZPhase, ZpyView

        rs = zpy_codec.ruleset_in(self.table.get("options") or {})
        n = rs.players
        match = self.table.get("match") or {}
        levels = tuple(match.get("levels") or (2,) * n)
        return ZpyView(
            seat=self.seat, phase=ZPhase.DEAL, ruleset=rs, hand_no=0, levels=levels,
            eligible=tuple(match.get("eligible") or range(n)), first_card=0, deal_no=1,
            cards_dealt=0, to_act=None, hand=(), hand_sizes=(0,) * n, declarations=(),
            standing=None, legal_declarations=(), dealer=None, level=None, trump=None,
            trump_known=False, kitty_flip=None, friend_call=None, friend=None, alone=False,
            kitty=None, buried=None, burier=None, trick_no=1, trick_leader=None,
            current_trick=(), tricks=(), points_won=(0,) * n, failed_throws=(), settlement=None)

    def submit(self, action: Any) -> str | None:
        """Send an engine action of the own seat; None when the host accepted it, else why not.

        When the host refused it for a reason of the rules engine (illegal action, not this
        seat's turn, wrong phase, hand over) the answer is an ``engine.refusals.Refusal``: the
        host's English text with the engine's ``code`` and ``params``, so that
        ``game.text.reason_text`` translates it exactly as in local play. Never raises."""
        if self.seat is None:
            return "you are watching, not playing"
        if getattr(action, "seat", None) != self.seat:
            return "that seat is not yours"
        try:
            method, params = zpy_codec.action_out(action)
        except TypeError as exc:
            return str(exc)
        return self._request(method, params)[1]

    def _request(self, method: str, params: dict[str, Any] | None = None) -> tuple[Any, str | None]:
        """(result, None) or (None, reason); the reason is an engine ``Refusal`` when the
        host's error carried a coded refusal, else plain text."""
        client = self._client
        self.last_error = None
        if self.closed:
            return None, "the table is closed"
        if client is None or client.closed.is_set():
            return None, "not connected to the host"
        try:
            return self._run(client.call(method, params or {}, timeout=self.timeout),
                             self.timeout + 1), None
        except RemoteError as exc:
            self.last_error = exc.name
            return None, codec.refusal_in(exc.refusal, exc.message) or exc.message
        except (ConnectionClosed, OSError) as exc:
            return None, f"connection lost: {exc}"
        except TimeoutError:
            return None, "the host did not answer in time"

    def countdown(self) -> tuple[int, float] | None:
        """``(seat, seconds left)`` of the turn timer the host runs for the seat to act, from
        the last ``Turn`` (its ``timeout``, counted down locally since it arrived); None when no
        timer runs (no hand, settled, an AI or auto-played seat, a host without limits) or
        when that turn does not belong to the current view."""
        with self._lock:
            turn, view, since = self.turn, self._view, self._turn_at
        if not turn or view is None:
            return None
        seat, timeout = turn.get("seat"), turn.get("timeout")
        if seat is None or timeout is None or seat != view.to_act \
                or turn.get("phase") != view.phase.value:
            return None
        return seat, max(0.0, float(timeout) - (time.monotonic() - since))

    def poll(self) -> list[Any]:
        """Engine events (filtered for this seat by the host) since the last call."""
        with self._lock:
            out, self._outbox = self._outbox, []
        return out

    def next_hand(self) -> str | None:
        """Say ready for the next hand (the host deals when every seat is ready); at a 找朋友
        table whose game is over, why not (the host deals no further hand)."""
        if self.is_zhaopengyou and self.match_over:
            return "the game is over: the table deals no further hand"
        if self.seat is None:
            return None
        v = self._view
        if v is not None and v.phase.value != "settle":
            return "the hand is not over"
        return self._request("ready", {"ready": True})[1]

    def totals(self) -> tuple[int, ...]:
        """Game points per seat accumulated at this table (红五); at a 找朋友 table the match
        standings, every seat's level (:meth:`levels`), as ``ZpyLocalTable.totals``."""
        if self.is_zhaopengyou:
            return self.levels()
        seats = self.table.get("seats") or []
        n = self.seat_count
        return tuple(int(s.get("score", 0)) for s in seats) if len(seats) == n else (0,) * n

    def levels(self) -> tuple[int, ...]:
        """找朋友: every seat's level rank (2..14) before the current hand, after it once it is
        settled (from the view's settlement), else the ``Table.match`` standings. Empty at a
        红五 table."""
        if not self.is_zhaopengyou:
            return ()
        v = self.view()
        st = getattr(v, "settlement", None)
        if st is not None:
            return tuple(st.levels)
        lv = getattr(v, "levels", None)
        if lv:
            return tuple(lv)
        return tuple((self.table.get("match") or {}).get("levels") or ())

    def settled_zpy_hand(self) -> Any:
        """找朋友: the last hand settled at this table as the host played it, an engine
        ``ZpyHand`` with its seed, rebuilt from the events this seat received and the seed the
        host sends once the hand is over (:mod:`net.zpy_log`; PROTOCOL.md section 14); None
        before one settled, at a 红五 table, for a hand joined late or with events missed in a
        reconnect, or from an older host (:attr:`zpy_problem` says why)."""
        with self._lock:
            return self._zpy_log.rebuilt() if self.is_zhaopengyou else None

    @property
    def zpy_problem(self) -> str:
        """Why the last settled 找朋友 hand cannot be rebuilt ("" when it can)."""
        return self._zpy_log.problem

    @property
    def table_key(self) -> str:
        """``host:port/table``: which table this is (a 找朋友 match's hands share it)."""
        return f"{self.host}:{self.port}/{self.table.get('name') or ''}"

    @property
    def match_over(self) -> bool:
        """找朋友: True once the host says the game is over (``Table.match.game_over``): the
        table deals no further hand."""
        return bool((self.table.get("match") or {}).get("game_over"))

    @property
    def showing_deal(self) -> bool:
        """Always False: the host paces the deal itself (its ``card_dealt`` events arrive one
        at a time, each with the view of the deal so far, ``net.zpy_room``); kept for the
        ``ZpyLocalTable`` interface."""
        return False

    def close(self) -> None:
        """Leave the table (``bye``) and stop the network thread."""
        if self.closed:
            return
        self.closed = True
        client = self._client
        if client is not None and self._loop.is_running():
            try:
                self._run(client.bye(timeout=1.0), 3.0)
            except Exception:
                pass
        self._stop_loop()

    def _stop_loop(self) -> None:
        async def _cancel_all() -> None:
            for t in asyncio.all_tasks():
                if t is not asyncio.current_task():
                    t.cancel()

        if self._loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(_cancel_all(), self._loop).result(2)
            except Exception:
                pass
            self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=3)
        if not self._loop.is_running():
            self._loop.close()

    # ------------------------------------------------------------------ network extras
    def ready(self, ready: bool = True) -> str | None:
        """Mark the own seat (not) ready; None or why not."""
        return self._request("ready", {"ready": ready})[1]

    def set_auto(self, on: bool) -> str | None:
        """Turn auto-play (托管) of the own seat on or off; None or why not."""
        return self._request("auto", {"on": on})[1]

    def fill(self, seat: int, ai: str | None) -> str | None:
        """Seat the AI ``ai`` at ``seat`` (None removes an AI); None or why not."""
        return self._request("fill", {"seat": seat, "ai": ai})[1]

    def list_ais(self) -> list[dict[str, str]]:
        """The host's AIs (``AI`` maps); empty on error."""
        result, _err = self._request("list_ais")
        return list(result or [])

    def sit(self, seat: int) -> str | None:
        """Move to a free seat between hands; None or why not."""
        result, err = self._request("sit", {"seat": seat})
        if err is None:
            self.seat, self.token = result["seat"], result["token"]
        return err

    @property
    def xray_table(self) -> bool:
        """The host shows its AI seats' reasoning at this table (``Table.xray``, a learners'
        table: ``hongwu host --xray``)."""
        return bool(self.table.get("xray"))

    def set_xray(self, on: bool) -> str | None:
        """Ask the host for the AI seats' reasoning (X-ray 透视) or stop it; None or why not
        (at a table without X-ray the host refuses on, ``last_error`` ``"FORBIDDEN"``).
        Turning it off forgets the reasoning held."""
        result, err = self._request("xray", {"on": bool(on)})
        with self._lock:
            self._xray_wanted = bool(on) and err is None
            if not self._xray_wanted:
                self._reasoning.clear()
        return err

    def reasoning_by_seat(self) -> dict[int, tuple]:
        """X-ray: ``{seat: (Reasoning, ...)}`` of the AI seats' last decisions in the current
        hand (``ai_plugins.runner.Reasoning``: ``action``, ``value``, ``note``; best first),
        as the host sent them after each decision; empty without X-ray."""
        hand = self.hand_no
        with self._lock:
            return {seat: r for seat, (h, r) in self._reasoning.items() if h == hand and r}

    def chat(self, text: str) -> str | None:
        """Say ``text`` to the table; None or why not (over the host's chat budget
        ``last_error`` is then ``"RATE_LIMITED"``: PROTOCOL.md section 9)."""
        return self._request("chat", {"text": text})[1]

    def take_chats(self) -> list[dict[str, Any]]:
        """The ``chat`` notifications since the last call, oldest first, as
        ``{"seat": int|None, "name": str, "text": str}`` maps (at most :data:`CHAT_KEEP`
        are held between calls; the oldest go first).  With ``chat_in_notices`` (the default)
        each is also a ``notices()`` line ``"name: text"``."""
        with self._lock:
            out, self._chats = self._chats, []
        return out

    def notices(self) -> list[str]:
        """Human-readable lines since the last call (auto-play, chat, connection)."""
        with self._lock:
            out, self._notices = self._notices, []
        return out

    def wait_for_hand(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds until a hand has been dealt; True if one was."""
        return self._hand_event.wait(timeout)
