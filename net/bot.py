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

from . import codec
from .client import Client, ConnectionClosed, RemoteError

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
    ``started`` (True once a hand has been seen in play).
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
        self._latest: tuple[int, int] = (0, -1)
        self._settled: set[int] = set()
        self._inflight: set[asyncio.Future[Any]] = set()

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
        assert self.client.welcome is not None
        loop = asyncio.get_running_loop()
        deadline = None if start_timeout is None else loop.time() + start_timeout
        snap = await self.client.call("snapshot")  # fresh: the welcome may be old
        if snap["table"]["in_hand"]:
            self.started = True
        if self.auto_ready and self.seat is not None and not (snap["table"]["in_hand"]):
            await self.client.call("ready", ready=True)
        if snap["view"] is not None:
            if snap["view"]["phase"] == "settle":  # an earlier hand: not one of ours
                self._settled.add(snap["table"]["hand_no"])
            self._on_view(snap["table"]["hand_no"], snap["events"], snap["view"])
        while self.hands is None or self.hands_done < self.hands:
            wait = None
            if not self.started and deadline is not None:
                wait = deadline - loop.time()
                if wait <= 0:
                    raise NoHandStarted(f"no hand started within {start_timeout:g} s")
            try:
                method, params = await self.client.next_notification(timeout=wait)
            except asyncio.TimeoutError:
                if not self.started:
                    raise NoHandStarted(f"no hand started within {start_timeout:g} s") from None
                raise
            if method == "table" and params["table"].get("in_hand"):
                self.started = True
            if self.on_message is not None:
                self.on_message(method, params)
            if method == "view":
                self._on_view(params["hand_no"], params["events"], params["view"])
        if self._inflight:
            await asyncio.wait(self._inflight, timeout=10)

    def _on_view(self, hand_no: int, events: int, view: dict[str, Any]) -> None:
        if (hand_no, events) < self._latest:
            return  # an older view still queued: the snapshot already covered it
        self._latest = (hand_no, events)
        if view["phase"] != "settle":
            self.started = True
        if view["phase"] == "settle":
            if hand_no not in self._settled:
                self._settled.add(hand_no)
                self.hands_done += 1
                self.settlements.append(view["settlement"])
                if self.auto_ready and (self.hands is None or self.hands_done < self.hands):
                    self._send("ready", {"ready": True}, timed=False)
            return
        if self.seat is None or view["to_act"] != self.seat:
            return
        key = (hand_no, events)
        if key == self._acted:
            return
        self._acted = key
        action = self.player.act(codec.view_in(view))
        method, params = codec.action_out(action)
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
