"""What went wrong with an AI plugin, counted per AI for a whole run, and told once.

A **fault** is one thing a plugin did wrong (PLUGINS.md "Safety rules"): a hook raised
(``exception``), answered late (``timeout``), was still busy with an earlier decision
(``busy``), answered something of the wrong type (``malformed``) or against the rules
(``illegal``), or the engine refused its action (``rejected``); a factory that fails is a
``factory`` fault (or ``timeout``). Each fault costs the AI that decision: the stand-in
``basic`` AI takes it. A decision is also **lost** when the seat no longer asks its AI at all:
after ``max_faults`` faults of one seat (``disabled``), or once the AI is **dropped** for the
rest of the run (``dropped``). Returning ``None`` is never a fault and never lost: it asks
``basic`` on purpose.

:class:`FaultLedger` is shared by every seat of one run (a ``hongwu play`` session, an arena
worker's batch of deals). It drops an AI after :data:`DROP_AFTER_TIMEOUTS` time-outs or
:data:`DROP_AFTER_FAULTS` faults of any kind, counted over all its seats and hands, so that a
hanging plugin is not rebuilt into the same time-out every hand. It also decides how loudly a
fault is logged (logger ``ai_plugins.runner``): ``loud`` (the game) logs the first fault of
each kind per AI and the drop as warnings and the rest at DEBUG; quiet (the arena) logs them
all at DEBUG and prints :func:`format_fault_summary` at the end instead. Every fault's
traceback goes to the DEBUG log.
"""
from __future__ import annotations

import logging
import threading
import traceback
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

log = logging.getLogger("ai_plugins.runner")

DROP_AFTER_TIMEOUTS = 3
"""Time-outs (of the factory or a decision, all seats together) after which an AI is dropped
for the rest of the run."""

DROP_AFTER_FAULTS = 20
"""Faults of any kind (all seats together) after which an AI is dropped for the rest of the run."""

STUCK_PREFIX = "hongwu-ai-stuck:"
"""Name given to a decision thread still running when its seat closed (then ``AI``'s name)."""

LOST_KINDS = ("exception", "timeout", "busy", "malformed", "illegal", "rejected", "factory",
              "disabled", "dropped")
"""Every reason a decision can be lost to the stand-in, in the order summaries list them."""


@dataclass(frozen=True)
class Fault:
    """One decision (or set-up) an AI lost to the fallback.

    Attributes: ``seat`` (0..n-1), ``ai`` (name), ``phase`` (the engine phase name, e.g.
    ``"PLAY"``, or ``"SETUP"`` for the factory), ``kind`` (see the module docstring),
    ``reason`` (text for people; for an exception it ends with ``at FILE:LINE in FUNC``, the
    innermost frame), ``traceback`` (the formatted traceback for an exception, else ``""``).
    """

    seat: int
    ai: str
    phase: str
    kind: str
    reason: str
    traceback: str = ""


def describe_exception(exc: BaseException) -> tuple[str, str]:
    """``("ValueError: boom at /path/bot.py:12 in choose_play", full traceback text)``.

    Safe against a hostile exception: anything its ``__str__`` raises is replaced by a
    placeholder. Called in the worker thread that ran the plugin, so that a slow ``__str__``
    is under the time budget too.
    """
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - a plugin's exception may raise anything
        text = "<exception text could not be shown>"
    name = type(exc).__name__
    where = ""
    try:
        frames = traceback.extract_tb(exc.__traceback__)
        if frames:
            last = frames[-1]
            where = f" at {last.filename}:{last.lineno} in {last.name}"
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    except BaseException:  # noqa: BLE001
        tb = ""
    reason = f"{name}: {text}" if text else name
    if len(reason) > 500:
        reason = reason[:497] + "..."
    return reason + where, tb


class FaultLedger:
    """Faults and lost decisions of every AI in one run; decides when an AI is dropped.

    Arguments: ``loud`` (see the module docstring), ``drop_after_timeouts``,
    ``drop_after_faults`` (ints >= 1; the defaults are :data:`DROP_AFTER_TIMEOUTS` and
    :data:`DROP_AFTER_FAULTS`).

    Thread-safe (the game runs seats on worker threads).
    """

    def __init__(self, *, loud: bool = True, drop_after_timeouts: int = DROP_AFTER_TIMEOUTS,
                 drop_after_faults: int = DROP_AFTER_FAULTS) -> None:
        self.loud = loud
        self.drop_after_timeouts = max(1, int(drop_after_timeouts))
        self.drop_after_faults = max(1, int(drop_after_faults))
        self._lock = threading.Lock()
        self.faults: Counter[str] = Counter()        # ai -> fault events
        self.timeouts: Counter[str] = Counter()      # ai -> time-outs
        self.lost: dict[str, Counter[str]] = {}      # ai -> kind -> decisions lost
        self.dropped: dict[str, str] = {}            # ai -> why
        self.first: dict[tuple[str, str], Fault] = {}  # (ai, kind) -> first fault
        self._stuck: dict[str, list[threading.Thread]] = {}
        self.printed_lines: Counter[str] = Counter()  # ai -> lines of output captured

    # -- recording --------------------------------------------------------------------------
    def record(self, fault: Fault) -> bool:
        """Count ``fault`` and log it; True when it is the first of its kind for its AI.
        Drops the AI (logged) when a threshold is reached."""
        with self._lock:
            self.faults[fault.ai] += 1
            if fault.kind == "timeout":
                self.timeouts[fault.ai] += 1
            first = (fault.ai, fault.kind) not in self.first
            if first:
                self.first[(fault.ai, fault.kind)] = fault
            drop = None
            if fault.ai not in self.dropped:
                if self.timeouts[fault.ai] >= self.drop_after_timeouts:
                    drop = f"{self.timeouts[fault.ai]} time-outs"
                elif self.faults[fault.ai] >= self.drop_after_faults:
                    drop = f"{self.faults[fault.ai]} faults"
                if drop:
                    self.dropped[fault.ai] = drop
        level = logging.WARNING if (self.loud and first) else logging.DEBUG
        log.log(level, "AI %r (seat %d) %s in %s: %s; the basic AI takes this decision",
                fault.ai, fault.seat, fault.kind, fault.phase, fault.reason)
        if fault.traceback:
            log.debug("AI %r (seat %d) traceback:\n%s", fault.ai, fault.seat,
                      fault.traceback.rstrip())
        if drop:
            log.log(logging.WARNING if self.loud else logging.DEBUG,
                    "AI %r dropped for the rest of this run after %s: the basic AI plays its "
                    "seats", fault.ai, drop)
        return first

    def lose(self, ai: str, kind: str) -> None:
        """Count one decision of ``ai`` taken by the stand-in because of ``kind``."""
        with self._lock:
            self.lost.setdefault(ai, Counter())[kind] += 1

    def printed(self, ai: str, lines: int) -> None:
        """Count ``lines`` lines of output that ``ai`` printed (captured, see
        :mod:`ai_plugins.capture`)."""
        with self._lock:
            self.printed_lines[ai] += lines

    def is_dropped(self, ai: str) -> str | None:
        """Why ``ai`` was dropped for the rest of the run, or None."""
        return self.dropped.get(ai)

    def left_running(self, ai: str, thread: threading.Thread) -> None:
        """Note a decision thread of ``ai`` that was still running when its seat closed; it is
        renamed ``hongwu-ai-stuck:AI`` so that a later run in this process can find it
        (:meth:`adopt_running_threads`)."""
        with self._lock:
            self._stuck.setdefault(ai, []).append(thread)
        try:
            thread.name = f"{STUCK_PREFIX}{ai}"
        except Exception:  # pragma: no cover - a thread object that refuses a name
            pass

    def adopt_running_threads(self) -> dict[str, int]:
        """Count decision threads that earlier runs in this process left running (renamed
        by :meth:`left_running`; threads of runs still going are not touched) as time-outs of
        their AI, so that a new run (an arena worker's next batch) drops at once an AI whose
        threads never stopped, instead of leaking three more. Returns ``{ai: threads}``."""
        found: dict[str, int] = {}
        for t in threading.enumerate():
            name = t.name
            if t.is_alive() and name.startswith(STUCK_PREFIX):
                ai = name[len(STUCK_PREFIX):]
                found[ai] = found.get(ai, 0) + 1
                with self._lock:
                    self._stuck.setdefault(ai, []).append(t)
        for ai, n in found.items():
            with self._lock:
                self.timeouts[ai] += n
                if self.timeouts[ai] >= self.drop_after_timeouts and ai not in self.dropped:
                    self.dropped[ai] = (f"{self.timeouts[ai]} time-outs (threads of earlier "
                                        f"deals still running)")
        return found

    def threads_running(self, ai: str) -> int:
        """How many noted threads of ``ai`` are still alive now."""
        with self._lock:
            return sum(t.is_alive() for t in self._stuck.get(ai, ()))

    # -- reporting ----------------------------------------------------------------------------
    def as_dict(self) -> dict[str, dict[str, Any]]:
        """``{ai: {"lost": {kind: n}, "faults": n, "dropped": why or None, "threads_running":
        n, "first": {kind: {"reason", "traceback"}}}}`` for every AI with faults (picklable)."""
        ais = set(self.lost) | set(self.faults) | set(self.dropped) | set(self.printed_lines)
        out: dict[str, dict[str, Any]] = {}
        for ai in sorted(ais):
            out[ai] = {
                "lost": dict(self.lost.get(ai, {})),
                "faults": self.faults.get(ai, 0),
                "dropped": self.dropped.get(ai),
                "threads_running": self.threads_running(ai),
                "printed": self.printed_lines.get(ai, 0),
                "first": {k: {"reason": f.reason, "traceback": f.traceback}
                          for (a, k), f in self.first.items() if a == ai},
            }
        return out


def merge_reports(reports: Iterable[Mapping[str, Mapping[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Add up :meth:`FaultLedger.as_dict` reports (one per arena worker batch): counts are
    summed, ``dropped`` becomes the number of batches that dropped the AI, the first reason of
    each kind is kept."""
    out: dict[str, dict[str, Any]] = {}
    for report in reports:
        for ai, r in report.items():
            o = out.setdefault(ai, {"lost": {}, "faults": 0, "dropped": 0, "dropped_why": None,
                                    "threads_running": 0, "printed": 0, "first": {}})
            for kind, n in r.get("lost", {}).items():
                o["lost"][kind] = o["lost"].get(kind, 0) + n
            o["faults"] += r.get("faults", 0)
            if r.get("dropped"):
                o["dropped"] += 1
                o["dropped_why"] = o["dropped_why"] or r["dropped"]
            o["threads_running"] += r.get("threads_running", 0)
            o["printed"] += r.get("printed", 0)
            for kind, first in r.get("first", {}).items():
                o["first"].setdefault(kind, first)
    return out


def format_fault_summary(merged: Mapping[str, Mapping[str, Any]], labels: Mapping[str, str] | None = None,
                         *, verbose: bool = False) -> list[str]:
    """One block of lines telling, per AI, the decisions it lost and why (the first reason of
    each kind), whether it was dropped, and decision threads left running. ``labels`` maps AI
    names to the names shown (default: the names). With ``verbose`` each kind's first
    traceback follows. Empty when no AI lost anything."""
    lines: list[str] = []
    for ai, r in merged.items():
        lost = r.get("lost", {})
        total = sum(lost.values())
        printed = r.get("printed", 0)
        if not total and not r.get("faults") and not printed:
            continue
        name = (labels or {}).get(ai, ai)
        if not total and not r.get("faults"):
            lines.append(f"AI {name}: no decision lost; printed {printed} lines (captured: "
                         f"-v shows some, --plugin-log FILE keeps them)")
            continue
        lines.append(f"AI {name}: {total} decision{'s' if total != 1 else ''} lost to the basic AI"
                     f" ({r.get('faults', 0)} fault{'s' if r.get('faults', 0) != 1 else ''})")
        kinds = sorted(set(lost) | set(r.get("first", {})),
                       key=lambda k: LOST_KINDS.index(k) if k in LOST_KINDS else 99)
        for kind in kinds:
            first = r.get("first", {}).get(kind)
            why = f"; first: {first['reason']}" if first else ""
            lines.append(f"  {kind}: {lost.get(kind, 0)}{why}")
            if verbose and first and first.get("traceback"):
                lines.extend("    " + t for t in first["traceback"].rstrip().splitlines())
        dropped = r.get("dropped")
        if dropped:
            why = r.get("dropped_why") or dropped
            lines.append(f"  dropped for the rest of the run after {why}"
                         + (f" (in {dropped} worker batches)" if isinstance(dropped, int)
                            and dropped > 1 else ""))
        if printed:
            lines.append(f"  printed {printed} lines (captured: -v shows some, --plugin-log "
                         f"FILE keeps them)")
        if r.get("threads_running"):
            n = r["threads_running"]
            lines.append(f"  {n} decision thread{'s' if n != 1 else ''} still running after "
                         f"{'their hands' if n != 1 else 'its hand'} (daemon threads blocked in C "
                         f"code or ignoring AIAbandoned; they end with the process)")
    if lines and not verbose:
        lines.append("(tracebacks: -v; every fault: --debug)")
    return lines


__all__ = ["DROP_AFTER_FAULTS", "DROP_AFTER_TIMEOUTS", "Fault", "FaultLedger", "LOST_KINDS",
           "describe_exception", "format_fault_summary", "merge_reports"]
