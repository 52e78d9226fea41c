"""Review 复盘 marks inside the replay viewer 回放 (README "Review"): where a review of the hand
exists, the steps where the reviewed seat lost points, a badge for each, and the comparison
of that seat's play with the better one.

Steps are those of :class:`game.scenes.replay_view.ReplayScreen`: step k is the table after
trick k, step 0 the table after the bury. A play decision of trick k belongs to step k; the
bid, trump and bury decisions (``trick == 0``) belong to step 0. A step is *marked* when one
of its decisions lost points (``loss > 0``) and *costly* when one of them is flagged costly
(the review's threshold, :attr:`ai_plugins.review.Review.costly_at`). Losses are in the
review's unit (:mod:`ai_plugins.review`): mean game points for 红五, levels for 找朋友 (whose
friend call and bury also belong to step 0); card points are the mean card points the dealer
(红五) or the catchers (找朋友) take.

Pure helpers plus the two drawing functions (badge, comparison band); the viewer owns the
layout.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import pygame

from game.i18n import _
from game.widgets import ERROR, draw_text

LOSS = (255, 176, 70)
"""Colour of a mark where points were lost but not costly (costly ones are ERROR red)."""
GOOD = (140, 230, 150)
"""Colour of the better play."""


def N_(message: str) -> str:
    """Mark a message for the catalog (translated where shown)."""
    return message


#: decision kinds (ai_plugins.review.Decision.kind) as named in the comparison and the review screen
KIND_LABELS = {"bid": N_("Bid"), "trump": N_("Trump"), "bury": N_("Bury"), "play": N_("Play"),
               "call": N_("Friend call")}


@dataclass(frozen=True)
class StepMark:
    """One marked step: ``step``; ``loss`` (mean game points lost at it, summed over its
    decisions, > 0); ``costly`` (one of them is flagged costly); ``decisions`` (those that
    lost points, largest loss first: :class:`ai_plugins.review.Decision`)."""

    step: int
    loss: float
    costly: bool
    decisions: tuple


def step_of(decision: Any) -> int:
    """The viewer step a decision belongs to: its trick for a play, else 0."""
    return int(decision.trick) if decision.kind == "play" and decision.trick else 0


def step_marks(review: Any, last_step: int) -> dict[int, StepMark]:
    """``{step: StepMark}`` of ``review`` (an :class:`ai_plugins.review.Review`, or None: no
    marks) for a viewer whose steps are 0..``last_step``; decisions past it are ignored."""
    if review is None:
        return {}
    by: dict[int, list] = {}
    for d in review.decisions:
        k = step_of(d)
        if d.loss > 0 and not d.forced and 0 <= k <= last_step:
            by.setdefault(k, []).append(d)
    out = {}
    for k, ds in sorted(by.items()):
        ds.sort(key=lambda d: (-d.loss, d.line))
        out[k] = StepMark(k, round(sum(d.loss for d in ds), 3), any(d.costly for d in ds), tuple(ds))
    return out


def jump_targets(marks: Mapping[int, StepMark]) -> list[int]:
    """The steps "next costly decision" stops at: the costly steps, or every marked step when
    the review flagged none costly. Ascending."""
    costly = [k for k, m in marks.items() if m.costly]
    return sorted(costly or marks)


def next_target(marks: Mapping[int, StepMark], step: int, forward: bool = True) -> int | None:
    """The first jump target after ``step`` (``forward``) or before it; None when there is none."""
    targets = jump_targets(marks)
    if forward:
        return next((k for k in targets if k > step), None)
    return next((k for k in reversed(targets) if k < step), None)


def loss_text(loss: float) -> str:
    """A loss as shown on a badge: ``−2.1`` (a true minus sign, one decimal)."""
    return f"−{loss:.1f}"


def mark_color(mark: StepMark) -> tuple[int, int, int]:
    """ERROR red for a costly step, orange otherwise."""
    return ERROR if mark.costly else LOSS


def draw_badge(surf: pygame.Surface, mark: StepMark, size: int, pos: tuple[int, int],
               anchor: str = "center") -> pygame.Rect:
    """A pill with the step's loss (``−2.1``) in its colour at ``pos`` (``anchor`` a Rect
    attribute name); ``size`` the text px. Returns its rect."""
    from game import fonts

    text = loss_text(mark.loss)
    tw, th = fonts.get_font(size, bold=True).size(text)
    r = pygame.Rect(0, 0, tw + size, th + 4)
    setattr(r, anchor, pos)
    pygame.draw.rect(surf, mark_color(mark), r, border_radius=r.h // 2)
    draw_text(surf, text, size, (20, 12, 10), r.center, anchor="center", bold=True)
    return r


def action_text(decision: Any, cards: tuple, text: str) -> str:
    """A decision's action as text when no cards are drawn: a suit, a bid, ``Pass``, or a
    找朋友 friend call (``"AS/2"`` shown as "Friend: 2nd ♠A")."""
    from game.scenes.xray import action_label

    if cards:
        from engine.cards import Card
        from game.text import cards_label

        return cards_label([Card.parse(c) for c in cards])
    if getattr(decision, "kind", "") == "call" and "/" in text:
        from engine.cards import Card
        from game.scenes.zpy_hud import friend_call_text

        card, _sep, nth = text.partition("/")
        try:
            return friend_call_text((Card.parse(card), int(nth)))
        except ValueError:
            return text
    return action_label(text)


#: the gain of the better action, by the review's unit (ai_plugins.review.Review.unit)
GAIN_TEXTS = {"game points": N_("+{gp} game points"), "levels": N_("+{gp} levels")}
#: whose card points the review's estimates give (ai_plugins.review.ReviewRules.points)
POINTS_TEXTS = {"dealer": N_("dealer's card points {chosen} → {best}"),
                "catchers": N_("catchers' card points {chosen} → {best}")}


def gain_text(decision: Any, game: str = "hongwu") -> str:
    """``+2.1 game points`` (红五) or ``+0.6 levels`` (找朋友, ``game`` "zhaopengyou"), and the
    card points of the dealer (红五) or the catchers (找朋友) with both actions when known.
    Raises ValueError for an unknown ``game``."""
    from ai_plugins.review import rules_for

    rules = rules_for(game)
    gain = _(GAIN_TEXTS.get(rules.unit, GAIN_TEXTS["game points"])).format(gp=f"{decision.loss:.1f}")
    if decision.chosen_points is not None and decision.best_points is not None:
        gain += " · " + _(POINTS_TEXTS.get(rules.points, POINTS_TEXTS["dealer"])).format(
            chosen=f"{decision.chosen_points:.0f}", best=f"{decision.best_points:.0f}")
    return gain


def draw_comparison(surf: pygame.Surface, rect: pygame.Rect, decision: Any, size: int,
                    face: Callable[[Any, int, int], pygame.Surface] | None,
                    game: str = "hongwu") -> dict[str, pygame.Rect]:
    """One decision's comparison in ``rect``, side by side: "You: <chosen>", "better:
    <best>", then the gain (:func:`gain_text` in ``game``'s unit). Cards are drawn with
    ``face(card, w, h)`` when given (plays and buries), else as text. Returns the rects drawn by part
    (``label``, ``chosen``, ``better``, ``best``, ``gain``) for tests and layout checks."""
    from engine.cards import Card

    out: dict[str, pygame.Rect] = {}
    col = mark_color(StepMark(0, decision.loss, decision.costly, ()))
    gap = max(4, size // 2)
    kind = "" if decision.kind == "play" else _(KIND_LABELS.get(decision.kind, decision.kind)) + " · "
    x, cy = rect.x, rect.centery
    ch = max(16, rect.h - 4)
    cw = round(ch * 0.7)
    # the gain text gets what is left after the two plays; the plays share the rest equally
    gain = gain_text(decision, game)
    from game import fonts

    gain_w = min(fonts.get_font(size).size(gain)[0], rect.w // 3)
    part_w = max(cw, (rect.w - gain_w - 3 * gap) // 2)

    def play(x0: int, label: str, cards: tuple, text: str, colour, key: str) -> int:
        lab = draw_text(surf, label, size, colour, (x0, cy), anchor="midleft", bold=True,
                        max_width=max(20, part_w // 3))
        out["label" if key == "chosen" else "better"] = lab
        x1 = lab.right + gap // 2
        room = x0 + part_w - x1
        if cards and face is not None:
            n = len(cards)
            step = min(cw + 2, max(6, (room - cw) // max(1, n - 1))) if n > 1 else 0
            for i, c in enumerate(cards):
                surf.blit(face(Card.parse(c), cw, ch), (x1 + i * step, rect.y + (rect.h - ch) // 2))
            r = pygame.Rect(x1, rect.y + (rect.h - ch) // 2, step * (n - 1) + cw, ch)
        else:
            r = draw_text(surf, action_text(decision, (), text), size, colour, (x1, cy), anchor="midleft",
                          max_width=max(20, room))
        out[key] = r
        return x0 + part_w + gap

    x = play(x, kind + _("You:"), decision.chosen_cards, decision.chosen, col, "chosen")
    x = play(x, _("better:"), decision.best_cards, decision.best, GOOD, "best")
    out["gain"] = draw_text(surf, gain, size, GOOD, (x, cy), anchor="midleft", max_width=max(20, rect.right - x))
    return out


def draw_slider_marks(surf: pygame.Surface, marks: Mapping[int, StepMark], x_of: Callable[[int], int],
                      y: int, radius: int) -> dict[int, tuple[int, int]]:
    """A dot in the mark's colour over each marked step's tick of the step slider; returns
    ``{step: (x, y)}`` of the dots."""
    out = {}
    for k, mk in marks.items():
        p = (x_of(k), y)
        pygame.draw.circle(surf, mark_color(mk), p, radius)
        out[k] = p
    return out


__all__ = ["StepMark", "step_of", "step_marks", "jump_targets", "next_target", "loss_text", "mark_color",
           "draw_badge", "draw_comparison", "draw_slider_marks", "gain_text", "action_text", "KIND_LABELS"]
