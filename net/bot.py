"""A headless network player: a :class:`~net.client.Client` driven by an AI player.

Used by ``hongwu join --headless``, the tests and the benchmarks. The bot acts whenever its
view says it is to act, answers nothing else, marks itself ready after every hand and stops
after ``hands`` hands (or never, with ``hands=None``). :meth:`Bot.run` can bound the wait for
the first hand (``start_timeout``, raising :class:`NoHandStarted`) separately from the whole
session (``timeout``).
"""
from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import Any, Callable

from engine.state import Phase

from . import codec, zpy_codec
from .client import Client, ConnectionClosed, RemoteError
from .viewsync import Fold, ViewTracker

log = logging.getLogger(__name__)


class NoHandStarted(asyncio.TimeoutError):
    """No hand was in play within the ``start_timeout`` given to :meth:`Bot.run` (a subclass
    of ``asyncio.TimeoutError``, so code that catches timeouts catches it too)."""


class Bot:
    """Plays the seat of ``client`` (hello already done) with ``player.act(view)``.

    Arguments: ``hands`` to play before :meth:`run` returns (None: until the connection
    ends); ``on_message(method, params)`` called for every notification (tests record frames
    with it); ``think`` optional coroutine-free delay in seconds before each action.

    Attributes: ``latencies`` (seconds from sending each action to its answer), ``errors``
    (RemoteError messages for rejected actions), ``hands_done``, ``settlements`` (wire maps),
    ``started`` (True once a hand has been seen in play), ``views`` (the
    :class:`~net.viewsync.ViewTracker` that keeps the seat's view current, whichever protocol
    version the client speaks).
    """

    def __init__(self, client: Client, player: Any, *, hands: int | None = 1,
                 on_message: Callable[[str, dict[str, Any]], None] | None = None,
                 think: float = 0.0, auto_ready: bool = True) -> None:
        self.client = client
        self.player = player
        self.hands = hands
        self.on_message = on_message
        self.think = think
        self.auto_ready = auto_ready
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.hands_done = 0
        self.settlements: list[dict[str, Any]] = []
        self.started = False
        self._acted: tuple[int, int] | None = None
        self._settled: set[int] = set()
        self._inflight: set[asyncio.Future[Any]] = set()
        self.views = ViewTracker()
        self._resyncing = False
        self.resyncs = 0
        self._syncing = False
        self._finished: asyncio.Future[None] | None = None

    def attach(self, client: Client) -> None:
        """Go on with ``client`` (a new connection after a reconnect, hello done): the view is
        tracked afresh from its snapshot, hands already counted stay counted, and the seat
        acts again on the state it finds (an action lost with the old connection is made
        again). Call :meth:`run` next."""
        self.client = client
        self.views = ViewTracker()
        self._acted = None
        self._resyncing = False

    @property
    def seat(self) -> int | None:
        """The seat from the welcome."""
        assert self.client.welcome is not None
        return self.client.welcome["seat"]

    async def run(self, timeout: float | None = 120.0,
                  start_timeout: float | None = None) -> None:
        """Play until ``hands`` hands are settled (for ever with ``hands=None``).

        Raises ``asyncio.TimeoutError`` when the whole run takes more than ``timeout``
        seconds (None or ``inf``: no limit), :class:`NoHandStarted` when no hand is in play
        within ``start_timeout`` seconds (None: wait for ever; once a hand has started only
        ``timeout`` applies), and :class:`ConnectionClosed` if the server goes away.
        """
        if timeout is None or math.isinf(timeout):
            await self._run(start_timeout)
        else:
            await asyncio.wait_for(self._run(start_timeout), timeout)

    async def _run(self, start_timeout: float | None = None) -> None:
        """Handle notifications as they arrive (the client's ``on_notification`` callback, no
        queue in between) until the hands are played; see :meth:`run`."""
        client = self.client
        assert client.welcome is not None
        loop = asyncio.get_running_loop()
        deadline = None if start_timeout is None else loop.time() + start_timeout
        self._finished: asyncio.Future[None] = loop.create_future()
        previous = client.on_notification
        client.on_notification = self._on_notification
        closed = asyncio.ensure_future(client.closed.wait())
        try:
            while not client.notifications.empty():  # queued before run started, in order
                self._on_notification(*client.notifications.get_nowait())
            self._syncing = True  # events before the snapshot are held, not resynced
            snap = await client.call("snapshot")  # fresh: the welcome may be old
            self._syncing = False
            if snap["table"]["in_hand"]:
                self.started = True
            if self.auto_ready and self.seat is not None and not (snap["table"]["in_hand"]):
                await client.call("ready", ready=True)
            if snap["view"] is not None:
                if snap["view"]["phase"] == "settle":  # an earlier hand: not one of ours
                    self._settled.add(snap["table"]["hand_no"])
                self._install(snap)
            self._check_finished()
            while not self._finished.done():
                wait = None
                if not self.started and deadline is not None:
                    wait = deadline - loop.time()
                    if wait <= 0:
                        raise NoHandStarted(f"no hand started within {start_timeout:g} s")
                await asyncio.wait({self._finished, closed}, timeout=wait,
                                   return_when=asyncio.FIRST_COMPLETED)
                if not self._finished.done() and closed.done():
                    raise ConnectionClosed(client._close_reason, client.goodbye)
            self._finished.result()  # raises what a handler raised
        finally:
            client.on_notification = previous
            closed.cancel()
            self._syncing = False
        if self._inflight:
            await asyncio.wait(self._inflight, timeout=10)

    def stop(self) -> None:
        """End :meth:`run` after the notification being handled (e.g. a 找朋友 game that is
        over: the host deals no further hand). Does nothing outside :meth:`run`."""
        if self._finished is not None and not self._finished.done():
            self._finished.set_result(None)

    def _check_finished(self) -> None:
        if self.hands is not None and self.hands_done >= self.hands \
                and not self._finished.done():
            self._finished.set_result(None)

    def _on_notification(self, method: str, params: dict[str, Any]) -> bool:
        """The client's callback: track the view, act, count hands. Returns True (handled:
        nothing is queued). A failure ends :meth:`run` with that exception."""
        if self._finished.done():
            return False  # run is over: leave the notification queued for others
        try:
            if method == "table" and params["table"].get("in_hand"):
                self.started = True
            if self.on_message is not None:
                self.on_message(method, params)
            if method == "view":
                if self.views.on_view(params["hand_no"], params["events"], params["view"]):
                    self._on_view()
            elif method == "event":
                fold = self.views.on_event(params["hand_no"], params["n"],
                                           zpy_codec.any_event_in(params["event"]))
                if fold is Fold.FOLDED:
                    self._on_view()
                elif self.views.needs_snapshot and not self._syncing:
                    self._resync()
            self._check_finished()
        except Exception as exc:
            if not self._finished.done():
                self._finished.set_exception(exc)
        return True

    def _install(self, snap: dict[str, Any]) -> None:
        """Install a ``Snapshot``'s view (if any; not when newer events were already handled)
        and act on it."""
        if snap["view"] is not None and self.views.on_view(
                snap["table"]["hand_no"], snap["events"], snap["view"]):
            self._on_view()

    def _resync(self) -> None:
        """Ask for a snapshot once when the tracked view fell out of step (never expected
        from a conforming host; logged)."""
        if self._resyncing:
            return
        log.warning("bot seat %s: view out of step at event %d; asking for a snapshot",
                    self.seat, self.views.events)
        self._resyncing = True
        self.resyncs += 1
        try:
            fut = self.client.send_request("snapshot", {})
        except ConnectionClosed:
            return

        def done(f: asyncio.Future[Any]) -> None:
            self._resyncing = False
            if not f.cancelled() and f.exception() is None:
                self._install(f.result())
                self._check_finished()

        fut.add_done_callback(done)

    def _on_view(self) -> None:
        """React to the tracked view: count settled hands (then ready again), act when it
        is this seat's turn (once per state)."""
        view, hand_no, events = self.views.view, self.views.hand_no, self.views.events
        if view is None:
            return
        if view.phase.value != Phase.SETTLE.value:  # 红五's Phase or 找朋友's ZPhase
            self.started = True
        else:
            if hand_no not in self._settled:
                self._settled.add(hand_no)
                self.hands_done += 1
                self.settlements.append(_settlement_out(view))
                if self.auto_ready and (self.hands is None or self.hands_done < self.hands):
                    self._send("ready", {"ready": True}, timed=False)
            return
        if self.seat is None or view.to_act != self.seat:
            return
        key = (hand_no, events)
        if key == self._acted:
            return
        self._acted = key
        action = self.player.act(view)
        method, params = zpy_codec.action_out(action)
        if self.think:
            asyncio.get_running_loop().call_later(self.think, self._send, method, params)
        else:
            self._send(method, params)

    def _send(self, method: str, params: dict[str, Any], timed: bool = True) -> None:
        try:
            fut = self.client.send_request(method, params)
        except ConnectionClosed:
            return
        started = time.perf_counter()
        self._inflight.add(fut)

        def done(f: asyncio.Future[Any]) -> None:
            self._inflight.discard(f)
            if f.cancelled():
                return
            exc = f.exception()
            if exc is None:
                if timed:
                    self.latencies.append(time.perf_counter() - started)
            elif isinstance(exc, RemoteError):
                self.errors.append(f"{method}: {exc}")
                log.info("bot seat %s: %s rejected: %s", self.seat, method, exc)

        fut.add_done_callback(done)


def _settlement_out(view: Any) -> dict[str, Any] | None:
    """The wire settlement map of a settled view of either ruleset."""
    from engine.zhaopengyou import ZpyView

    if isinstance(view, ZpyView):
        return zpy_codec.settlement_out(view.settlement, view.levels, view.buried or ())
    return codec.settlement_out(view.settlement)
