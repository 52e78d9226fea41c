"""Player helpers at the table: hint 提示, auto-play 托管, card counter 记牌器, points.

Nothing here decides what is legal: suggestions come from the built-in ``basic`` AI through
the plugin runner, which checks them with the engine; when the AI is unavailable or answers
something the engine refuses, the first legal option the engine lists is used instead.  Counting uses only what the seat
may see (``view.played_cards()``, its own hand, and its own buried cards as dealer).
"""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

log = logging.getLogger(__name__)

def suggest_action(view: Any) -> Any | None:
    """The ``basic`` AI's action for ``view`` (``Bid``/``ChooseTrump``/``Bury``/``Play``), checked
    against the engine by the plugin runner (``SafePlayer.fallback_action``: basic's answer if
    legal, else the engine's first legal action); None when it is not ``view.seat``'s turn (or
    there is no seat). Never raises for an AI problem."""
    if view.seat is None or not view.my_turn:
        return None
    try:
        from ai_plugins.runner import SafePlayer
    except ImportError as exc:  # pragma: no cover - a build without ai_plugins
        log.info("basic AI unavailable for hints: %s", exc)
        from engine.state import first_legal_action

        return first_legal_action(view)
    return SafePlayer(None, "hint", view.seat, seed=view.seat).fallback_action(view)


def indices_of(hand: Sequence[Any], cards: Sequence[Any]) -> set[int]:
    """Indices into ``hand`` holding the multiset ``cards`` (later copies first, as the hand
    marks them); cards not in ``hand`` are ignored."""
    todo = list(cards)
    out: set[int] = set()
    for i in range(len(hand) - 1, -1, -1):
        if hand[i] in todo:
            todo.remove(hand[i])
            out.add(i)
    return out


# -- card counter ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CounterRow:
    """One line of the card counter: ``key`` (stable id, e.g. ``"red5"``, ``"BJ"``,
    ``"3T"``, ``"A:S"``), ``card`` (an engine card to draw, or None for a group), ``label``
    (short display text, already translated), ``left`` (copies still unseen, int >= 0),
    ``total`` (copies in the decks)."""

    key: str
    card: Any
    label: str
    left: int
    total: int


def seen_cards(view: Any) -> Counter:
    """Cards this seat has seen leave play or holds: played so far, its own hand, and its
    own buried cards (dealer only).  A ``Counter`` of engine cards."""
    seen = Counter(view.played_cards())
    seen.update(view.hand)
    if view.seat is not None and view.dealer == view.seat and view.buried:
        seen.update(view.buried)
    return seen


def card_counter(view: Any) -> list[CounterRow]:
    """Trumps and high cards still out (not seen by this seat), most important first.

    Rows: ♥5, big joker, small joker, then — once trump is known — the 3 of trump, the 3 of
    the other suit of its colour, the 2 of trump, the other 2s, and the ace of every suit;
    before trump is known the 3s and 2s are counted together.  ``left`` counts copies that
    are neither in the seat's hand, nor played, nor (for the dealer) buried.
    """
    from engine.cards import parse_cards
    from game.i18n import _
    from game.text import SUIT_SYMBOL

    decks = getattr(view.ruleset, "decks", 2)
    seen = seen_cards(view)

    def left(cards: Sequence[Any]) -> int:
        return sum(max(0, decks - seen.get(c, 0)) for c in cards)

    def row(key: str, text: str, label: str, group: Sequence[str] | None = None) -> CounterRow:
        cards = parse_cards(list(group) if group else [text])
        return CounterRow(key, None if group else cards[0], label, left(cards), decks * len(cards))

    rows = [row("red5", "5H", "♥5"), row("BJ", "BJ", _("BJ")), row("SJ", "SJ", _("SJ"))]
    trump = view.trump
    if trump:
        partner = {"S": "C", "C": "S", "H": "D", "D": "H"}[trump]
        others = [s for s in "SHCD" if s != trump]
        rows.append(row("3T", f"3{trump}", SUIT_SYMBOL[trump] + "3"))
        rows.append(row("3P", f"3{partner}", SUIT_SYMBOL[partner] + "3"))
        rows.append(row("2T", f"2{trump}", SUIT_SYMBOL[trump] + "2"))
        rows.append(row("2O", "", _("Side 2s"), [f"2{s}" for s in others]))
    else:
        rows.append(row("3", "", _("3s"), [f"3{s}" for s in "SHCD"]))
        rows.append(row("2", "", _("2s"), [f"2{s}" for s in "SHCD"]))
    for s in "SHCD":
        rows.append(row(f"A:{s}", f"A{s}", SUIT_SYMBOL[s] + "A"))
    return rows


# -- points ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PointsSummary:
    """Card points this hand: ``dealer`` (seat or None), ``bid`` (or None), ``dealer_points``,
    ``defenders`` (((seat, points), ...) for the three defenders, or every seat before there
    is a dealer), ``needed`` (points the dealer still needs to pass the bid, >= 0, or None),
    ``remaining`` (card points not yet won by anyone, kitty included)."""

    dealer: int | None
    bid: int | None
    dealer_points: int
    defenders: tuple[tuple[int, int], ...]
    needed: int | None
    remaining: int


def points_summary(view: Any, shown: Sequence[int] | None = None) -> PointsSummary:
    """Points against the bid from ``view`` (``shown`` replaces ``view.points_won`` while the
    table counts them up)."""
    pts = list(shown if shown is not None else view.points_won)
    total = 100 * getattr(view.ruleset, "decks", 2)
    if view.dealer is None:
        return PointsSummary(None, view.bid, 0, tuple((s, pts[s]) for s in range(4)), None, total - sum(pts))
    d = view.dealer
    dp = pts[d]
    needed = max(0, (view.bid or 0) - dp)
    return PointsSummary(d, view.bid, dp, tuple((s, pts[s]) for s in range(4) if s != d), needed,
                         total - sum(pts))
