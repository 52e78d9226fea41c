"""Running AI decisions safely: time budget, validation, fallback to the ``basic`` AI.

:func:`make_player` turns an AI name into a :class:`SafePlayer` whose :meth:`SafePlayer.act`
maps a :class:`engine.state.PlayerView` to an engine action and **never raises**:

- the AI's decision hook runs in a daemon worker thread and is given ``budget_s`` seconds
  (default 2.0); past that the decision is taken by the built-in ``basic`` AI;
- an answer is checked against the view before it is used (a bid among the legal amounts or
  a pass, one of the four suits, exactly ``bury_count`` cards of the hand, a play that
  ``PlayOptions.is_legal`` accepts); an illegal or malformed answer, or an exception, also
  hands the decision to ``basic``;
- every such fault is logged (``logging``, logger ``ai_plugins.runner``) with its reason and
  kept in :attr:`SafePlayer.faults`; after ``max_faults`` faults the seat is switched to
  ``basic`` for good (logged too);
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
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import pluggy

from engine.cards import SUITS, Card, parse_cards
from engine.state import Bid, Bury, ChooseTrump, Phase, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase

from . import hookspecs
from .base import PASS, AIError, AISettings

log = logging.getLogger(__name__)

DEFAULT_BUDGET_S = 2.0
"""Seconds an AI may take for one decision unless the host says otherwise."""

DEFAULT_MAX_FAULTS = 3
"""Faults after which a seat is switched to the ``basic`` AI for the rest of its life."""


class AIAbandoned(BaseException):
    """Raised inside a runaway worker thread to stop it (a BaseException, so that a plugin's
    ``except Exception`` does not swallow it)."""


@dataclass(frozen=True)
class Fault:
    """One decision an AI lost to the fallback.

    Attributes: ``seat`` (0..n-1), ``ai`` (name), ``phase`` (the engine phase name, e.g.
    ``"PLAY"``), ``kind`` (``"exception"``, ``"timeout"``, ``"busy"``, ``"illegal"``,
    ``"malformed"``, ``"factory"``, ``"rejected"``), ``reason`` (text for people).
    """

    seat: int
    ai: str
    phase: str
    kind: str
    reason: str


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
    """One hook call running in a daemon thread."""

    __slots__ = ("thread", "done", "result", "error")

    def __init__(self, func: Callable[..., Any], kwargs: dict[str, Any], name: str) -> None:
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(func, kwargs), name=name,
                                       daemon=True)
        self.thread.start()

    def _run(self, func: Callable[..., Any], kwargs: dict[str, Any]) -> None:
        try:
            self.result = func(**kwargs)
        except BaseException as exc:  # AIAbandoned included: the thread just ends
            self.error = exc
        finally:
            self.done.set()


def _as_cards(answer: Any) -> tuple[Card, ...] | None:
    """Cards from a list/tuple of Card or card text; None when malformed."""
    if not isinstance(answer, (list, tuple)):
        return None
    try:
        return parse_cards([c if isinstance(c, (Card, str)) else _reject(c) for c in answer])
    except (ValueError, TypeError):
        return None


def _reject(value: Any) -> Any:
    raise TypeError(f"not a card: {value!r}")


class SafePlayer:
    """A seat played by an AI object, with budget, validation and fallback.

    Arguments:
        ai: the AI object (what a factory returned), or None to play ``basic`` only.
        name: the AI's name, for logs and :class:`Fault` records.
        seat: 0..n-1 (n = the ruleset's players).
        budget_s: seconds per decision (float > 0).
        seed: seeds the fallback ``basic`` AI (``random.Random(seed)``).
        max_faults: faults before the seat is switched to ``basic`` permanently (>= 1).
        fallback: an AI object used for lost decisions (default: a new built-in ``basic``).

    Attributes: ``faults`` (list of :class:`Fault`), ``disabled`` (True once switched to
    ``basic``), ``decisions`` (decisions asked), ``fallbacks`` (decisions taken by ``basic``).
    """

    def __init__(self, ai: Any, name: str, seat: int, *, budget_s: float = DEFAULT_BUDGET_S,
                 seed: int | None = None, max_faults: int = DEFAULT_MAX_FAULTS,
                 fallback: Any = None) -> None:
        from .builtin.basic import BasicAI

        if budget_s <= 0:
            raise ValueError("budget_s must be positive")
        self.name = name
        self.seat = seat
        self.budget_s = float(budget_s)
        self.max_faults = max(1, int(max_faults))
        self.faults: list[Fault] = []
        self.decisions = 0
        self.fallbacks = 0
        self.disabled = False
        self._busy: _Call | None = None
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
        The AI's answer is used when it is on time and legal; otherwise ``basic`` decides.
        """
        self.decisions += 1
        phase = getattr(view, "phase", None)
        try:
            hook, kwargs = self._request(view)
        except Exception as exc:  # an unexpected view: nothing an AI can do about it
            log.error("seat %d: cannot prepare a decision for phase %r: %r", self.seat, phase, exc)
            return self._last_resort(view)
        if self._pm is not None and not self.disabled and self.plays_ruleset(view):
            answer = self._ask(hook, kwargs, view)
            if answer is not _NO_ANSWER:
                return answer
        return self.fallback_action(view)

    def fallback_action(self, view: Any, reason: str | None = None) -> Any:
        """The ``basic`` AI's action for ``view`` (last resort: any legal action); never raises.

        ``reason``, when given, is logged as a fault first (e.g. the engine rejected the
        AI's action).
        """
        if reason is not None:
            self._fault(self._phase_name(view), "rejected", reason)
        self.fallbacks += 1
        try:
            hook, kwargs = self._request(view)
            answer = getattr(self.fallback_ai, hook)(**kwargs)
            action, why = self._validate(view, answer)
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
        """Stop a worker still running (if CPython allows); call when the seat is done."""
        if self._busy is not None and not self._busy.done.is_set():
            _interrupt(self._busy.thread)

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

    def _fault(self, phase: str, kind: str, reason: str) -> None:
        fault = Fault(self.seat, self.name, phase, kind, reason)
        self.faults.append(fault)
        log.warning("AI %r (seat %d) %s in %s: %s; the basic AI takes this decision",
                    self.name, self.seat, kind, phase, reason)
        if not self.disabled and len(self.faults) >= self.max_faults:
            self._disable(f"{len(self.faults)} faults")

    def _disable(self, why: str) -> None:
        self.disabled = True
        log.warning("AI %r (seat %d) switched to the basic AI for good: %s",
                    self.name, self.seat, why)

    def _ask(self, hook: str, kwargs: dict[str, Any], view: Any) -> Any:
        phase = self._phase_name(view)
        busy = self._busy
        if busy is not None and not busy.done.is_set():
            _interrupt(busy.thread)  # try again: it may have been in C code last time
            self._fault(phase, "busy", "still running an earlier decision")
            return _NO_ANSWER
        assert self._pm is not None
        caller = getattr(self._pm.hook, hook)
        call = _Call(caller, kwargs, f"hongwu-ai-seat{self.seat}")
        started = time.perf_counter()
        if not call.done.wait(self.budget_s):
            self._busy = call
            if _interrupt(call.thread):
                call.done.wait(0.05)  # a pure-Python loop stops at once; C code does not
            self._fault(phase, "timeout",
                        f"no answer within the {self.budget_s:g} s budget")
            return _NO_ANSWER
        elapsed = time.perf_counter() - started
        if call.error is not None:
            err = call.error
            self._fault(phase, "exception", f"{type(err).__name__}: {err}")
            return _NO_ANSWER
        if call.result is None:  # no implementation or no opinion: basic decides, no fault
            log.debug("AI %r (seat %d) left %s to basic", self.name, self.seat, hook)
            return _NO_ANSWER
        action, why = self._validate(view, call.result)
        if action is None:
            kind = "malformed" if why.startswith("malformed") else "illegal"
            self._fault(phase, kind, why)
            return _NO_ANSWER
        log.debug("AI %r (seat %d) %s in %.1f ms", self.name, self.seat, hook, elapsed * 1e3)
        return action

    def _validate(self, view: Any, answer: Any) -> tuple[Any, str]:
        """(action, "") for a good answer, (None, reason) otherwise."""
        seat, phase = self.seat, view.phase
        if phase in (ZPhase.DEAL, ZPhase.COUNTER):
            what = "declaration" if phase is ZPhase.DEAL else "counter"
            cards = _as_cards(answer)
            if cards is None:
                return None, f"malformed {what} {answer!r}: expected a list of cards (empty to pass)"
            if not cards:
                return Pass(seat), ""
            if sorted(cards) not in [sorted(o) for o in view.legal_declarations]:
                return None, f"illegal {what} {[str(c) for c in cards]}: not among the legal ones"
            return Declare(seat, tuple(cards)), ""
        if phase is ZPhase.CALL_FRIEND:
            try:
                if hasattr(answer, "card") and hasattr(answer, "nth"):  # a FriendCall
                    answer = (answer.card, answer.nth)
                card, nth = answer
                card = Card.parse(card)
            except (TypeError, ValueError):
                return None, f"malformed call {answer!r}: expected (card, nth)"
            if isinstance(nth, bool) or (card, nth) not in set(view.friend_calls()):
                return None, f"illegal call {card} #{nth!r}: not among the valid calls"
            return CallFriend(seat, card, int(nth)), ""
        if phase is ZPhase.BURY:
            phase = Phase.BURY
        elif phase is ZPhase.PLAY:
            phase = Phase.PLAY
        if phase == Phase.BID:
            if isinstance(answer, bool) or not isinstance(answer, numbers.Integral):
                return None, f"malformed bid {answer!r}: expected an int from the legal bids or 0"
            answer = int(answer)
            if answer == PASS:
                return Bid(seat, None), ""
            legal = tuple(view.legal_bids())
            if answer not in legal:
                return None, f"illegal bid {answer}: legal bids are {list(legal)} or 0 to pass"
            return Bid(seat, answer), ""
        if phase == Phase.TRUMP:
            if not isinstance(answer, str):
                return None, f"malformed trump {answer!r}: expected one of S H C D"
            if answer not in SUITS:
                return None, f"illegal trump {answer!r}: expected one of S H C D"
            return ChooseTrump(seat, answer), ""
        if phase == Phase.BURY:
            cards = _as_cards(answer)
            if cards is None:
                return None, f"malformed bury {answer!r}: expected a list of cards"
            count = int(view.bury_count)
            if len(cards) != count:
                return None, f"illegal bury: {len(cards)} cards given, {count} needed"
            if Counter(cards) - Counter(view.hand):
                return None, f"illegal bury: {[str(c) for c in cards]} are not all in the hand"
            return Bury(seat, cards), ""
        if phase == Phase.PLAY:
            cards = _as_cards(answer)
            if cards is None or not cards:
                return None, f"malformed play {answer!r}: expected a non-empty list of cards"
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
                options: dict[str, Any] | None = None) -> SafePlayer:
    """A :class:`SafePlayer` for the AI ``name`` (or ``module:object``) of ``manager``.

    The factory is called with :class:`~ai_plugins.base.AISettings` (``seat``, ``seed``,
    ``budget_s``, ``options``) in a worker thread under the same budget; if the name is
    unknown or clashes, or the factory raises or overruns, the fault is logged and the seat is
    played by ``basic`` (this function does not raise for a bad AI; ValueError for a
    non-positive budget).
    """
    settings = AISettings(seat=seat, seed=0 if seed is None else int(seed),
                          budget_s=float(budget_s), options=dict(options or {}))
    problem: tuple[str, str] | None = None
    ai = None
    try:
        info = manager.resolve(name)
    except AIError as exc:
        problem = ("factory", str(exc))
    except Exception as exc:  # a module:object whose import has side effects gone wrong
        problem = ("factory", f"cannot load {name!r}: {exc!r}")
    else:
        call = _Call(info.factory, {"settings": settings}, f"hongwu-ai-factory-seat{seat}")
        if not call.done.wait(budget_s):
            _interrupt(call.thread)
            problem = ("timeout", f"factory gave no AI within {budget_s:g} s")
        elif call.error is not None:
            problem = ("factory", f"factory raised {type(call.error).__name__}: {call.error}")
        elif call.result is None:
            problem = ("factory", "factory returned None")
        else:
            ai = call.result
    player = SafePlayer(ai, name, seat, budget_s=budget_s, seed=seed, max_faults=max_faults)
    if problem is not None:
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
