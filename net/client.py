"""An asyncio client session for the Hong Wu protocol (PROTOCOL.md).

>>> # inside a coroutine:
>>> # client = await Client.connect("127.0.0.1", 47470)
>>> # welcome = await client.hello("Ann")           # -> Welcome map (seat, token, snapshot)
>>> # await client.call("ready", ready=True)
>>> # method, params = await client.next_notification(timeout=5)

The client matches responses to requests by msgid, queues notifications in arrival order and
records the server's ``goodbye``. It knows nothing about the rules: game values stay in their
wire form here (:mod:`net.codec` turns them into engine objects).
"""
from __future__ import annotations

import asyncio
import itertools
import logging
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from . import framing, protocol
from .protocol import ErrorCode, PROTOCOL_VERSION, TITLE_MAX, TITLES_SINCE

log = logging.getLogger(__name__)

CLIENT_NAME = "hongwu-net/1"
"""What this client reports as ``client`` in ``hello``."""

KEEPALIVE_S = 30.0
"""A client that has sent nothing for this many seconds sends ``ping`` (the host closes
connections idle for 120 s)."""


class RemoteError(Exception):
    """The server answered a request with an error.

    Attributes: ``code`` (int, an :class:`~net.protocol.ErrorCode` value when known),
    ``name`` (str), ``message`` (str, e.g. the engine's reason for an illegal action) and
    ``refusal`` (the error's ``Refusal`` map ``{"code": str, "params": map}`` when the host
    sent the engine's coded reason, else None; :func:`net.codec.refusal_in` makes it an
    engine ``Refusal``); ``error`` is the error as received. Other fields of the error map
    are ignored (PROTOCOL.md section 12).
    """

    def __init__(self, error: Any) -> None:
        self.error = error
        self.refusal: dict[str, Any] | None = None
        if isinstance(error, dict):
            self.code = error.get("code", ErrorCode.INTERNAL)
            self.name = str(error.get("name", "ERROR"))
            self.message = str(error.get("message", ""))
            refusal = error.get("refusal")
            self.refusal = refusal if isinstance(refusal, dict) else None
        else:
            self.code, self.name, self.message = int(ErrorCode.INTERNAL), "ERROR", repr(error)
        super().__init__(f"{self.name}: {self.message}")


class ConnectionClosed(ConnectionError):
    """The connection is closed (by either side). ``goodbye`` holds the server's Error map
    when it said why, else None."""

    def __init__(self, message: str, goodbye: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.goodbye = goodbye


class Client:
    """One connection to a Hong Wu host.

    Create with :meth:`connect`. Attributes: ``welcome`` (the ``hello`` result once
    accepted, else None), ``goodbye`` (the server's closing Error map, or None),
    ``notifications`` (``asyncio.Queue`` of ``(method, params)``), ``on_notification``
    (optional callback ``f(method, params)`` called in the event loop before queueing;
    when it returns True the notification is not queued).
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                 max_frame: int = framing.MAX_FRAME, queue_limit: int = 0,
                 keepalive: float | None = KEEPALIVE_S) -> None:
        self._reader = reader
        self._writer = writer
        self._decoder = framing.Decoder(max_frame)
        self.max_frame = max_frame
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self.notifications: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue(
            queue_limit)
        self.on_notification: Callable[[str, dict[str, Any]], Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.goodbye: dict[str, Any] | None = None
        self.closed = asyncio.Event()
        self._close_reason = "connection closed"
        self._task = asyncio.get_running_loop().create_task(self._read_loop())
        self.bytes_received = 0
        self._last_sent = asyncio.get_running_loop().time()
        self._keepalive = None
        if keepalive:
            self._keepalive = asyncio.get_running_loop().create_task(self._ping_loop(keepalive))

    # ------------------------------------------------------------------ opening
    @classmethod
    async def connect(cls, host: str, port: int, *, timeout: float = 5.0,
                      **kwargs: Any) -> "Client":
        """Open a TCP connection to ``host:port`` (seconds ``timeout``).

        Raises ``OSError``/``asyncio.TimeoutError`` when the host cannot be reached.
        """
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        return cls(reader, writer, **kwargs)

    async def hello(self, name: str, *, token: str | None = None, seat: int | None = None,
                    observer: bool = False, table: str | None = None,
                    host_key: str | None = None, timeout: float = 10.0,
                    protocol: int = PROTOCOL_VERSION, title: str | None = None) -> dict[str, Any]:
        """Send ``hello``; return the Welcome map (also kept as ``self.welcome``).

        ``protocol`` is the version to speak (default the newest; 1 gets a full ``view``
        after every change, PROTOCOL.md §12). ``title``: the player's title for the name
        plates (version 3 and later; at most ``protocol.TITLE_MAX`` characters).

        Raises :class:`RemoteError` (VERSION_MISMATCH, BAD_TOKEN, UNKNOWN_TABLE, ...) or
        :class:`ConnectionClosed`.
        """
        params: dict[str, Any] = {"protocol": protocol, "name": name,
                                  "client": CLIENT_NAME}
        if token is not None:
            params["token"] = token
        if seat is not None:
            params["seat"] = seat
        if observer:
            params["observer"] = True
        if table is not None:
            params["table"] = table
        if host_key is not None:
            params["host_key"] = host_key
        if title and protocol >= TITLES_SINCE:
            params["title"] = title[:TITLE_MAX]
        self.welcome = await self.call("hello", params, timeout=timeout)
        return self.welcome

    # ------------------------------------------------------------------ requests
    async def call(self, method: str, params: dict[str, Any] | None = None, *,
                   timeout: float = 10.0, **kw: Any) -> Any:
        """Send request ``method`` with ``params`` (a map; keyword arguments are merged in)
        and wait up to ``timeout`` seconds for its result.

        Raises :class:`RemoteError` for an error response, :class:`ConnectionClosed` if the
        connection ends first, ``asyncio.TimeoutError`` when no answer comes in time.
        """
        fut = self.send_request(method, {**(params or {}), **kw})
        return await asyncio.wait_for(fut, timeout)

    def send_request(self, method: str, params: dict[str, Any] | None = None
                     ) -> "asyncio.Future[Any]":
        """Write a request without waiting; return the future of its result."""
        if self.closed.is_set():
            raise ConnectionClosed(self._close_reason, self.goodbye)
        msgid = next(self._ids) & protocol.MAX_MSGID
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[msgid] = fut
        self.send_raw(framing.encode(protocol.request(msgid, method, params or {}),
                                     self.max_frame))
        return fut

    def send_raw(self, data: bytes) -> None:
        """Write raw bytes (already-encoded frames; tests use it for garbage)."""
        if not self._writer.is_closing():
            self._writer.write(data)
            self._last_sent = asyncio.get_running_loop().time()

    async def _ping_loop(self, interval: float) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self.closed.is_set():
                await asyncio.sleep(max(0.05, self._last_sent + interval - loop.time()))
                if self.closed.is_set():
                    return
                if loop.time() - self._last_sent >= interval:
                    try:
                        await self.call("ping", timeout=interval)
                    except Exception as exc:  # the read loop reports real failures
                        log.debug("keepalive ping failed: %r", exc)
        except asyncio.CancelledError:
            pass

    async def next_notification(self, timeout: float | None = 10.0
                                ) -> tuple[str, dict[str, Any]]:
        """The next queued notification ``(method, params)``; waits up to ``timeout`` s
        (None: until one arrives or the connection closes).

        Raises ``asyncio.TimeoutError``, or :class:`ConnectionClosed` when the connection is
        closed and nothing is queued.
        """
        if not self.notifications.empty():
            return self.notifications.get_nowait()
        if self.closed.is_set():
            raise ConnectionClosed(self._close_reason, self.goodbye)
        get = asyncio.ensure_future(self.notifications.get())
        closed = asyncio.ensure_future(self.closed.wait())
        try:
            done, _ = await asyncio.wait({get, closed}, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            closed.cancel()
            if not get.done():
                get.cancel()
        if get in done or (get.done() and not get.cancelled()):
            return get.result()
        if closed in done:
            raise ConnectionClosed(self._close_reason, self.goodbye)
        raise asyncio.TimeoutError("no notification in time")

    async def wait_for(self, predicate: Callable[[str, dict[str, Any]], bool],
                       timeout: float = 10.0) -> tuple[str, dict[str, Any]]:
        """Skip notifications until ``predicate(method, params)`` holds; return that one.

        Raises ``asyncio.TimeoutError`` after ``timeout`` seconds in all.
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            left = end - loop.time()
            if left <= 0:
                raise asyncio.TimeoutError("condition not met in time")
            method, params = await self.next_notification(left)
            if predicate(method, params):
                return method, params

    # ------------------------------------------------------------------ closing
    async def close(self, timeout: float = 2.0) -> None:
        """Close the connection (without ``bye``); waits up to ``timeout`` s for the reader."""
        if not self._writer.is_closing():
            self._writer.close()
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self._task.cancel()
        except Exception:  # pragma: no cover - the read loop never raises
            pass
        try:
            await asyncio.wait_for(self._writer.wait_closed(), timeout)
        except Exception:
            pass

    async def bye(self, timeout: float = 2.0) -> None:
        """Leave politely: ``bye``, then close. Never raises."""
        try:
            await self.call("bye", timeout=timeout)
        except Exception:
            pass
        await self.close(timeout)

    # ------------------------------------------------------------------ reading
    async def _read_loop(self) -> None:
        try:
            while True:
                data = await self._reader.read(65536)
                if not data:
                    break
                self.bytes_received += len(data)
                for doc in self._decoder.feed(data):
                    self._dispatch(doc)
        except framing.FrameError as exc:
            self._close_reason = f"server sent bad bytes: {exc}"
            log.warning("%s", self._close_reason)
        except (ConnectionError, OSError) as exc:
            self._close_reason = f"connection lost: {exc}"
        except asyncio.CancelledError:
            self._close_reason = "client closed"
        finally:
            self._finish()

    def _finish(self) -> None:
        self.closed.set()
        if self._keepalive is not None:
            self._keepalive.cancel()
        if self.goodbye is not None:
            self._close_reason = f"server closed: {self.goodbye.get('name')}: " \
                                 f"{self.goodbye.get('message')}"
        err = ConnectionClosed(self._close_reason, self.goodbye)
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(err)
                fut.exception()  # mark retrieved: callers may have given up on it
        self._pending.clear()
        if not self._writer.is_closing():
            self._writer.close()

    def _dispatch(self, doc: Any) -> None:
        try:
            msg = protocol.parse_message(doc)
        except protocol.ProtocolError as exc:
            log.warning("ignoring a bad message from the server: %s", exc)
            return
        if isinstance(msg, protocol.Response):
            fut = self._pending.pop(msg.msgid, None)
            if fut is None or fut.done():
                return
            if msg.error is not None:
                fut.set_exception(RemoteError(msg.error))
            else:
                fut.set_result(msg.result)
        elif isinstance(msg, protocol.Notification):
            if msg.method == "goodbye":
                self.goodbye = msg.params.get("error")
            if self.on_notification is not None:
                try:
                    if self.on_notification(msg.method, msg.params):
                        return
                except Exception:
                    log.exception("notification callback failed")
            try:
                self.notifications.put_nowait((msg.method, msg.params))
            except asyncio.QueueFull:
                log.warning("notification queue full: dropping %s", msg.method)
        else:
            log.warning("ignoring a request from the server")


# ============================================================================ reconnecting
@dataclass(frozen=True)
class Backoff:
    """When to try again after a lost connection (PROTOCOL.md section 10, "Reconnecting").

    Delays grow from ``first`` seconds by ``factor`` up to ``cap``; each is drawn uniformly
    from ``[d * (1 - jitter), d]`` so that the players of a table whose host restarted do not
    all knock in the same millisecond; no attempt starts after ``total`` seconds.

    >>> delays = Backoff(jitter=0).delays()
    >>> [round(next(delays), 2) for _ in range(6)]
    [0.25, 0.5, 1.0, 2.0, 4.0, 5.0]
    """

    first: float = 0.25
    factor: float = 2.0
    cap: float = 5.0
    jitter: float = 0.5
    total: float = 120.0

    def delays(self, rng: random.Random | None = None) -> Iterator[float]:
        """The delays before attempts 1, 2, ... (seconds; endless: the caller stops at
        ``total``)."""
        rng = rng or random.Random()
        d = self.first
        while True:
            yield d * (1.0 - self.jitter * rng.random())
            d = min(self.cap, d * self.factor)


#: goodbye codes after which a client must not reconnect by itself: its seat went to another
#: connection (REPLACED), it left (LEAVING), or it cannot talk to this host (VERSION_MISMATCH).
NO_RECONNECT = frozenset({ErrorCode.REPLACED, ErrorCode.LEAVING, ErrorCode.VERSION_MISMATCH})


def should_reconnect(goodbye: dict[str, Any] | None, *, after_shutdown: bool = False) -> bool:
    """Whether a client whose connection ended with ``goodbye`` (None: no goodbye, e.g. the
    host process died) should reconnect: always without a goodbye; never after the codes of
    :data:`NO_RECONNECT`; after ``SHUTDOWN`` (the host closed the table) only when
    ``after_shutdown``."""
    if not goodbye:
        return True
    code = goodbye.get("code")
    if code in NO_RECONNECT:
        return False
    if code == ErrorCode.SHUTDOWN:
        return after_shutdown
    return True


#: error answers to a reconnecting ``hello`` that are tried again: the host is full (its
#: places kept for reconnects taken too) or stopping, or the client knocked too often.
RETRY_ERRORS = frozenset({"SHUTDOWN", "RATE_LIMITED"})


async def reconnect(host: str, port: int, name: str, *, token: str | None,
                    backoff: Backoff = Backoff(), timeout: float = 5.0,
                    on_attempt: Callable[[int, float, BaseException | None], Any] | None = None,
                    **hello: Any) -> Client:
    """Connect to ``host:port`` again and say ``hello`` with ``token`` (a seated player) or
    without (an observer), retrying with ``backoff`` while the host cannot be reached (it may
    be restarting: ``hongwu host --resume``). Returns the connected client; its Welcome
    carries the token to keep from now on (a host that restarted gives a new one).

    ``on_attempt(attempt, delay, error)`` is called before each wait (attempt counts from 1,
    ``error`` is what the previous attempt met) so the caller can log it; ``hello`` keyword
    arguments go to :meth:`Client.hello`. Raises :class:`RemoteError` when the host refuses
    the hello (e.g. BAD_TOKEN: the seat is not ours any more; the answers of
    :data:`RETRY_ERRORS` are retried), ``ConnectionError`` after
    ``backoff.total`` seconds without success.
    """
    loop = asyncio.get_running_loop()
    end = loop.time() + backoff.total
    error: BaseException | None = None
    for attempt, delay in enumerate(backoff.delays(), 1):
        delay = min(delay, max(0.0, end - loop.time()))
        if on_attempt is not None:
            on_attempt(attempt, delay, error)
        log.info("reconnect attempt %d to %s:%d in %.2f s (last: %r)", attempt, host, port,
                 delay, error)
        await asyncio.sleep(delay)
        try:
            client = await Client.connect(host, port, timeout=timeout)
        except (OSError, asyncio.TimeoutError) as exc:
            error = exc
        else:
            try:
                await client.hello(name, token=token, timeout=timeout, **hello)
                return client
            except RemoteError as exc:
                await client.close()
                if exc.name not in RETRY_ERRORS:
                    raise
                error = exc
            except (ConnectionClosed, OSError, asyncio.TimeoutError) as exc:
                error = exc
                await client.close()
        if loop.time() >= end:
            break
    raise ConnectionError(f"could not reconnect to {host}:{port} within {backoff.total:g} s"
                          f" (last error: {error!r})")
