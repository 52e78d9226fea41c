"""Keeping what AI plugins print out of the program's own output.

``hongwu play`` prints one result line per hand and ``hongwu arena`` a table (and ``--json``);
a plugin that calls ``print`` (or writes to ``sys.stdout``/``sys.stderr``) must not end up in
them. :func:`capture_output` replaces ``sys.stdout`` and ``sys.stderr`` with routers for the
time of a run: what the thread that installed them (the main thread) writes passes through;
what a plugin writes goes to the ``logging`` log instead, under the logger
``hongwu.ai.<AI name>``:

- from a decision or factory worker thread (:func:`attributed`, used by the runner), and from
  any thread started while that decision was running (the plugin's own threads, also after the
  decision ended);
- from the main thread while a plugin is being imported or registered (discovery).

Other threads' writes are logged under ``hongwu.ai`` (not attributable to one plugin).

**Limits**, so that a plugin printing without end cannot flood anything (:class:`OutputSink`):
per seat and hand the first :data:`INFO_LINES_PER_HAND` lines are logged at INFO, the next
ones up to :data:`KEPT_LINES_PER_HAND` at DEBUG, and the rest only counted (one INFO line
per hand says how many were dropped); over a whole run at most :data:`INFO_LINES_PER_RUN` INFO
lines per AI (then DEBUG). Lines are cut to :data:`LINE_CHARS` characters. The fault ledger
counts every line, so the arena's summary says how much each AI printed.

Not captured: writes to the file descriptors themselves (``os.write(1, ...)``,
``sys.__stdout__``, C extensions): only Python-level ``sys.stdout``/``sys.stderr``.

:func:`configure_logging` sets up the console log (``-v`` INFO, ``--debug`` DEBUG, default
WARNING) and ``--plugin-log FILE``, which receives every kept line of plugin output (and the
``ai_plugins`` fault records) at DEBUG whatever the console level.
"""
from __future__ import annotations

import contextlib
import io
import logging
import sys
import threading
from typing import Any, Iterator

INFO_LINES_PER_HAND = 20
"""Plugin output lines per seat and hand logged at INFO (shown with ``-v``)."""

KEPT_LINES_PER_HAND = 1000
"""Plugin output lines per seat and hand kept at all (INFO, then DEBUG); the rest are counted."""

INFO_LINES_PER_RUN = 200
"""INFO lines of plugin output per AI and run (process), after which lines go to DEBUG only."""

LINE_CHARS = 500
"""Characters kept of one output line (longer lines are cut, ``...`` added)."""

PLUGIN_LOGGER = "hongwu.ai"
"""Parent logger of every plugin's output logger (``hongwu.ai.<name>``)."""


class OutputSink:
    """Where the output of one seat's plugin goes: the logger ``hongwu.ai.<name>``, limited.

    ``name``: the AI's name; ``ledger``: a :class:`~ai_plugins.faults.FaultLedger`-like object
    with ``printed(name, lines)`` (or None); ``router``: the :class:`_Router` whose run-wide
    quota applies (or None). Thread-safe. :meth:`end_hand` closes a hand's counts.
    """

    def __init__(self, name: str, ledger: Any = None, router: Any = None) -> None:
        self.name = name
        self.logger = logging.getLogger(f"{PLUGIN_LOGGER}.{name}")
        self.ledger = ledger
        self._router = router
        self._lock = threading.Lock()
        self._partial = {"stdout": "", "stderr": ""}
        self.hand_lines = 0
        self.dropped = 0
        self.total_lines = 0
        self._hand: Any = None

    def begin_hand(self, hand: Any) -> None:
        """Start counting for ``hand`` (any label, e.g. the view's ``hand_no``); a new label
        ends the previous hand first."""
        if hand != self._hand:
            if self._hand is not None:
                self.end_hand()
            self._hand = hand

    def write(self, stream: str, text: str) -> None:
        """Take ``text`` written to ``stream`` (``"stdout"``/``"stderr"``); whole lines are
        logged, a partial line waits for its end."""
        lines: list[str] = []
        with self._lock:
            buf = self._partial.get(stream, "") + text
            if "\n" in buf:
                *lines, buf = buf.split("\n")
            if len(buf) > LINE_CHARS * 4:  # a line without end: cut it here
                lines.append(buf)
                buf = ""
            self._partial[stream] = buf
        for line in lines:
            self._emit(stream, line)

    def _emit(self, stream: str, line: str) -> None:
        with self._lock:
            self.hand_lines += 1
            self.total_lines += 1
            n = self.hand_lines
            if n > KEPT_LINES_PER_HAND:
                self.dropped += 1
                level = None
            elif n <= INFO_LINES_PER_HAND and (self._router is None
                                               or self._router.take_quota(self.name)):
                level = logging.INFO
            else:
                level = logging.DEBUG
        if self.ledger is not None:
            self.ledger.printed(self.name, 1)
        if level is not None and self.logger.isEnabledFor(level):
            if len(line) > LINE_CHARS:
                line = line[:LINE_CHARS - 3] + "..."
            self.logger.log(level, "[%s] %s", stream, line)

    def end_hand(self) -> None:
        """Log what is left of a partial line and how many lines were dropped this hand;
        reset the hand's counts."""
        with self._lock:
            rest = [(s, t) for s, t in self._partial.items() if t]
            self._partial = {"stdout": "", "stderr": ""}
        for stream, text in rest:
            self._emit(stream, text)
        with self._lock:
            dropped, self.dropped, self.hand_lines = self.dropped, 0, 0
        if dropped:
            self.logger.info("%d more lines of output were dropped this hand (limit %d per "
                             "hand)", dropped, KEPT_LINES_PER_HAND)


class _Router(io.TextIOBase):
    """A stand-in for ``sys.stdout``/``sys.stderr``: the owner thread's writes go to the real
    stream, a plugin's to its :class:`OutputSink` (see the module docstring)."""

    def __init__(self, real: Any, stream: str, state: "_State") -> None:
        super().__init__()
        self.real = real
        self.stream = stream
        self._state = state

    # io plumbing: behave like the real stream for everyone else
    def writable(self) -> bool:  # noqa: D102
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]  # noqa: D102
        return getattr(self.real, "encoding", "utf-8")

    @property
    def errors(self) -> str | None:  # type: ignore[override]  # noqa: D102
        return getattr(self.real, "errors", None)

    def isatty(self) -> bool:  # noqa: D102
        try:
            return bool(self.real.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def fileno(self) -> int:  # noqa: D102
        return self.real.fileno()

    def flush(self) -> None:  # noqa: D102
        if threading.get_ident() == self._state.owner or self._state.sink_here() is None:
            try:
                self.real.flush()
            except (AttributeError, ValueError, OSError):
                pass

    def write(self, text: str) -> int:  # type: ignore[override]
        """Route ``text``; returns ``len(text)`` as a stream does."""
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        state = self._state
        if getattr(state.local, "routing", False):  # a log handler writing back to us
            return self.real.write(text)
        sink = state.sink_here()
        if sink is None:
            return self.real.write(text)
        state.local.routing = True
        try:
            sink.write(self.stream, text)
        finally:
            state.local.routing = False
        return len(text)


class _State:
    """What the routers of one :func:`capture_output` share: the owner thread, the sinks of
    running decisions and of the threads they started, the run-wide INFO quota per AI."""

    def __init__(self) -> None:
        self.owner = threading.get_ident()
        self.local = threading.local()
        self.lock = threading.Lock()
        self.inflight: dict[int, tuple[OutputSink, frozenset[int]]] = {}
        self.children: dict[int, OutputSink] = {}
        self.quota: dict[str, int] = {}
        self.unattributed = OutputSink("?")
        self.unattributed.logger = logging.getLogger(PLUGIN_LOGGER)

    def take_quota(self, name: str) -> bool:
        with self.lock:
            used = self.quota.get(name, 0)
            if used >= INFO_LINES_PER_RUN:
                return False
            self.quota[name] = used + 1
            return True

    def sink_here(self) -> OutputSink | None:
        """The sink for a write from the current thread, or None to pass it through."""
        sink = getattr(self.local, "sink", None)
        if sink is not None:
            return sink
        ident = threading.get_ident()
        if ident == self.owner:
            return None
        with self.lock:
            sink = self.children.get(ident)
            if sink is None:
                for worker, (s, before) in self.inflight.items():
                    if ident not in before and ident != worker:
                        sink = self.children[ident] = s
                        break
        return sink if sink is not None else self.unattributed


def _current_state() -> _State | None:
    out = sys.stdout
    return out._state if isinstance(out, _Router) else None  # noqa: SLF001


def active() -> bool:
    """True while :func:`capture_output` is in force."""
    return _current_state() is not None


def sink_for(name: str, ledger: Any = None) -> OutputSink | None:
    """A new :class:`OutputSink` for AI ``name`` under the current capture, or None when
    output is not being captured."""
    state = _current_state()
    if state is None:
        return None
    sink = OutputSink(name, ledger, state)
    return sink


@contextlib.contextmanager
def attributed(sink: OutputSink | None) -> Iterator[None]:
    """While the block runs, what the current thread prints goes to ``sink``, and so does
    what any thread started meanwhile prints (then and later). No-op for ``sink=None`` or
    when output is not captured."""
    state = _current_state()
    if sink is None or state is None:
        yield
        return
    ident = threading.get_ident()
    previous = getattr(state.local, "sink", None)
    state.local.sink = sink
    before = frozenset(t.ident for t in threading.enumerate() if t.ident is not None)
    with state.lock:
        state.inflight[ident] = (sink, before)
    try:
        yield
    finally:
        state.local.sink = previous
        with state.lock:
            state.inflight.pop(ident, None)
            alive = {t.ident for t in threading.enumerate()}
            for dead in [i for i in state.children if i not in alive]:
                del state.children[dead]


@contextlib.contextmanager
def capture_output() -> Iterator[None]:
    """Route plugins' ``sys.stdout``/``sys.stderr`` writes to the log for the block (see the
    module docstring). Nested use keeps the outer capture. The real streams are restored after."""
    if _current_state() is not None:
        yield
        return
    state = _State()
    real_out, real_err = sys.stdout, sys.stderr
    sys.stdout = _Router(real_out, "stdout", state)
    sys.stderr = _Router(real_err, "stderr", state)
    try:
        yield
    finally:
        if isinstance(sys.stdout, _Router) and sys.stdout._state is state:  # noqa: SLF001
            sys.stdout = real_out
        if isinstance(sys.stderr, _Router) and sys.stderr._state is state:  # noqa: SLF001
            sys.stderr = real_err


def real_stream(stream: Any) -> Any:
    """The stream behind a router (or ``stream`` itself)."""
    return stream.real if isinstance(stream, _Router) else stream


# -- command-line options and logging set-up --------------------------------------------------
def add_output_options(parser: Any) -> None:
    """Add ``-v/--verbose``, ``--debug`` and ``--plugin-log FILE`` to an argparse parser."""
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="more detail on AI plugins: tracebacks of their faults (file and "
                             "line), and their printed output (limited) in the log")
    parser.add_argument("--debug", action="store_true",
                        help="log everything at DEBUG level, every AI fault with its traceback")
    parser.add_argument("--plugin-log", metavar="FILE", default=None,
                        help="append AI plugins' printed output and fault details to FILE")


def log_level(ns: Any, default: str = "WARNING") -> int:
    """The console log level for parsed options: DEBUG with ``--debug``, INFO with ``-v``,
    else ``default`` (a level name, e.g. from ``HONGWU_LOG``)."""
    if getattr(ns, "debug", False):
        return logging.DEBUG
    if getattr(ns, "verbose", False):
        return logging.INFO
    return logging.getLevelName(str(default).upper()) if isinstance(default, str) else int(default)


def configure_logging(level: int, plugin_log: str | None = None, *,
                      stream: Any = None) -> None:
    """Console logging at ``level`` on ``stream`` (default the real standard error) and, with
    ``plugin_log``, a file receiving the ``hongwu.ai`` (plugin output) and ``ai_plugins``
    (faults) records at DEBUG. Safe to call again (handlers it added before are replaced).
    Raises OSError when the file cannot be opened."""
    root = logging.getLogger()
    for h in list(root.handlers):
        if getattr(h, "_hongwu", False):
            root.removeHandler(h)
    console_stream = real_stream(stream if stream is not None else sys.stderr)
    if not [h for h in root.handlers if not getattr(h, "_hongwu", False)]:
        console = logging.StreamHandler(console_stream)
        console.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        console.setLevel(level)
        console._hongwu = True  # type: ignore[attr-defined]
        root.addHandler(console)
    root.setLevel(level)
    for name in (PLUGIN_LOGGER, "ai_plugins"):
        lg = logging.getLogger(name)
        for h in list(lg.handlers):
            if getattr(h, "_hongwu", False):
                lg.removeHandler(h)
                h.close()
        lg.setLevel(logging.NOTSET)
    if plugin_log:
        fh = logging.FileHandler(plugin_log, mode="a", encoding="utf-8")
        fh.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s: "
                                          "%(message)s"))
        fh.setLevel(logging.DEBUG)
        fh._hongwu = True  # type: ignore[attr-defined]
        for name in (PLUGIN_LOGGER, "ai_plugins"):
            lg = logging.getLogger(name)
            lg.setLevel(logging.DEBUG)
            lg.addHandler(fh)


__all__ = ["INFO_LINES_PER_HAND", "INFO_LINES_PER_RUN", "KEPT_LINES_PER_HAND", "LINE_CHARS",
           "OutputSink", "active", "add_output_options", "attributed", "capture_output",
           "configure_logging", "log_level", "real_stream", "sink_for"]
