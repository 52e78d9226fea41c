"""Keeping a session's view of the hand current from ``view`` and ``event`` notifications.

Protocol 1 sends a full ``view`` after every change; protocol 2 sends one when a hand is dealt
and on request (``snapshot``), and otherwise only the events, which the client folds into its
view itself (:mod:`engine.viewfold`; PROTOCOL.md sections 3 and 12). :class:`ViewTracker`
handles both, so a bot or a window never cares which version it speaks. At a 找朋友 table
(protocol 3) the host sends a full ``ZpyView`` after every batch, so events are not folded
there: :meth:`ViewTracker.on_event` only notes them and the next ``view`` is installed.

>>> t = ViewTracker()
>>> t.view is None
True
"""
from __future__ import annotations

import enum
from typing import Any, Mapping

from engine.events import Event
from engine.state import PlayerView
from engine.viewfold import NeedsFullView, advance

from . import zpy_codec


class Fold(enum.Enum):
    """What :meth:`ViewTracker.on_event` did with an event."""

    FOLDED = "folded"
    """The view now reflects the event."""
    OLD = "old"
    """The view already reflected it (an earlier hand, or an event before the view's count)."""
    AWAIT_VIEW = "await_view"
    """A new hand began (``hand_started``/``cards_dealt``): its full ``view`` follows."""
    OUT_OF_STEP = "out_of_step"
    """The event does not fit the view: ask for a ``snapshot`` (:meth:`ViewTracker.on_view`
    with its view puts things right)."""


class ViewTracker:
    """One session's latest :class:`~engine.state.PlayerView` of the hand.

    Attributes: ``view`` (PlayerView or None before the first full view), ``hand_no`` and
    ``events`` (the hand and how many of its events ``view`` reflects), ``waiting`` (None
    while ``view`` is current; ``"hand"`` after a new hand's first events, until its full view;
    ``"snapshot"`` after an event that could not be folded, until the next full view).
    Not thread-safe: call it from the thread that reads the connection.
    """

    #: Events kept while waiting for a full view (replayed on top of it), at most this many.
    MAX_HELD = 512

    def __init__(self) -> None:
        self.view: PlayerView | None = None
        self.hand_no = 0
        self.events = 0
        self.waiting: str | None = None
        self._held: list[tuple[int, int, Event]] = []

    @property
    def stale(self) -> bool:
        """True while ``view`` is behind the events received (a full view is awaited)."""
        return self.waiting is not None

    @property
    def needs_snapshot(self) -> bool:
        """True when an event could not be folded: the holder should request a
        ``snapshot`` and pass its view to :meth:`on_view`."""
        return self.waiting == "snapshot"

    def on_view(self, hand_no: int, events: int, wire_view: Mapping[str, Any]) -> bool:
        """Install the full wire ``View`` of ``hand_no`` reflecting ``events`` events (from a
        ``view`` notification or a ``Snapshot``), then fold the events held while waiting for
        it that come after it. Returns False (and changes nothing) when the tracker already
        holds a later or equal state that is not stale, or has seen a newer hand begin (a
        snapshot answered before events that were handled first). Raises KeyError/ValueError/TypeError for a malformed view.
        After a reconnect, start a new tracker: the host's numbering is then the only truth."""
        if self.view is not None and not self.stale and (hand_no, events) <= (
                self.hand_no, self.events):
            return False
        if self.waiting == "hand" and (hand_no, events) < (self.hand_no, self.events):
            return False  # an older snapshot: the new hand's own view is on its way
        self.view = zpy_codec.any_view_in(wire_view)
        self.hand_no, self.events, self.waiting = hand_no, events, None
        held, self._held = self._held, []
        for h, n, ev in held:
            if (h, n) >= (hand_no, events):
                self.on_event(h, n, ev)
        return True

    def on_event(self, hand_no: int, n: int, event: Event) -> Fold:
        """Fold event number ``n`` of hand ``hand_no`` (already decoded with
        ``codec.event_in``) into the view; see :class:`Fold` for the outcomes."""
        if (hand_no, n) < (self.hand_no, self.events):
            return Fold.OLD
        if event.kind in ("hand_started", "cards_dealt"):
            self.hand_no, self.events, self.waiting = hand_no, n + 1, "hand"
            self._held = []
            return Fold.AWAIT_VIEW
        if self.waiting is None and _is_zpy(self.view):
            return Fold.AWAIT_VIEW  # 找朋友: a full view follows every batch (protocol 3)
        if self.waiting is not None:
            if len(self._held) < self.MAX_HELD:
                self._held.append((hand_no, n, event))
            return Fold.AWAIT_VIEW if self.waiting == "hand" else Fold.OUT_OF_STEP
        try:
            if self.view is None or hand_no != self.hand_no:
                raise NeedsFullView("no view of this hand yet")
            self.view = advance(self.view, event)
        except NeedsFullView:
            self.waiting = "snapshot"
            self._held.append((hand_no, n, event))  # the snapshot may come before it
            return Fold.OUT_OF_STEP
        self.events = n + 1
        return Fold.FOLDED


def _is_zpy(view: Any) -> bool:
    """True for a 找朋友 view (not folded here: the host sends a full one after every batch)."""
    from engine.zhaopengyou import ZpyView

    return isinstance(view, ZpyView)
