"""The replay viewer 回放 of a 找朋友 hand (docs/CAREER_API.md "找朋友"; docs/REPLAY.md "找朋友").

:class:`ZpyReplayScreen` is :class:`game.scenes.replay_view.ReplayScreen` (same step bar,
slider, keys, swipes) on the :class:`engine.replay_zpy.ZpyFrame` s of a
:class:`engine.replay_zpy.ZpyReplay`: every seat's cards face up, the kitty as dealt then as
buried, trick by trick; the heading shows the dealer, the level played, the trump and the
friend call, and the friend is marked beside its seat once the frame has revealed it
(找朋友 §5); the last step shows the winner, the catchers' points and the levels after.
Review marks as in the 红五 viewer (README "Review"): the friend call and the bury are marked
on step 0, each play on its trick's step, losses in levels.
"""
from __future__ import annotations

from typing import Any

import pygame

from game.i18n import _
from game.scenes.replay_view import ReplayScreen
from game.text import RANKS, card_label, suit_label
from game.widgets import ACCENT, MUTED, TEXT, draw_text

WIN = (140, 230, 150)


def level_text(rank: int) -> str:
    """A level 2..14 as ``2`` … ``10``, ``J``, ``Q``, ``K``, ``A``."""
    return RANKS.get(rank, str(rank))


class ZpyReplayScreen(ReplayScreen):
    """The 找朋友 viewer (module docstring). Same public attributes as ReplayScreen
    (``replay``, ``frames``, ``step``, ``last_step``, ``go``, and the review 复盘's
    ``review_result``, ``marks``, ``drawn``); ``review`` as for ReplayScreen:
    ``(db_path, record_id)`` of the record shown, ``(None, None)`` for a replay file, or None
    (no Review button)."""

    def __init__(self, app: Any, replay: Any, on_close: Any = None, review: Any = None) -> None:
        super().__init__(app, replay, on_close=on_close, review=review)

    def last_trick(self, f: Any) -> Any:
        """The trick that ended at frame ``f`` (None at step 0)."""
        return f.tricks[-1] if f.trick_no and f.tricks else None

    def info_line(self, f: Any) -> str:
        """Dealer, level, trump (无主 for none) and the friend call."""
        trump = suit_label(f.trump) if f.trump else _("NT")
        call = ""
        if f.friend_call:
            card, nth = f.friend_call
            call = " · " + _("friend: {card} #{nth}").format(card=card_label(card), nth=nth)
        return _("Dealer {name} · level {level} · trump {trump}").format(
            name=self.names[f.dealer], level=level_text(f.level), trump=trump) + call

    def seat_role(self, f: Any, s: int) -> str:
        """Dealer, or Friend once this frame has revealed it."""
        if s == f.dealer:
            return _("Dealer")
        return _("Friend") if f.friend is not None and s == f.friend else ""

    def status(self) -> tuple[str, tuple]:
        """The trick's leader, winner and points; at step 0 what is shown."""
        f = self.frames[self.step]
        t = self.last_trick(f)
        if t is None:
            return _("Dealer {name}: the kitty as dealt and as buried").format(name=self.names[f.dealer]), MUTED
        return _("Trick {k}: led by {leader}, won by {name}, {points} points").format(
            k=t.trick_no, leader=self.names[t.leader], name=self.names[t.winner], points=t.points), ACCENT

    def trump_context(self, f: Any) -> Any:
        """The 找朋友 card order of the frame (level cards and jokers, §6-§7)."""
        return self.replay.ruleset.trump_context(f.trump, level=f.level)

    def draw_final(self, surf: pygame.Surface, f: Any, sy: int) -> None:
        """The winner and catchers' points, then every seat's level after the hand."""
        s = f.settlement
        if s is None:
            return
        m = self.metrics
        a = self.area
        head = (_("Dealer side wins, catchers {points} points") if s.winner == "dealer"
                else _("Catchers win with {points} points")).format(points=s.catcher_points)
        draw_text(surf, head, m.small, WIN if s.winner == "dealer" else ACCENT, (a.centerx, sy + m.small + m.gap),
                  anchor="midtop", bold=True, max_width=a.w - 4 * m.margin)
        lv = " · ".join(f"{self.names[i]} {level_text(v)}" for i, v in enumerate(s.levels))
        draw_text(surf, _("Levels after: {list}").format(list=lv), m.small, TEXT,
                  (a.centerx, sy + 2 * (m.small + m.gap)), anchor="midtop", max_width=a.w - 4 * m.margin)
