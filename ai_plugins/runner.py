"""Running AI decisions safely: time budget, validation, fallback to the ``basic`` AI.

:func:`make_player` turns an AI name into a :class:`SafePlayer` whose :meth:`SafePlayer.act`
maps a :class:`engine.state.PlayerView` to an engine action and **never raises**:

- the AI's decision hook runs in a daemon worker thread and is given ``budget_s`` seconds
  (default 2.0); past that the decision is taken by the built-in ``basic`` AI;
- an answer is checked against the view before it is used (a bid among the legal amounts or
  a pass, one of the four suits, exactly ``bury_count`` cards of the hand, a play that
  ``PlayOptions.is_legal`` accepts); an illegal or malformed answer, or an exception, also
  hands the decision to ``basic``;
- the hook is given a private copy of the view and of the options
  (:func:`ai_plugins.isolation.private_args`): whatever it does to them, the engine's view, the
  stand-in and the other seats never see it; its answer is reduced to plain values (ints,
  strings, :class:`~engine.cards.Card`) in the worker thread, under the budget, before the
  seat looks at it;
- every such fault is kept in :attr:`SafePlayer.faults` and counted by the run's
  :class:`~ai_plugins.faults.FaultLedger` (which logs it, logger ``ai_plugins.runner``, with
  file and line of an exception and its traceback at DEBUG); after ``max_faults`` faults the
  seat is switched to ``basic`` for good, and after the ledger's thresholds the AI is dropped
  for the rest of the run (:mod:`ai_plugins.faults`);
- a worker that is still running after its budget (an endless loop) is interrupted where
  CPython allows it (an asynchronous exception, delivered at the next bytecode); one blocked
  in C (``time.sleep``) is left to finish as a daemon, and the AI is not called again while it
  is busy.

:func:`play_hand` drives one :class:`engine.state.Game` to its settlement with such players.
The rules themselves are the engine's (RULES.md §2–§9); nothing here re-derives them.
"""
from __future__ import annotations

import ctypes
import logging
import numbers
import random
import threading
import time
from collections import Counter
from typing import Any, Callable, Sequence

import pluggy

from engine.cards import ALL_CARDS, SUITS, Card
from engine.state import Bid, Bury, ChooseTrump, Phase, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase

from . import hookspecs
from .base import PASS, AIError, AISettings, call_factory
from .faults import Fault, FaultLedger, describe_exception
from .isolation import private_args

log = logging.getLogger(__name__)

DEFAULT_BUDGET_S = 2.0
"""Seconds an AI may take for one decision unless the host says otherwise."""

THREAD_PREFIX = "hongwu-ai-"
"""Decision and factory worker threads are named ``hongwu-ai-seatN:AI`` /
``hongwu-ai-factory-seatN:AI`` (see :meth:`ai_plugins.faults.FaultLedger.adopt_running_threads`)."""

DEFAULT_MAX_FAULTS = 3
"""Faults after which a seat is switched to the ``basic`` AI for the rest of its life."""


class AIAbandoned(BaseException):
    """Raised inside a runaway worker thread to stop it (a BaseException, so that a plugin's
    ``except Exception`` does not swallow it)."""


class _SeatPluginManager(pluggy.PluginManager):
    """A per-seat pluggy manager: accepts methods named like a decision hook even when they
    are not marked with ``@hookimpl`` (as pytest accepts ``pytest_*`` functions)."""

    def parse_hookimpl_opts(self, plugin: Any, name: str):  # type: ignore[override]
        """pluggy's options for ``plugin.name``; plain methods named like a decision hook
        count as implementations too."""
        opts = super().parse_hookimpl_opts(plugin, name)
        if opts is None and name in hookspecs.DECISION_HOOKS:
            if callable(getattr(plugin, name, None)):
                return {}  # type: ignore[return-value]
        return opts


def _interrupt(thread: threading.Thread) -> bool:
    """Ask CPython to raise :class:`AIAbandoned` in ``thread``; True if it was scheduled."""
    ident = thread.ident
    if ident is None or not thread.is_alive():
        return False
    try:
        set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    except AttributeError:  # pragma: no cover - not CPython
        return False
    n = set_async(ctypes.c_ulong(ident), ctypes.py_object(AIAbandoned))
    if n > 1:  # pragma: no cover - never expected; undo as the C API documents
        set_async(ctypes.c_ulong(ident), None)
        return False
    return n == 1


class _Call:
    """One plugin call running in a daemon thread: ``func(*args, **kwargs)``, then
    ``plain(result)`` (the answer reduced to plain values, or a :class:`_Malformed`), both
    in the worker, so that nothing of the plugin runs in the caller's thread."""

    __slots__ = ("thread", "done", "result", "error", "error_tb")

    def __init__(self, func: Callable[..., Any], args: tuple, kwargs: dict[str, Any], name: str,
                 plain: Callable[[Any], Any] | None = None, sink: Any = None) -> None:
        self.done = threading.Event()
        self.result: Any = None
        self.error: str | None = None
        self.error_tb = ""
        self.thread = threading.Thread(target=self._run, args=(func, args, kwargs, plain, sink),
                                       name=name, daemon=True)
        self.thread.start()

    def _run(self, func: Callable[..., Any], args: tuple, kwargs: dict[str, Any],
             plain: Callable[[Any], Any] | None, sink: Any) -> None:
        from .capture import attributed

        try:
            with attributed(sink):
                result = func(*args, **kwargs)
                self.result = plain(result) if plain is not None and result is not None else result
        except AIAbandoned:
            self.error = "abandoned after its time budget"
        except BaseException as exc:  # noqa: BLE001 - SystemExit from a plugin included
            try:
                self.error, self.error_tb = describe_exception(exc)
            except BaseException:  # noqa: BLE001
                self.error = "an exception that could not be described"
        finally:
            self.done.set()


class _Malformed:
    """An answer that is not made of the values a hook must return (the reason in words)."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def _short(value: Any) -> str:
    """``repr(value)`` cut to 80 characters (called in the plugin's worker thread)."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def _plain_card(value: Any) -> Card:
    if isinstance(value, Card):
        v = int.__int__(value)  # the value itself, whatever the subclass overrides
        if 0 <= v < len(ALL_CARDS):
            return ALL_CARDS[v]
        raise ValueError(f"not a card: {_short(value)}")
    if isinstance(value, str):
        return Card.parse(str.__str__(value))
    raise TypeError(f"not a card: {_short(value)}")


def _plain_int(value: Any) -> int:
    """``value`` as an exact ``int`` (not a bool, not a subclass); TypeError otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"not an int: {_short(value)}")
    return int.__int__(value) if isinstance(value, int) else int.__int__(int(value))


def _plain_friend_call(answer: Any) -> Any:
    """A ``choose_friend`` answer as ``(Card, int)``: a
    :class:`engine.zhaopengyou_rules.FriendCall` (or anything with ``card`` and ``nth``
    attributes) or a 2-item list/tuple ``(card, nth)``, the card a ``Card`` or card text;
    else a :class:`_Malformed`. Runs in the worker."""
    why = f"malformed call {_short(answer)}: expected (card, nth)"
    try:
        if isinstance(answer, (list, tuple)):
            items = list(answer)
            if len(items) != 2:
                return _Malformed(why)
            card, nth = items
        elif hasattr(answer, "card") and hasattr(answer, "nth"):  # a FriendCall
            card, nth = answer.card, answer.nth
        else:
            return _Malformed(why)
        return (_plain_card(card), _plain_int(nth))
    except (ValueError, TypeError) as exc:
        return _Malformed(f"{why} ({exc})")


def _plain_answer(hook: str, answer: Any) -> Any:
    """``answer`` of ``hook`` as plain values: an ``int`` (bid), a ``str`` (trump), a tuple of
    interned :class:`Card` (bury, play, and 找朋友's declaration and counter, empty to pass), a
    ``(Card, int)`` (找朋友's friend call), or a :class:`_Malformed`. Runs in the worker, so
    that nothing the plugin returned (a list it keeps changing, a ``__eq__`` that lies, a
    property that loops) is touched by the seat's thread."""
    if hook == "choose_bid":
        if isinstance(answer, bool) or not isinstance(answer, numbers.Integral):
            return _Malformed(f"malformed bid {_short(answer)}: expected an int from the legal "
                              f"bids or 0")
        return int.__int__(int(answer)) if not isinstance(answer, int) else int.__int__(answer)
    if hook == "choose_trump":
        if not isinstance(answer, str):
            return _Malformed(f"malformed trump {_short(answer)}: expected one of S H C D")
        return str.__str__(answer)
    if hook == "choose_friend":
        return _plain_friend_call(answer)
    if not isinstance(answer, (list, tuple)):
        return _Malformed(f"malformed {hook[7:]} {_short(answer)}: expected a list of cards")
    try:
        return tuple(_plain_card(c) for c in list(answer))
    except (ValueError, TypeError) as exc:
        return _Malformed(f"malformed {hook[7:]} {_short(answer)}: {exc}")


MAX_REASONING = 5
"""Candidates kept from a plugin's reasoning (more are cut off)."""

MAX_REASONING_TEXT = 60
"""Characters kept of a reasoning entry's ``action`` and ``note`` texts."""


class Reasoning(tuple):
    """One candidate of a plugin's reasoning, plain and immutable: ``(action, value, note)``
    — ``action`` str (the candidate as text), ``value`` float (the AI's estimate, in its own
    unit, higher is better), ``note`` str (may be empty). See PLUGINS.md "Reasoning"."""

    __slots__ = ()

    def __new__(cls, action: str, value: float, note: str = "") -> "Reasoning":
        return tuple.__new__(cls, (action, value, note))

    action = property(lambda self: self[0], doc="the candidate as text")
    value = property(lambda self: self[1], doc="the estimate (float)")
    note = property(lambda self: self[2], doc="free text, may be empty")


def plain_reasoning(value: Any) -> tuple[Reasoning, ...]:
    """Reduce what an AI's optional ``reasoning()`` returned to a tuple of :class:`Reasoning`
    (at most :data:`MAX_REASONING`, texts cut to :data:`MAX_REASONING_TEXT`). Accepted: a
    list/tuple of mappings ``{"action": str, "value": real number, "note": str (optional)}``
    or of ``(action, value[, note])`` sequences. Raises ValueError/TypeError for anything else
    (a non-finite value included)."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"reasoning must be a list of candidates, not {_short(value)}")
    out = []
    for entry in list(value)[:MAX_REASONING]:
        if isinstance(entry, dict):
            action, val, note = entry.get("action"), entry.get("value"), entry.get("note", "")
        elif isinstance(entry, (list, tuple)) and len(entry) in (2, 3):
            action, val, note = (list(entry) + [""])[:3]
        else:
            raise TypeError(f"a reasoning entry must be a dict or (action, value, note), not {_short(entry)}")
        if not isinstance(action, str) or not isinstance(note, str):
            raise TypeError(f"reasoning action and note must be text: {_short(entry)}")
        if isinstance(val, bool) or not isinstance(val, numbers.Real):
            raise TypeError(f"reasoning value must be a number: {_short(entry)}")
        val = float(val)
        if val != val or val in (float("inf"), float("-inf")):
            raise ValueError(f"reasoning value must be finite: {_short(entry)}")
        out.append(Reasoning(str.__str__(action)[:MAX_REASONING_TEXT], val,
                             str.__str__(note)[:MAX_REASONING_TEXT]))
    return tuple(out)


class _Answer:
    """A hook's plain answer and the AI's plain reasoning (None: none given or unusable,
    ``error`` then says why when it was unusable)."""

    __slots__ = ("answer", "reasoning", "error")

    def __init__(self, answer: Any, ai: Any) -> None:
        self.answer = answer
        self.reasoning: tuple[Reasoning, ...] | None = None
        self.error = ""
        get = getattr(ai, "reasoning", None)
        if not callable(get):
            return
        try:  # runs in the worker, inside the budget; a failure never costs the decision
            raw = get()
            self.reasoning = None if raw is None else plain_reasoning(raw)
        except Exception as exc:  # noqa: BLE001
            self.error = f"{type(exc).__name__}: {exc}"


class SafePlayer:
    """A seat played by an AI object, with budget, isolation, validation and fallback.

    Arguments:
        ai: the AI object (what a factory returned), or None to play ``basic`` only.
        name: the AI's name, for logs and :class:`Fault` records.
        seat: 0..n-1 (n = the ruleset's players).
        budget_s: seconds per decision (float > 0).
        seed: seeds the fallback ``basic`` AI (``random.Random(seed)``).
        max_faults: faults before the seat is switched to ``basic`` permanently (>= 1).
        fallback: an AI object used for lost decisions (default: a new built-in ``basic``).
        ledger: the run's :class:`~ai_plugins.faults.FaultLedger` (default: one of its own,
            loud), shared by the seats of one run so that an AI can be dropped for all of them.
        sink: where the plugin's printed output goes (an
            :class:`ai_plugins.capture.OutputSink`), or None.

    Attributes: ``faults`` (list of :class:`Fault`), ``disabled`` (True once switched to
    ``basic``), ``decisions`` (decisions asked), ``fallbacks`` (decisions taken by ``basic``,
    deliberate ``None`` answers included), ``lost`` (decisions lost to ``basic`` by a fault,
    or because the seat was disabled or the AI dropped: what the arena's ``faults`` column
    adds up), ``lost_kinds`` (``Counter`` of ``lost`` by reason, see :mod:`ai_plugins.faults`),
    ``last_reasoning`` (the AI's optional reasoning of its last decision, a tuple of
    :class:`Reasoning`, or None when it gave none or ``basic`` decided; PLUGINS.md "Reasoning"),
    ``reasoning_errors`` (reasoning answers dropped as unusable; not faults).
    """

    def __init__(self, ai: Any, name: str, seat: int, *, budget_s: float = DEFAULT_BUDGET_S,
                 seed: int | None = None, max_faults: int = DEFAULT_MAX_FAULTS,
                 fallback: Any = None, ledger: FaultLedger | None = None,
                 sink: Any = None) -> None:
        from .builtin.basic import BasicAI

        if budget_s <= 0:
            raise ValueError("budget_s must be positive")
        self.name = name
        self.seat = seat
        self.budget_s = float(budget_s)
        self.max_faults = max(1, int(max_faults))
        self.ledger = ledger if ledger is not None else FaultLedger()
        self.sink = sink
        self.faults: list[Fault] = []
        self.decisions = 0
        self.fallbacks = 0
        self.lost = 0
        self.lost_kinds: Counter[str] = Counter()
        self.last_reasoning: tuple[Reasoning, ...] | None = None
        self._new_reasoning: tuple[Reasoning, ...] | None = None
        self.reasoning_errors = 0
        self.disabled = False
        self._off_kind = "disabled"  # why decisions are lost once disabled
        self._lost_now = False       # the current decision is already counted as lost
        self._busy: _Call | None = None
        self.left_running = False  # close() found a decision thread that would not stop
        self._rng = random.Random(seed)
        self.fallback_ai = fallback if fallback is not None else BasicAI(
            AISettings(seat=seat, seed=0 if seed is None else seed, budget_s=budget_s))
        self._pm: _SeatPluginManager | None = None
        self.ai = ai
        if ai is not None:
            pm = _SeatPluginManager(hookspecs.PROJECT)
            pm.add_hookspecs(hookspecs)
            try:
                pm.register(ai, name=f"seat{seat}:{name}")
            except Exception as exc:  # PluginValidationError: a hook with unknown arguments
                self._fault("SETUP", "factory", f"AI object rejected by pluggy: {exc}")
                self._disable("its AI object does not fit the hook specifications")
            else:
                self._pm = pm

    # ------------------------------------------------------------------ public
    def act(self, view: Any) -> Any:
        """The action (``Bid``/``ChooseTrump``/``Bury``/``Play``) for ``view``; never raises.

        ``view`` is the seat's :class:`engine.state.PlayerView` with ``view.to_act == seat``.
        The AI is given a private copy; its answer is used when it is on time and legal;
        otherwise ``basic`` decides, from ``view`` itself. ``last_reasoning`` keeps the previous
        decision's reasoning while this one is being made (X-ray shows it as "thinking…" from
        another thread) and is replaced when it returns.
        """
        self._new_reasoning = None
        action = self._act(view)
        self.last_reasoning = self._new_reasoning
        return action

    def _act(self, view: Any) -> Any:
        """The body of :meth:`act`; an AI's reasoning goes to ``_new_reasoning``."""
        self.decisions += 1
        self._lost_now = False
        phase = getattr(view, "phase", None)
        try:
            hook, kwargs = self._request(view)
        except Exception as exc:  # an unexpected view: nothing an AI can do about it
            log.error("seat %d: cannot prepare a decision for phase %r: %r", self.seat, phase, exc)
            return self._last_resort(view)
        if self._pm is not None and not self.disabled:
            why = self.ledger.is_dropped(self.name)
            if why:
                self._off_kind = "dropped"
                self._disable(f"the AI was dropped for this run after {why}", quiet=True)
        if self._pm is not None and not self.disabled and self.plays_ruleset(view):
            answer = self._ask(hook, kwargs, view)
            if answer is not _NO_ANSWER:
                return answer
        elif self.disabled:
            self._count_lost(self._off_kind)
        return self.fallback_action(view)

    def fallback_action(self, view: Any, reason: str | None = None) -> Any:
        """The ``basic`` AI's action for ``view`` (last resort: any legal action); never raises.

        ``reason``, when given, is logged as a fault first (e.g. the engine rejected the
        AI's action).
        """
        if reason is not None:
            self._fault(self._phase_name(view), "rejected", reason)
            self._count_lost("rejected")
        self.fallbacks += 1
        try:
            hook, kwargs = self._request(view)
            answer = getattr(self.fallback_ai, hook)(**kwargs)
            action, why = self._validate(view, _plain_answer(hook, answer))
            if action is not None:
                return action
            log.error("seat %d: fallback AI answered %r (%s)", self.seat, answer, why)
        except Exception:
            log.exception("seat %d: the fallback AI failed", self.seat)
        return self._last_resort(view)

    def plays_ruleset(self, view: Any) -> bool:
        """True when the AI object plays the view's ruleset: its ``rulesets`` attribute (a
        tuple of ruleset names, default :data:`ai_plugins.hookspecs.DEFAULT_RULESETS`, 红五
        only) names it. Otherwise every decision of that ruleset goes to ``basic`` (no fault)."""
        name = getattr(getattr(view, "ruleset", None), "name", "hongwu")
        try:
            supported = tuple(getattr(self.ai, "rulesets", hookspecs.DEFAULT_RULESETS))
        except Exception:  # a broken attribute: treat as the default
            supported = hookspecs.DEFAULT_RULESETS
        return name in supported

    def close(self) -> None:
        """Stop a worker still running (if CPython allows); call when the seat is done.
        A worker that is still alive a moment later is noted in the ledger (it is a daemon
        thread; it cannot outlive the process)."""
        busy = self._busy
        if busy is not None and not busy.done.is_set():
            _interrupt(busy.thread)
            if not busy.done.wait(0.05):
                self.left_running = True
                self.ledger.left_running(self.name, busy.thread)
        if self.sink is not None:
            self.sink.end_hand()

    # ------------------------------------------------------------------ internals
    @staticmethod
    def _phase_name(view: Any) -> str:
        phase = getattr(view, "phase", None)
        return getattr(phase, "name", str(phase))

    def _request(self, view: Any) -> tuple[str, dict[str, Any]]:
        phase = view.phase
        if isinstance(phase, ZPhase):
            if phase is ZPhase.DEAL:
                return "choose_declaration", {"view": view, "options": tuple(view.legal_declarations)}
            if phase is ZPhase.COUNTER:
                return "choose_counter", {"view": view, "options": tuple(view.legal_declarations)}
            if phase is ZPhase.CALL_FRIEND:
                return "choose_friend", {"view": view, "calls": view.friend_calls()}
            if phase is ZPhase.BURY:
                return "choose_bury", {"view": view, "count": int(view.bury_count)}
            if phase is ZPhase.PLAY:
                return "choose_play", {"view": view, "options": view.play_options()}
            raise ValueError(f"no decision in phase {phase!r}")
        if phase == Phase.BID:
            return "choose_bid", {"view": view, "bids": tuple(view.legal_bids())}
        if phase == Phase.TRUMP:
            return "choose_trump", {"view": view, "suits": SUITS}
        if phase == Phase.BURY:
            return "choose_bury", {"view": view, "count": int(view.bury_count)}
        if phase == Phase.PLAY:
            return "choose_play", {"view": view, "options": view.play_options()}
        raise ValueError(f"no decision in phase {phase!r}")

    def _count_lost(self, kind: str) -> None:
        if self._lost_now:
            return
        self._lost_now = True
        self.lost += 1
        self.lost_kinds[kind] += 1
        self.ledger.lose(self.name, kind)

    def _fault(self, phase: str, kind: str, reason: str, tb: str = "") -> None:
        fault = Fault(self.seat, self.name, phase, kind, reason, tb)
        self.faults.append(fault)
        self.ledger.record(fault)
        if not self.disabled and len(self.faults) >= self.max_faults:
            self._disable(f"{len(self.faults)} faults")

    def _disable(self, why: str, *, quiet: bool = False) -> None:
        self.disabled = True
        level = logging.DEBUG if (quiet or not self.ledger.loud) else logging.WARNING
        log.log(level, "AI %r (seat %d) switched to the basic AI for good: %s",
                self.name, self.seat, why)

    def _ask(self, hook: str, kwargs: dict[str, Any], view: Any) -> Any:
        phase = self._phase_name(view)
        busy = self._busy
        if busy is not None and not busy.done.is_set():
            _interrupt(busy.thread)  # try again: it may have been in C code last time
            self._fault(phase, "busy", "still running an earlier decision")
            self._count_lost("busy")
            return _NO_ANSWER
        self._busy = None
        assert self._pm is not None
        try:
            mine = private_args(hook, kwargs)
        except Exception as exc:  # pragma: no cover - an engine view that cannot be copied
            log.error("seat %d: cannot copy the view for %s: %r", self.seat, hook, exc)
            return _NO_ANSWER
        if self.sink is not None:
            self.sink.begin_hand(getattr(view, "hand_no", None))
        caller = getattr(self._pm.hook, hook)
        ai = self.ai
        call = _Call(caller, (), mine, f"{THREAD_PREFIX}seat{self.seat}:{self.name}",
                     lambda answer: _Answer(_plain_answer(hook, answer), ai), self.sink)
        started = time.perf_counter()
        if not call.done.wait(self.budget_s):
            self._busy = call
            if _interrupt(call.thread):
                call.done.wait(0.05)  # a pure-Python loop stops at once; C code does not
            self._fault(phase, "timeout",
                        f"no answer within the {self.budget_s:g} s budget")
            self._count_lost("timeout")
            return _NO_ANSWER
        elapsed = time.perf_counter() - started
        if call.error is not None:
            self._fault(phase, "exception", call.error, call.error_tb)
            self._count_lost("exception")
            return _NO_ANSWER
        if call.result is None:  # no implementation or no opinion: basic decides, no fault
            log.debug("AI %r (seat %d) left %s to basic", self.name, self.seat, hook)
            return _NO_ANSWER
        got: _Answer = call.result
        action, why = self._validate(view, got.answer)
        if got.error:
            self.reasoning_errors += 1
            log.info("AI %r (seat %d): reasoning dropped: %s", self.name, self.seat, got.error)
        if action is None:
            kind = "malformed" if why.startswith("malformed") else "illegal"
            self._fault(phase, kind, why)
            self._count_lost(kind)
            return _NO_ANSWER
        log.debug("AI %r (seat %d) %s in %.1f ms", self.name, self.seat, hook, elapsed * 1e3)
        self._new_reasoning = got.reasoning
        return action

    def _validate(self, view: Any, answer: Any) -> tuple[Any, str]:
        """(action, "") for a good answer, (None, reason) otherwise. ``answer`` is what
        :func:`_plain_answer` made of the hook's answer (plain values or :class:`_Malformed`)."""
        seat, phase = self.seat, view.phase
        if isinstance(answer, _Malformed):
            return None, answer.why
        if phase in (ZPhase.DEAL, ZPhase.COUNTER):
            what = "declaration" if phase is ZPhase.DEAL else "counter"
            if type(answer) is not tuple:
                return None, (f"malformed {what} {_short(answer)}: expected a list of cards "
                              f"(empty to pass)")
            if not answer:
                return Pass(seat), ""
            if sorted(answer) not in [sorted(o) for o in view.legal_declarations]:
                return None, f"illegal {what} {[str(c) for c in answer]}: not among the legal ones"
            return Declare(seat, answer), ""
        if phase is ZPhase.CALL_FRIEND:
            if not (type(answer) is tuple and len(answer) == 2 and type(answer[0]) is Card
                    and type(answer[1]) is int):
                return None, f"malformed call {_short(answer)}: expected (card, nth)"
            card, nth = answer
            if (card, nth) not in set(view.friend_calls()):
                return None, f"illegal call {card} #{nth}: not among the valid calls"
            return CallFriend(seat, card, nth), ""
        if phase is ZPhase.BURY:
            phase = Phase.BURY
        elif phase is ZPhase.PLAY:
            phase = Phase.PLAY
        if phase == Phase.BID:
            if type(answer) is not int:
                return None, f"malformed bid {answer!r}: expected an int from the legal bids or 0"
            if answer == PASS:
                return Bid(seat, None), ""
            legal = tuple(view.legal_bids())
            if answer not in legal:
                return None, f"illegal bid {answer}: legal bids are {list(legal)} or 0 to pass"
            return Bid(seat, answer), ""
        if phase == Phase.TRUMP:
            if type(answer) is not str:
                return None, f"malformed trump {answer!r}: expected one of S H C D"
            if answer not in SUITS:
                return None, f"illegal trump {answer!r}: expected one of S H C D"
            return ChooseTrump(seat, answer), ""
        if type(answer) is not tuple:
            return None, f"malformed answer {answer!r}: expected a list of cards"
        cards = answer
        if phase == Phase.BURY:
            count = int(view.bury_count)
            if len(cards) != count:
                return None, f"illegal bury: {len(cards)} cards given, {count} needed"
            if Counter(cards) - Counter(view.hand):
                return None, f"illegal bury: {[str(c) for c in cards]} are not all in the hand"
            return Bury(seat, cards), ""
        if phase == Phase.PLAY:
            if not cards:
                return None, "malformed play (): expected a non-empty list of cards"
            options = view.play_options()
            if not options.is_legal(cards):
                why = options.explain(cards) or "not a legal play"
                return None, f"illegal play {[str(c) for c in cards]}: {why}"
            return Play(seat, cards), ""
        return None, f"no decision in phase {phase!r}"

    def _last_resort(self, view: Any) -> Any:
        """Some legal action without any AI (used only if ``basic`` itself fails)."""
        phase = view.phase
        try:
            if phase in (ZPhase.DEAL, ZPhase.COUNTER):
                return Pass(self.seat)
            if phase is ZPhase.CALL_FRIEND:
                card, nth = view.friend_calls()[0]
                return CallFriend(self.seat, card, nth)
            if phase is ZPhase.BURY:
                return Bury(self.seat, tuple(view.hand[: int(view.bury_count)]))
            if phase == Phase.BID:
                return Bid(self.seat, None)
            if phase == Phase.TRUMP:
                return ChooseTrump(self.seat, SUITS[0])
            if phase == Phase.BURY:
                return Bury(self.seat, tuple(view.hand[: int(view.bury_count)]))
            return Play(self.seat, tuple(view.play_options().sample(self._rng)))
        except Exception:  # pragma: no cover - an engine bug; nothing sensible is left
            log.exception("seat %d: no legal action could be built", self.seat)
            raise


_NO_ANSWER = object()


def make_player(manager: Any, name: str, seat: int, budget_s: float = DEFAULT_BUDGET_S,
                seed: int | None = None, *, max_faults: int = DEFAULT_MAX_FAULTS,
                options: dict[str, Any] | None = None, ledger: FaultLedger | None = None,
                sink: Any = None) -> SafePlayer:
    """A :class:`SafePlayer` for the AI ``name`` (or ``module:object``) of ``manager``.

    The factory is called positionally with one :class:`~ai_plugins.base.AISettings`
    (``seat``, ``seed``, ``budget_s``, ``options``; see :func:`ai_plugins.base.call_factory`)
    in a worker thread under the same budget; if the name is unknown or clashes, or the factory
    raises or overruns, the fault is logged and the seat is played by ``basic``. An AI the
    ``ledger`` has dropped for this run is not built at all: the seat plays ``basic`` and its
    decisions count as lost (``dropped``). ``sink`` (an :class:`ai_plugins.capture.OutputSink`)
    receives what the plugin prints. This function does not raise for a bad AI (ValueError for
    a non-positive budget).
    """
    settings = AISettings(seat=seat, seed=0 if seed is None else int(seed),
                          budget_s=float(budget_s), options=dict(options or {}))
    from .capture import sink_for

    ledger = ledger if ledger is not None else FaultLedger()
    problem: tuple[str, str, str] | None = None
    ai = None
    info = None
    try:
        info = manager.resolve(name)
    except AIError as exc:
        problem = ("factory", str(exc), "")
    except Exception as exc:  # a module:object whose import has side effects gone wrong
        problem = ("factory", f"cannot load {name!r}: {exc!r}", "")
    else:
        name = info.name  # one name everywhere: ai list, the table, the arena, the log
    dropped = ledger.is_dropped(name)
    if dropped is None and info is not None:
        if sink is None:
            sink = sink_for(name, ledger)
        call = _Call(call_factory, (info.factory, settings), {},
                     f"{THREAD_PREFIX}factory-seat{seat}:{name}", None, sink)
        if not call.done.wait(budget_s):
            _interrupt(call.thread)
            if not call.done.wait(0.05):
                ledger.left_running(name, call.thread)
            problem = ("timeout", f"factory gave no AI within {budget_s:g} s", "")
        elif call.error is not None:
            problem = ("factory", f"factory raised {call.error}", call.error_tb)
        elif call.result is None:
            problem = ("factory", "factory returned None", "")
        else:
            ai = call.result
    player = SafePlayer(ai, name, seat, budget_s=budget_s, seed=seed, max_faults=max_faults,
                        ledger=ledger, sink=sink)
    if dropped is not None:
        player._off_kind = "dropped"
        player._disable(f"the AI was dropped for this run after {dropped}", quiet=True)
    elif problem is not None:
        player._off_kind = "factory" if problem[0] == "factory" else "timeout"
        player._fault("SETUP", *problem)
        player._disable("no AI object")
    return player


def play_hand(game: Any, players: Sequence[Any], *, max_actions: int = 10_000) -> Any:
    """Drive ``game`` (an :class:`engine.state.Game` or a 找朋友
    :class:`engine.zhaopengyou.ZpyHand`) to its end with ``players[seat].act``.

    ``players`` is indexed by seat (one per seat of the ruleset, objects with ``act(view)``; :class:`SafePlayer` also has
    ``fallback_action``). An action the engine rejects (``IllegalAction``) is replaced by the
    player's fallback. Returns ``game.settlement``. Raises RuntimeError if the game does not
    end within ``max_actions`` actions (an engine or fallback bug, never a plugin's).
    """
    from engine.state import IllegalAction

    for _ in range(max_actions):
        if game.is_over:
            return game.settlement
        seat = game.to_act
        view = game.view(seat)
        player = players[seat]
        action = player.act(view)
        try:
            game.apply(action)
        except IllegalAction as exc:
            if not hasattr(player, "fallback_action"):
                raise
            log.warning("seat %d: engine rejected %r: %s", seat, action, exc)
            game.apply(player.fallback_action(view, f"engine rejected the action: {exc}"))
    raise RuntimeError(f"hand did not end within {max_actions} actions")


def basic_position(ruleset: Any, seed: int, tricks: int, max_actions: int = 2000) -> Any:
    """A deal (``Game.new(ruleset, seed=seed)``) played by ``basic`` on every seat (a
    :class:`SafePlayer` per seat, seat s seeded ``seed + s``) through the auction, trump and
    bury and then ``tricks`` whole tricks (RULES.md §2–§9): the game at the first lead of trick
    ``tricks + 1``, or over if the hand ended first. At most ``max_actions`` actions are
    applied (a bound, never reached by a real hand). For tests and benchmarks that need real
    positions; raises whatever the engine raises for an illegal action (none is expected)."""
    from engine.state import Game

    game = Game.new(ruleset, seed=seed)
    players = [SafePlayer(None, "basic", s, seed=seed + s) for s in range(ruleset.players)]
    done = 0
    for _ in range(max_actions):
        if game.is_over:
            break
        if game.phase is Phase.PLAY and not game.current:
            if done >= tricks:
                break
            done += 1
        s = game.to_act
        game.apply(players[s].act(game.view(s)))
    return game
