"""The table the client plays at: the :class:`Table` protocol and :class:`LocalTable`.

A table hides where the game runs.  The client only ever talks to this interface, so a LAN
table (``net/``) can stand in for the local one:

- ``seat``: the local human's seat (0..3), or None for an observer / all-AI demo;
- ``names``: four display names (seat order);
- ``view()``: the engine ``PlayerView`` for ``seat`` (observer view when None);
- ``submit(action)``: an engine action (``Bid``, ``ChooseTrump``, ``Bury``, ``Play``) for the
  local seat; returns None when accepted, else the engine's reason (English text, as raised in
  ``IllegalAction``; a local table returns the ``engine.refusals.Refusal`` itself, a ``str``
  carrying ``code``/``params`` for translation); never raises for an illegal action;
- ``poll()``: engine events since the last poll, already filtered for ``seat``
  (``event.for_seat(seat)``), in order; it also lets AI seats act, so call it every frame;
- ``next_hand()``: once the hand is settled, deal the next one (None when done, else a reason);
- ``totals()``: accumulated game points per seat over the finished hands (4 ints);
- ``hand_no``: 1 for the first hand, counting up;
- ``close()``: stop background work; the table is unusable afterwards.

Data flows one way: actions in, engine events out; the client never decides legality itself.
"""
from __future__ import annotations

import concurrent.futures
import logging
import random
import time
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

from game.pacing import Pace, pace

log = logging.getLogger(__name__)

HUMAN = "human"


@runtime_checkable
class Table(Protocol):
    """What the client needs from a table (local or remote).  See the module docstring."""

    seat: int | None
    names: tuple[str, ...]
    hand_no: int

    def view(self) -> Any:
        """The current ``engine.state.PlayerView`` for :attr:`seat`."""

    def submit(self, action: Any) -> str | None:
        """Apply an engine action of the local seat: None if accepted, else the reason."""

    def poll(self) -> list[Any]:
        """New engine events (filtered for :attr:`seat`) since the last call."""

    def next_hand(self) -> str | None:
        """Start the next hand once the current one is settled: None, or why not."""

    def totals(self) -> tuple[int, ...]:
        """Accumulated game points per seat (4 ints) over the finished hands."""

    def close(self) -> None:
        """Release the table (threads, sockets)."""


class FirstLegalPlayer:
    """Fallback AI used when ``ai_plugins`` is not available: the first legal option.

    Bids: pass; trump: ♠; bury: the first ``bury_count`` cards of the hand; play: the first
    legal play the engine lists (``view.play_options()``).  ``act(view)`` returns the action.
    """

    def __init__(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def act(self, view: Any) -> Any:
        """The action for ``view`` (``view.to_act == seat``): the engine's first legal action."""
        from engine.state import first_legal_action

        return first_legal_action(view)

    def fallback_action(self, view: Any, reason: str | None = None) -> Any:
        """Same as :meth:`act` (there is nothing simpler)."""
        return self.act(view)

    def close(self) -> None:
        """Nothing to release."""


def make_ai_players(kinds: Sequence[str], *, seed: int | None, budget_s: float = 2.0,
                    plugin_dirs: Sequence[str] = (), ai_specs: Sequence[str] = (),
                    user_plugins: bool = True) -> dict[int, Any]:
    """Create the AI players for every non-human seat of ``kinds`` (one kind per seat).

    Uses ``ai_plugins.runner.make_player`` with an ``ai_plugins.manager.AIManager`` (plugin
    folders and ``module:object`` specs passed through); when ``ai_plugins`` cannot be
    imported, every AI seat gets a :class:`FirstLegalPlayer`.  Returns ``{seat: player}``.
    """
    base = random.Random(seed if seed is not None else random.SystemRandom().getrandbits(32))
    seeds = [base.getrandbits(32) for _ in range(len(kinds))]
    try:
        from ai_plugins.manager import AIManager, report_problems
        from ai_plugins.runner import make_player
    except ImportError as exc:
        log.warning("ai_plugins unavailable (%s): AI seats pick the first legal option", exc)
        return {s: FirstLegalPlayer(s, seeds[s]) for s, k in enumerate(kinds) if k != HUMAN}
    from ai_plugins.faults import FaultLedger

    manager = AIManager(plugin_dirs=plugin_dirs, ai_specs=ai_specs, user_dir=user_plugins)
    report_problems(manager.problems, log)
    ledger = FaultLedger()  # one per table: an AI dropped for one seat is dropped for all
    return {s: make_player(manager, k, s, budget_s, seeds[s], ledger=ledger)
            for s, k in enumerate(kinds) if k != HUMAN}


def report_faults(players: Any) -> None:
    """Log one warning block telling, per AI, the decisions it lost to the stand-in and why
    (``ai_plugins.faults.format_fault_summary``); nothing when no AI lost any."""
    ledgers = {id(lg): lg for lg in (getattr(p, "ledger", None) for p in players) if lg is not None}
    if not ledgers:
        return
    from ai_plugins.faults import format_fault_summary, merge_reports

    lines = format_fault_summary(merge_reports(lg.as_dict() for lg in ledgers.values()),
                                 verbose=log.isEnabledFor(logging.INFO))
    if lines:
        log.warning("AI faults this game:\n%s", "\n".join(lines))


class LocalTable:
    """An engine ``Game`` in this process, with AI players in the non-human seats.

    Arguments:
        kinds: four seat kinds, ``"human"`` or an AI name (``"basic"``, ``"random"``, or a
            ``module:object`` spec); at most one human, whose seat becomes :attr:`seat`.
        decks: 2 or 3.
        seed: int for reproducible deals (hand k is dealt from
            ``engine.state.match_seed(seed, k)``) and AI seeds; None for a random match.
        speed: ``slow``/``normal``/``fast``/``instant`` (see :mod:`game.pacing`).
        players: ``{seat: player}`` to use instead of creating AIs (each with ``act(view)``).
        names: four display names (default: the seat kinds).
        clock: time source in seconds (tests may pass a fake).
        ruleset_options: keyword options for ``engine.ruleset.hongwu``.

    AI decisions run on one worker thread; :meth:`poll` starts and collects them, waiting
    :class:`~game.pacing.Pace` delays between actions.  With ``instant`` speed, poll keeps
    the AIs going for up to ``slice_s`` seconds per call.  Raises ValueError for bad seats.
    """

    def __init__(self, kinds: Sequence[str], *, decks: int = 2, seed: int | None = None,
                 speed: str = "normal", players: dict[int, Any] | None = None,
                 names: Sequence[str] | None = None, clock: Callable[[], float] = time.monotonic,
                 ruleset_options: dict[str, Any] | None = None, budget_s: float = 2.0,
                 plugin_dirs: Sequence[str] = (), ai_specs: Sequence[str] = (),
                 user_plugins: bool = True, slice_s: float = 0.012) -> None:
        from engine.ruleset import hongwu

        kinds = list(kinds)
        if len(kinds) != 4:
            raise ValueError(f"four seats are needed, got {len(kinds)}")
        humans = [i for i, k in enumerate(kinds) if k == HUMAN]
        if len(humans) > 1:
            raise ValueError("at most one human seat is supported at a local table")
        self.kinds = kinds
        self.seat: int | None = humans[0] if humans else None
        self.names = tuple(names) if names else tuple(kinds)
        self.pace: Pace = pace(speed)
        self.ruleset = hongwu(decks, **(ruleset_options or {}))
        self._clock = clock
        self._slice_s = slice_s
        #: the match seed: hand k is dealt from ``engine.state.match_seed(match_seed, k)``
        self.match_seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
        self.players = players if players is not None else make_ai_players(
            kinds, seed=seed, budget_s=budget_s, plugin_dirs=plugin_dirs, ai_specs=ai_specs,
            user_plugins=user_plugins)
        if not names:  # an AI's display name is its resolved name (as in 'hongwu ai list')
            self.names = tuple(str(getattr(self.players.get(i), "name", k) or k)
                               for i, k in enumerate(kinds))
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="hongwu-ai")
        self._pending: tuple[int, Any, concurrent.futures.Future] | None = None
        self._outbox: list[Any] = []
        self._totals = [0, 0, 0, 0]
        self._view_cache: Any = None
        self._next_at = 0.0
        self.hand_no = 0
        self.hand_seeds: list[int] = []
        self.settlements: list[Any] = []
        self.closed = False
        self.game: Any = None
        self._deal()

    # -- Table protocol ----------------------------------------------------------------------
    def view(self) -> Any:
        """The local seat's ``PlayerView`` (observer view for a demo); cached between actions."""
        if self._view_cache is None:
            self._view_cache = self.game.view(self.seat)
        return self._view_cache

    def submit(self, action: Any) -> str | None:
        """Apply the local human's ``action``; None when accepted, else the engine's reason.

        Actions for seats other than :attr:`seat` are refused (the AIs act through poll).
        """
        from engine.state import IllegalAction

        if self.closed:
            return "the table is closed"
        if self.seat is None or getattr(action, "seat", None) != self.seat:
            return "that seat is not yours"
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:  # the Refusal (a str) keeps its code for translation
            return getattr(exc, "reason", None) or str(exc) or "illegal action"
        self._accept(events)
        return None

    def poll(self) -> list[Any]:
        """Events since the last poll (filtered for :attr:`seat`); lets the AIs act."""
        if not self.closed:
            self._run_ais()
        out, self._outbox = self._outbox, []
        return out

    def next_hand(self) -> str | None:
        """Deal the next hand if this one is settled; else return why not."""
        from engine.state import Phase

        if self.closed:
            return "the table is closed"
        if self.game.phase != Phase.SETTLE:
            return "the hand is not over"
        self._deal()
        return None

    def totals(self) -> tuple[int, ...]:
        """Accumulated game points per seat over the settled hands."""
        return tuple(self._totals)

    def close(self) -> None:
        """Stop the AI worker (a running decision is abandoned) and the AI players."""
        if self.closed:
            return
        self.closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
        for p in self.players.values():
            closer = getattr(p, "close", None)
            if callable(closer):
                try:
                    closer()
                except Exception:  # pragma: no cover - a plugin's problem, not ours
                    log.exception("closing an AI player failed")
        report_faults(self.players.values())

    # -- internals ---------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """True while an AI decision is being computed."""
        return self._pending is not None

    def _deal(self) -> None:
        from engine.state import Game, match_seed

        self.hand_no += 1
        seed = match_seed(self.match_seed, self.hand_no)
        self.hand_seeds.append(seed)
        self.game = Game.new(self.ruleset, seed, hand_no=self.hand_no)
        log.info("hand %d dealt (seed %d)", self.hand_no, seed)
        self._view_cache = None
        self._emit(self.game.events)
        self._next_at = self._clock() + self.pace.deal_s

    def _emit(self, events: Sequence[Any]) -> None:
        for ev in events:
            seen = ev.for_seat(self.seat)
            if seen is not None:
                self._outbox.append(seen)

    def _accept(self, events: Sequence[Any]) -> None:
        """Book-keeping after any applied action: events out, pacing, totals."""
        self._view_cache = None
        self._emit(events)
        delay = self.pace.action_s
        for ev in events:
            kind = getattr(ev, "kind", "")
            if kind == "trick_won":
                delay = self.pace.action_s + self.pace.trick_s
            elif kind == "hand_settled":
                s = ev.settlement
                self.settlements.append(s)
                for i, gp in enumerate(s.game_points):
                    self._totals[i] += gp
        self._next_at = self._clock() + delay

    def _ai_to_act(self) -> int | None:
        seat = self.game.to_act
        if seat is None or seat == self.seat or seat not in self.players:
            return None
        return seat

    def _first_legal(self, seat: int, view: Any) -> Any:
        """The action taken when an AI seat's answer is lost: the first legal one for ``view``
        (RULES.md §7–§8; the 找朋友 table gives its own)."""
        return FirstLegalPlayer(seat).act(view)

    def _quick(self) -> bool:
        """Whether AI decisions run back to back within a frame's slice (instant pace)."""
        return self.pace.instant

    def _may_run_ais(self) -> bool:
        """Whether the AIs may act now (the 找朋友 table waits while dealt cards are shown)."""
        return True

    def _run_ais(self) -> None:
        """Drive the AI seats for one frame: take a finished decision (a lost or refused one
        becomes the seat's fallback or the first legal action, so the table never stalls),
        then submit the next AI seat's decision when the pace allows. Waits at most a frame's
        slice when :meth:`_quick`."""
        from engine.state import IllegalAction

        deadline = self._clock() + (self._slice_s if self._quick() else 0.0)
        while self._may_run_ais():
            if self._pending is not None:
                seat, view, fut = self._pending
                if not fut.done():
                    remaining = deadline - self._clock()
                    if remaining <= 0:
                        return
                    try:
                        fut.result(timeout=remaining)
                    except concurrent.futures.TimeoutError:
                        return
                    except Exception:
                        pass
                self._pending = None
                player = self.players[seat]
                try:
                    action = fut.result()
                except Exception:  # a fallback player raising: still never stall
                    log.exception("AI seat %d failed", seat)
                    action = self._first_legal(seat, view)
                if self.game.to_act != seat:  # state moved on (should not happen)
                    continue
                try:
                    events = self.game.apply(action)
                except IllegalAction as exc:
                    log.warning("engine rejected seat %d's %r: %s", seat, action, exc)
                    fb = getattr(player, "fallback_action", None)
                    alt = fb(view, f"engine rejected the action: {exc}") if fb else self._first_legal(seat, view)
                    events = self.game.apply(alt)
                self._accept(events)
                continue
            seat = self._ai_to_act()
            if seat is None or self._clock() < self._next_at:
                return
            view = self.game.view(seat)
            self._pending = (seat, view, self._pool.submit(self.players[seat].act, view))
            if not self._quick():
                return
