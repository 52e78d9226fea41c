"""Settlement 结算: the dealer's final against the bid, the kitty, red-five captures, game
points per seat, accumulated totals with titles, and a Next hand button."""
from __future__ import annotations

from typing import Any

import pygame

from game.i18n import _, current_language
from game.scenes.base import Panel
from game.text import seat_name
from game.widgets import ACCENT, ERROR, MUTED, TEXT, Button, button_width, draw_panel, draw_text

WIN = (140, 230, 150)


def signed(n: int) -> str:
    """``+15`` / ``-20`` / ``0``."""
    return f"{n:+d}" if n else "0"


def title_for(points: int) -> str:
    """The engine's title 等级 for accumulated ``points`` in the UI language."""
    from engine.scoring import title_for as engine_title

    return engine_title(points, "zh" if current_language() == "zh" else "en")


def review_button(scene: Any, beside: pygame.Rect) -> list[Button]:
    """The settlement's Review 复盘 button (key ``review``), left of ``beside`` (the Next
    button) at the same height, when the hand was recorded for the profile (the scene's
    ``review_record()`` gives its id; 红五 and 找朋友 alike); else ``[]``."""
    record = getattr(scene, "review_record", None)
    if not callable(record) or record() is None:
        return []
    lay = scene.layout
    rl = _("Review")
    rr = pygame.Rect(0, 0, button_width(rl, lay.font_size, round(lay.button_h * 2.5)), lay.button_h)
    rr.bottomright = (beside.x - lay.margin * 2, beside.bottom)
    return [Button("review", rr, rl)]


def open_review(scene: Any) -> None:
    """The Review button: open the review of the hand just recorded (the scene's
    ``on_review(record_id)``), if there is one."""
    record = scene.review_record() if callable(getattr(scene, "review_record", None)) else None
    if record is not None and callable(getattr(scene, "on_review", None)):
        scene.on_review(record)


class SettlePanel(Panel):
    """The settlement overlay (drawn over the table once the hand is settled)."""

    def buttons(self, view: Any) -> list[Button]:
        """The Next hand button at the bottom of the overlay, and Review 复盘 beside it when
        this hand was recorded for the profile (the scene's ``review_record()`` gives its id)."""
        if view.settlement is None or not self.scene.show_settlement:
            return []
        lay = self.scene.layout
        label = _("Next hand")
        w = button_width(label, lay.font_size, round(lay.button_h * 4))
        r = pygame.Rect(0, 0, w, lay.button_h)
        r.midbottom = (lay.overlay.centerx, lay.overlay.bottom - lay.margin * 2)
        return [Button("next", r, label, style="primary")] + review_button(self.scene, r)

    def on_button(self, button: Button, view: Any) -> None:
        """Next hand: ask the app for it; Review: open the review of the recorded hand."""
        if button.key == "review":
            open_review(self.scene)
            return
        self.scene.request_next_hand()

    def prompt(self, view: Any, now: float) -> str:
        """Nothing: the overlay speaks for itself."""
        return ""

    def draw(self, surf: pygame.Surface, view: Any) -> None:
        """Draw the overlay (only once the scene decided to show it)."""
        s = view.settlement
        if s is None or not self.scene.show_settlement:
            return
        lay = self.scene.layout
        box = lay.overlay
        draw_panel(surf, box, color=(8, 30, 20, 255), border=ACCENT, radius=14)  # opaque: nothing shows through
        m = lay.margin * 2
        fs, ss = lay.font_size, max(lay.small_font, lay.min_font)
        line = round(ss * 1.45)
        names = self.scene.names
        me = view.seat
        won = s.dealer_final > 0
        head = (_("Dealer wins: {final}") if won else _("Dealer loses: {final}")).format(final=signed(s.dealer_final))
        y = box.y + m
        draw_text(surf, head, round(fs * 1.4), WIN if won else ERROR, (box.centerx, y), anchor="midtop", bold=True,
                  max_width=box.w - 2 * m)
        y += round(fs * 1.4 * 1.5)
        col_w = (box.w - 3 * m) // 2
        left_x, right_x = box.x + m, box.x + 2 * m + col_w
        dealer_name = seat_name(s.dealer, me, names)
        kitty_note = (_("counted for the dealer") if s.kitty_counted else
                      _("taken by {name}, not counted").format(name=seat_name(s.kitty_taker, me, names)))
        # (label, value, note): a note is a line of its own under the row, at the row's size
        rows = [
            (_("Dealer"), dealer_name, ""),
            (_("Bid"), str(s.bid), ""),
            (_("Points won in tricks"), str(s.trick_points[s.dealer]), ""),
            (_("Kitty points"), str(s.kitty_points), kitty_note),
            (_("Red fives"), signed(s.red_five_adjust), ""),
        ]
        if s.penalty_adjust:
            rows.append((_("Failed throw penalty"), signed(s.penalty_adjust), ""))
        rows.append((_("Dealer final (points − bid)"), signed(s.dealer_final), ""))
        ly = y
        indent = round(ss * 1.2)
        for label, value, note in rows:
            v = draw_text(surf, value, ss, TEXT, (left_x + col_w, ly), anchor="topright", bold=True,
                          max_width=col_w // 2)
            draw_text(surf, label, ss, MUTED, (left_x, ly), max_width=v.x - left_x - ss)
            ly += line
            if note:
                draw_text(surf, note, ss, MUTED, (left_x + col_w, ly), anchor="topright", max_width=col_w - indent)
                ly += line
        # kitty cards
        ry = y
        draw_text(surf, _("Kitty (buried cards)"), ss, MUTED, (right_x, ry))
        ry += line
        kitty = tuple(s.kitty)
        if kitty:
            ch = max(30, min(round(lay.card_h * 0.55), line * 3))
            cw = round(ch * 0.7)
            step = min(cw + 2, (col_w - cw) // max(1, len(kitty) - 1)) if len(kitty) > 1 else 0
            for i, c in enumerate(kitty):
                surf.blit(self.scene.renderer.face(c, cw, ch), (right_x + i * step, ry))
            ry += ch + lay.margin
        draw_text(surf, _("Red five captures"), ss, MUTED, (right_x, ry))
        ry += line
        if not s.red_fives:
            draw_text(surf, _("none"), ss, TEXT, (right_x, ry))
            ry += line
        for frm, to in s.red_fives:
            txt = _("♥5 of {a} taken by {b}").format(a=seat_name(frm, me, names), b=seat_name(to, me, names))
            draw_text(surf, txt, ss, TEXT, (right_x, ry), max_width=col_w)
            ry += line
        # per-seat table
        ty = max(ly, ry) + lay.margin
        totals = self.scene.totals
        cols = [left_x, left_x + round((box.w - 2 * m) * 0.42), left_x + round((box.w - 2 * m) * 0.6),
                left_x + round((box.w - 2 * m) * 0.78)]
        for x, h in zip(cols, (_("Player"), _("This hand"), _("Total"), _("Title"))):
            draw_text(surf, h, ss, MUTED, (x, ty), max_width=(box.w - 2 * m) // 5)
        ty += line
        titles = career_titles(self.scene)
        for seat in range(4):
            col = ACCENT if seat == s.dealer else TEXT
            name = seat_name(seat, me, names) + ("  " + _("(dealer)") if seat == s.dealer else "")
            draw_text(surf, name, ss, col, (cols[0], ty), max_width=cols[1] - cols[0] - 6)
            gp = s.game_points[seat]
            draw_text(surf, signed(gp), ss, WIN if gp > 0 else ERROR if gp < 0 else TEXT, (cols[1], ty), bold=True)
            tot = totals[seat] if seat < len(totals) else 0
            draw_text(surf, signed(tot), ss, TEXT, (cols[2], ty))
            shown = titles[seat] if seat < len(titles) and titles[seat] else title_for(tot)
            draw_text(surf, shown, ss, TEXT, (cols[3], ty), max_width=box.right - m - cols[3])
            ty += line
        draw_career_line(surf, self.scene, (box.centerx, ty + lay.margin // 2), ss, box.w - 2 * m)


def career_titles(scene: Any) -> list[str]:
    """The seats' profile titles the table scene knows (README "Career"), "" where none."""
    titles = getattr(scene, "titles", None)
    try:
        return list(titles()) if callable(titles) else list(titles or [])
    except Exception:  # a title is decoration: never break the settlement
        return []


def draw_career_line(surf: pygame.Surface, scene: Any, pos: tuple[int, int], size: int, width: int) -> None:
    """Under the seats: the profile's title after this hand, its accumulated points and its
    clamped coin change (``scene.career``, a :class:`game.career.Recorded`; nothing without)."""
    rec = getattr(scene, "career", None)
    if rec is None:
        return
    from engine.scoring import title_for as engine_title

    lang = "zh" if current_language() == "zh" else "en"
    text = _("Your title: {title} ({points} points) · coins {coins}").format(
        title=engine_title(rec.points_after, lang), points=rec.points_after, coins=f"{rec.coins:+,}" if rec.coins else "0")
    draw_text(surf, text, size, ACCENT, pos, anchor="midtop", bold=True, max_width=width)
