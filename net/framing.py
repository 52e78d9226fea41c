"""Byte stream <-> msgpack documents.

The wire is a plain stream of msgpack documents written back to back, exactly as
msgpack-RPC (Neovim, pynvim) does: every document is self-delimiting, so there is no length
prefix. Each document is one message (see :mod:`net.protocol`). A document may be at most
:data:`MAX_FRAME` bytes long once encoded; a peer that sends a longer one, or bytes that are not
msgpack, cannot be resynchronised and is disconnected.

>>> d = Decoder()
>>> d.feed(encode([2, "ping", {}]) + encode([0, 1, "snapshot", {}])[:3])
[[2, 'ping', {}]]
>>> d.feed(encode([0, 1, "snapshot", {}])[3:])
[[0, 1, 'snapshot', {}]]
"""
from __future__ import annotations

import logging
from typing import Any

import msgpack

log = logging.getLogger(__name__)

MAX_FRAME = 64 * 1024
"""Largest encoded document accepted or sent, in bytes (64 KiB)."""


class FrameError(Exception):
    """A byte stream that cannot be decoded any further; the connection must be closed.

    ``code`` is the protocol error code (see ``net.protocol.ErrorCode``) to report.
    """

    code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class FrameTooLarge(FrameError):
    """A document (complete or still arriving) is longer than the frame limit."""

    code = 30


class FrameCorrupt(FrameError):
    """The bytes are not valid msgpack (or nest too deep, or use non-string map keys...)."""

    code = 31


def encode(message: Any, max_frame: int = MAX_FRAME) -> bytes:
    """Encode one message (lists, maps with str keys, str, int, bool, None, float) as msgpack.

    Returns the bytes to write. Raises :class:`FrameTooLarge` if the encoding is longer than
    ``max_frame`` bytes and ``TypeError`` for values msgpack cannot represent.
    """
    data = msgpack.packb(message, use_bin_type=True)
    if len(data) > max_frame:
        raise FrameTooLarge(f"outgoing frame of {len(data)} bytes exceeds {max_frame}")
    return data


_DECODE_ERRORS = {
    "FormatError": "not msgpack (a byte that starts no msgpack value, such as 0xc1)",
    "StackError": "nested too deeply",
}


def describe_decode_error(exc: BaseException) -> str:
    """``"TypeName: what went wrong"`` for an exception msgpack raised on bad input.

    msgpack raises some errors (``FormatError``, ``StackError``) without a message; they get
    a short description, so a goodbye reason never ends empty.

    >>> describe_decode_error(msgpack.FormatError())
    'FormatError: not msgpack (a byte that starts no msgpack value, such as 0xc1)'
    >>> describe_decode_error(ValueError("int is not allowed for map key"))
    'ValueError: int is not allowed for map key'
    """
    name = type(exc).__name__
    text = str(exc).strip()
    if not text:
        doc = (type(exc).__doc__ or "").strip().splitlines()
        text = _DECODE_ERRORS.get(name) or (doc[0].rstrip(".") if doc else "no details")
    return f"{name}: {text}"


class Decoder:
    """Incremental decoder: feed it received bytes, get back the complete documents.

    ``max_frame`` bounds every document (bytes). Memory use is bounded by about twice that,
    whatever the peer sends. Strings are decoded as UTF-8 ``str``, arrays as ``list``; map keys
    must be strings; msgpack extension types come back as ``msgpack.ExtType`` (which the
    protocol layer then rejects as a wrong type).
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._unpacker = msgpack.Unpacker(
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_buffer_size=2 * max_frame + 64,
            max_str_len=max_frame,
            max_bin_len=max_frame,
            max_array_len=max_frame,
            max_map_len=max_frame,
            max_ext_len=max_frame,
            timestamp=0,
        )
        self._fed = 0  # total bytes fed
        self._done = 0  # stream offset just past the last complete document
        self.broken: FrameError | None = None

    @property
    def pending(self) -> int:
        """Bytes received that are not yet part of a complete document."""
        return self._fed - self._done

    def feed(self, data: bytes) -> list[Any]:
        """Add received ``data``; return every document completed by it, in order.

        Raises :class:`FrameTooLarge` or :class:`FrameCorrupt` (after which the decoder stays
        broken and raises the same error on every call). Documents completed before the bad
        bytes in the same call are lost with it: the connection is closing anyway.
        """
        if self.broken is not None:
            raise self.broken
        out: list[Any] = []
        try:
            view = memoryview(data)
            for start in range(0, len(view), self.max_frame):
                chunk = view[start:start + self.max_frame]
                self._unpacker.feed(chunk)
                self._fed += len(chunk)
                self._drain(out)
                if self.pending > self.max_frame:
                    raise FrameTooLarge(
                        f"incoming frame longer than {self.max_frame} bytes"
                    )
        except FrameError as exc:
            self.broken = exc
            raise
        except Exception as exc:  # msgpack raises several types for bad input
            if "exceeds max" in str(exc) or isinstance(exc, msgpack.BufferFull):
                self.broken = FrameTooLarge(f"incoming frame too large: {exc}")
            else:
                self.broken = FrameCorrupt(
                    f"undecodable bytes in the document at offset {self._done}: "
                    f"{describe_decode_error(exc)}")
            raise self.broken from None
        return out

    def _drain(self, out: list[Any]) -> None:
        while True:
            try:
                obj = self._unpacker.unpack()
            except msgpack.OutOfData:
                return
            end = self._unpacker.tell()
            size = end - self._done
            self._done = end
            if size > self.max_frame:
                raise FrameTooLarge(f"incoming frame of {size} bytes exceeds {self.max_frame}")
            out.append(obj)
