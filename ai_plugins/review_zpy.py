"""The review 复盘 of recorded 找朋友 hands: what :mod:`ai_plugins.review` needs to know about
them (RULES.md "找朋友" §4–§7).

Reviewed decisions of the seat: the friend call 叫朋友 (kind ``"call"``), the bury (``"bury"``,
the dealer's or a counterer's) and each play (``"play"``). Declarations and counters (亮主,
反牌: :class:`engine.zhaopengyou.Declare` and :class:`~engine.zhaopengyou.Pass`) are not: the
``expert`` takes them by ``basic``'s heuristics, without a search, so it has no estimate to
offer (and a seat is polled many times a deal).

Candidates are those the 找朋友 search itself compares
(:class:`ai_plugins.builtin.expert_zpy.ZpyExpert`): ``basic``'s best
:data:`~ai_plugins.builtin.expert_zpy.MAX_CANDIDATES` plays, its bury candidates, its call
candidates — each time with the seat's own choice first. Values are the search's utility in
**levels** (:func:`ai_plugins.builtin.simulate_zpy.utility`: the levels the seat's final side
gains, negative when the other side gains, plus one level per ``step`` of catchers' points
past the threshold, so that 60 points count like a level); card points are the catchers'.
"""
from __future__ import annotations

from typing import Any

from engine import replay_zpy
from engine.cards import Card
from engine.state import Bury, Play
from engine.zhaopengyou import CallFriend, legal_friend_calls

from .base import AISettings
from .builtin.expert_zpy import MAX_CANDIDATES, ZpyExpert
from .review import ReviewRules, play_candidates

COSTLY_LEVELS = 0.5
"""Loss in levels (the search's utility) from which a 找朋友 decision is flagged costly: half a
level, or about 30 of the catchers' points (half a ``step`` past the threshold)."""


def searcher(seat: int, seed: int, samples: int) -> ZpyExpert:
    """A fresh 找朋友 search for ``seat`` with a fixed world count ``samples`` (reproducible
    from ``seed``)."""
    return ZpyExpert(AISettings(seat=seat, seed=seed, budget_s=3600.0, options={"samples": samples}))


def candidates(ai: ZpyExpert, view: Any, action: Any) -> tuple[str, list[Any], Any]:
    """``(kind, candidates with the chosen first, the chosen in candidate form)`` of one 找朋友
    decision: plays and buries as sorted card tuples, calls as ``(card, nth)``. One candidate
    means forced: a play with one legal option, or the last cards in hand (as the search
    itself returns at once). Raises ValueError for an action that is not reviewed."""
    if isinstance(action, Play):
        chosen = tuple(sorted(Card(c) for c in action.cards))
        return "play", play_candidates(ai.basic, view, chosen, MAX_CANDIDATES), chosen
    if isinstance(action, Bury):
        chosen = tuple(sorted(Card(c) for c in action.cards))
        cands = [chosen] + [c for c in ai.bury_candidates(view, view.bury_count) if c != chosen]
        return "bury", cands, chosen
    if isinstance(action, CallFriend):
        card = action.card if isinstance(action.card, Card) else Card.parse(str(action.card))
        chosen = (card, int(action.nth))
        calls = legal_friend_calls(view.trump, view.level, view.ruleset.options)
        cands = [chosen] + [c for c in ai.call_candidates(view, calls) if c != chosen]
        return "call", cands, chosen
    raise ValueError(f"cannot review {action!r}")


def reviewed(action: Any) -> bool:
    """True for the seat's actions the review looks at: calls, buries, plays."""
    return isinstance(action, (CallFriend, Bury, Play))


RULES = ReviewRules("zhaopengyou", "levels", "catchers", COSTLY_LEVELS, replay_zpy.start, reviewed,
                    searcher, candidates)
"""The review of 找朋友 hands (calls, buries, plays; levels; the catchers' card points)."""

__all__ = ["RULES", "COSTLY_LEVELS", "candidates", "reviewed", "searcher"]
