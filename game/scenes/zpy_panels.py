"""The 找朋友 (Finding Friends) phase panels: declaring 亮主 while the cards are dealt and
countering 反牌 (:class:`DeclarePanel`), the dealer's friend call 叫朋友 (:class:`FriendPanel`)
and the settlement with the kitty multiplier and every seat's level (:class:`ZpySettlePanel`).

Legality is the engine's: the declarations offered are ``view.legal_declarations`` (each
judged by :func:`engine.zhaopengyou_rules.check_declaration`), a friend call is checked with
:func:`engine.zhaopengyou_rules.friend_call_error` before it is sent (RULES.md "找朋友").
"""
from __future__ import annotations

from typing import Any

import pygame

from game.i18n import _
from game.scenes.base import Panel
from game.scenes.settle import WIN, open_review, review_button
from game.scenes.zpy_hud import FRIEND_GOLD, friend_call_text, level_name
from game.text import SUIT_SYMBOL, card_label, cards_label, reason_text, seat_name
from game.widgets import ACCENT, ERROR, MUTED, TEXT, Button, button_width, draw_panel, draw_text

def N_(message: str) -> str:
    """Mark a message for the catalog (translated where shown)."""
    return message


#: the copy buttons of the friend call (which copy of the card: 第1张, 第2张, 第3张)
COPY_LABELS = (N_("1st"), N_("2nd"), N_("3rd"))
RANK_KEYS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKER_KEYS = ("SJ", "BJ")


class DeclarePanel(Panel):
    """The deal (and the counter round): a Declare button per declaration the engine allows
    now (lit only then: disabled while the seat holds none), and Pass."""

    def buttons(self, view: Any) -> list[Button]:
        """Pass and one Declare per legal declaration on the local seat's window; a dimmed
        Declare while the deal goes on without one."""
        if view.seat is None:
            return []
        lay = self.scene.layout
        counter = view.phase.value == "counter"
        word = _("Counter") if counter else _("Declare")
        if not view.my_turn or not view.legal_declarations:
            if counter:
                return []
            r = lay.button_row([button_width(word, lay.font_size, round(lay.button_h * 3))])[0]
            return [Button("declare:none", r, word, enabled=False)]
        items = [("declare:pass", _("Don't counter") if counter else _("Don't declare"), None, "flat")]
        for i, cards in enumerate(view.legal_declarations):
            items.append((f"declare:{i}", f"{word} {cards_label(cards)}", cards, "primary"))
        widths = [button_width(lbl, lay.font_size, min_w=round(lay.button_h * 1.8)) for _k, lbl, _c, _s in items]
        rects = lay.button_row(widths)
        return [Button(k, r, lbl, style=st, value=c) for (k, lbl, c, st), r in zip(items, rects)]

    def on_button(self, button: Button, view: Any) -> None:
        """Declare the button's cards, or pass."""
        from engine.zhaopengyou import Declare, Pass

        if button.value is None:
            self.scene.submit(Pass(view.seat))
        else:
            self.scene.submit(Declare(view.seat, tuple(button.value)))

    def prompt(self, view: Any, now: float) -> str:
        """The local seat's chance, or how the deal / counter round goes."""
        counter = view.phase.value == "counter"
        if view.my_turn:
            if counter:
                return _("You may counter the trump, or pass")
            return _("You may declare the trump, or pass")
        if counter:
            return _("Counter round: others may counter the trump…")
        total = view.ruleset.hand_size * view.ruleset.players
        return _("Dealing: card {k} of {n}").format(k=view.cards_dealt, n=total)


class FriendPanel(Panel):
    """The dealer's friend call: a rank, a suit and which copy (1..3) of that card, with the
    rule's objection shown (and Call disabled) while the choice is not allowed."""

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.reset()

    def reset(self) -> None:
        """Back to the default choice: the first copy of the ace of spades (of the first side
        suit, once the trump is known and nothing was chosen yet: see :meth:`buttons`)."""
        self.rank, self.suit, self.nth = "A", "S", 1
        self.touched = False

    def card(self) -> Any:
        """The chosen engine card."""
        from engine.cards import Card

        if self.rank in JOKER_KEYS:
            return Card.parse(self.rank)
        return Card.parse(self.rank + self.suit)

    def error(self, view: Any) -> str | None:
        """Why the chosen call is not allowed (English rule text), or None."""
        from engine import zhaopengyou_rules as zr

        why = zr.friend_call_error(zr.FriendCall(self.card(), self.nth), view.trump, view.level,
                                   view.ruleset.options)
        return str(why) if why else None

    def ranks(self, view: Any) -> list[str]:
        """The rank keys offered: 2..A, and the jokers when any card may be called."""
        return list(RANK_KEYS) + (list(JOKER_KEYS) if view.ruleset.options.friend_card == "any" else [])

    def _rank_rows(self, width: int) -> int:
        """1 when every rank fits one row at 48 px a button, else 2."""
        lay = self.scene.layout
        per = len(self.ranks(self.scene.view))
        gap = max(3, lay.margin // 2)
        return 1 if 48 * per + gap * (per - 1) + 2 * lay.margin <= width else 2

    def box(self) -> pygame.Rect:
        """Where the chooser is drawn: at the bottom of the trick area, left of the points
        panel when the two would meet."""
        lay = self.scene.layout
        ta = lay.trick_area
        m = lay.margin
        gap = max(3, m // 2)
        rows = self._rank_rows(ta.w) + 1
        h = min(ta.h, rows * (lay.button_h + gap) + lay.small_font + m * 3)
        box = pygame.Rect(ta.x, ta.bottom - h, ta.w, h)
        for r in (lay.scores_rect, lay.counter_rect, lay.plates[1], lay.backs[1]):
            if box.colliderect(r) and r.x > box.centerx:
                box.w = r.x - m - box.x
        if self._rank_rows(box.w) + 1 > rows:  # narrowed: two rows of ranks after all
            h = min(ta.h, (rows + 1) * (lay.button_h + gap) + lay.small_font + m * 3)
            box = pygame.Rect(box.x, ta.bottom - h, box.w, h)
        return box

    def buttons(self, view: Any) -> list[Button]:
        """Rank, suit and copy buttons in the chooser, and Call in the action bar."""
        if not view.my_turn:
            return []
        if not self.touched and self.error(view):  # start from an allowed call: a side ace
            side = next((x for x in "SHCD" if x != view.trump), "S")
            self.rank, self.suit = "A", side
        lay = self.scene.layout
        box = self.box()
        m = lay.margin
        gap = max(3, m // 2)
        row_h = lay.button_h
        top = box.y + lay.small_font + m * 2
        out: list[Button] = []
        ranks = self.ranks(view)
        fs = lay.min_font
        rank_rows = self._rank_rows(box.w)
        per = len(ranks) if rank_rows == 1 else (len(ranks) + 1) // 2
        w = max(40, (box.w - 2 * m - gap * (per - 1)) // per)
        y = top
        for i, k in enumerate(ranks):
            if i and i % per == 0:
                y += row_h + gap
            x = box.x + m + (i % per) * (w + gap)
            lbl = _("SJ") if k == "SJ" else _("BJ") if k == "BJ" else k
            out.append(Button(f"fr:rank:{k}", pygame.Rect(x, y, w, row_h), lbl, style="suit",
                              selected=self.rank == k, font_size=fs))
        y += row_h + gap
        joker = self.rank in JOKER_KEYS
        slot = max(40, (box.w - 2 * m - gap * 6) // 7)  # four suits and three copies share the row
        for i, s in enumerate("SHCD"):
            out.append(Button(f"fr:suit:{s}", pygame.Rect(box.x + m + i * (slot + gap), y, slot, row_h),
                              SUIT_SYMBOL[s], style="suit", selected=self.suit == s and not joker,
                              enabled=not joker))
        for i, n in enumerate((1, 2, 3)):
            x = box.x + m + (4 + i) * (slot + gap)
            out.append(Button(f"fr:nth:{n}", pygame.Rect(x, y, slot, row_h), _(COPY_LABELS[n - 1]), style="suit",
                              selected=self.nth == n, font_size=fs))
        label = _("Call: {call}").format(call=friend_call_text((self.card(), self.nth)))
        r = lay.button_row([button_width(label, lay.font_size, round(lay.button_h * 4))])[0]
        out.append(Button("fr:call", r, label, style="primary", enabled=self.error(view) is None))
        return out

    def on_button(self, button: Button, view: Any) -> None:
        """Change the choice, or call."""
        from engine.zhaopengyou import CallFriend

        parts = button.key.split(":")
        self.touched = True
        if parts[1] == "rank":
            self.rank = parts[2]
        elif parts[1] == "suit":
            self.suit = parts[2]
        elif parts[1] == "nth":
            self.nth = int(parts[2])
        elif parts[1] == "call":
            self.scene.submit(CallFriend(view.seat, self.card(), self.nth))
            return
        self.scene.invalidate()

    def select(self, card: Any, nth: int) -> None:
        """Choose ``card`` (an engine card) and copy ``nth`` directly (keyboard, tests)."""
        if card.suit is None:
            self.rank = "BJ" if card.rank >= 16 else "SJ"
        else:
            self.rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, str(card.rank))
            self.suit = card.suit
        self.nth = nth
        self.touched = True
        self.scene.invalidate()

    def prompt(self, view: Any, now: float) -> str:
        """The dealer's instruction with the objection to the current choice, or who calls."""
        if view.my_turn:
            why = self.error(view)
            if why:
                return _("Not allowed: {why}").format(why=reason_text(why))
            return _("Call your friend: choose a card and which copy")
        if view.dealer is None:
            return ""
        return _("{name} is calling a friend…").format(name=seat_name(view.dealer, view.seat, self.scene.names))

    def draw(self, surf: pygame.Surface, view: Any) -> None:
        """The chooser's box and title (its buttons are drawn by the scene)."""
        if not view.my_turn:
            return
        lay = self.scene.layout
        box = self.box()
        draw_panel(surf, box, color=(8, 30, 20, 240), border=FRIEND_GOLD, radius=12)
        draw_text(surf, _("Call a friend"),
                  lay.small_font, FRIEND_GOLD, (box.centerx, box.y + lay.margin), anchor="midtop", bold=True,
                  max_width=box.w - 2 * lay.margin)


def lan_match_over(scene: Any, view: Any) -> bool:
    """True when ``view``'s settled hand ended the game at a table hosted elsewhere (LAN): a
    table without a ``match`` of its own, whose host deals no further hand."""
    s = getattr(view, "settlement", None)
    table = getattr(scene, "table", None)
    return bool(s is not None and s.game_over and table is not None and getattr(table, "match", None) is None
                and hasattr(table, "match_over"))


class ZpySettlePanel(Panel):
    """The 找朋友 settlement overlay: who won, the catchers' points against the threshold, the
    kitty and its multiplier, every seat's side and level before → after; Next hand, and Review
    复盘 beside it when the hand was recorded for the profile. Once the
    game is over: New match at a local table (the same seats from level 2); at a LAN table,
    whose host deals no further hand, "Match over" with the final standings and Leave to menu
    (mouse, touch, or Enter: the button is the primary one)."""

    def buttons(self, view: Any) -> list[Button]:
        """Next hand, New match (local, game over) or Leave to menu (LAN, match over) at the
        bottom of the overlay."""
        if view.settlement is None or not self.scene.show_settlement:
            return []
        lay = self.scene.layout
        key = "next"
        if lan_match_over(self.scene, view) and getattr(self.scene, "on_leave", None) is not None:
            key, label = "leave", _("Leave to menu")
        else:
            label = _("New match") if view.settlement.game_over else _("Next hand")
        w = button_width(label, lay.font_size, round(lay.button_h * 4))
        r = pygame.Rect(0, 0, w, lay.button_h)
        r.midbottom = (lay.overlay.centerx, lay.overlay.bottom - lay.margin * 2)
        return [Button(key, r, label, style="primary")] + review_button(self.scene, r)

    def on_button(self, button: Button, view: Any) -> None:
        """Ask the app for the next hand (or, match over at a LAN table, to leave it);
        Review: open the review 复盘 of the hand just recorded."""
        if button.key == "review":
            open_review(self.scene)
            return
        if button.key == "leave":
            self.scene.request_leave()
            return
        self.scene.request_next_hand()

    def draw(self, surf: pygame.Surface, view: Any) -> None:
        """Draw the overlay."""
        s = view.settlement
        if s is None or not self.scene.show_settlement:
            return
        lay = self.scene.layout
        box = lay.overlay
        draw_panel(surf, box, color=(8, 30, 20, 255), border=ACCENT, radius=14)
        m = lay.margin * 2
        fs, ss = lay.font_size, max(lay.small_font, lay.min_font)
        line = round(ss * 1.4)
        names, me = self.scene.names, view.seat
        dealer_won = s.winner == "dealer"
        mine = me is not None and ((me in s.dealer_side) == dealer_won)
        head = _("The dealer's side wins") if dealer_won else _("The catchers win")
        over = lan_match_over(self.scene, view)
        if over:  # the host deals no further hand: this overlay is the match's end
            head = _("Match over") + " · " + head
        y = box.y + m
        draw_text(surf, head, round(fs * 1.3), WIN if mine or me is None else ERROR, (box.centerx, y),
                  anchor="midtop", bold=True, max_width=box.w - 2 * m)
        y += round(fs * 1.3 * 1.5)
        col_w = (box.w - 3 * m) // 2
        left_x, right_x = box.x + m, box.x + 2 * m + col_w
        opts = view.ruleset.options
        friend = (_("alone") if s.alone else
                  ", ".join(seat_name(x, me, names) for x in s.dealer_side if x != view.dealer))
        rows = [
            (_("Dealer"), seat_name(view.dealer, me, names)),
            (friend_call_text(view.friend_call) if view.friend_call else _("Friend"), friend),
            (_("Trump · level"), (SUIT_SYMBOL.get(view.trump, _("no trump")) if view.trump else _("no trump"))
             + " · " + level_name(view.level)),
            (_("Kitty points"), str(s.kitty_points)),
            (_("Kitty multiplier"), f"×{s.multiplier}" if s.multiplier else _("none")),
            (_("Catchers' points"), f"{s.catcher_points} / {opts.threshold}"),
        ]
        ly = y
        for label, value in rows:
            v = draw_text(surf, value, ss, TEXT, (left_x + col_w, ly), anchor="topright", bold=True,
                          max_width=col_w // 2)
            draw_text(surf, label, ss, MUTED, (left_x, ly), max_width=max(10, v.x - left_x - ss))
            ly += line
        ry = y
        draw_text(surf, _("Kitty (buried cards)"), ss, MUTED, (right_x, ry))
        ry += line
        kitty = tuple(view.buried or ())
        if kitty:
            ch = max(30, min(round(lay.card_h * 0.55), line * 3))
            cw = round(ch * 0.7)
            step = min(cw + 2, (col_w - cw) // max(1, len(kitty) - 1)) if len(kitty) > 1 else 0
            for i, c in enumerate(kitty):
                surf.blit(self.scene.renderer.face(c, cw, ch), (right_x + i * step, ry))
            ry += ch + lay.margin
        ty = max(ly, ry) + lay.margin // 2
        w = box.w - 2 * m
        cols = [left_x, left_x + round(w * 0.45), left_x + round(w * 0.68)]
        for x, h in zip(cols, (_("Player"), _("Side"), _("Final standings") if over else _("Level"))):
            draw_text(surf, h, ss, MUTED, (x, ty), max_width=w // 4)
        ty += line
        before = view.levels
        for seat in range(len(s.levels)):
            side = _("Dealer") if seat == view.dealer else _("Friend") if seat in s.dealer_side else _("Catcher")
            col = ACCENT if seat in s.dealer_side else TEXT
            draw_text(surf, seat_name(seat, me, names), ss, col, (cols[0], ty), max_width=cols[1] - cols[0] - 6)
            draw_text(surf, side, ss, col, (cols[1], ty), max_width=cols[2] - cols[1] - 6)
            up = s.levels[seat] - before[seat]
            txt = f"{level_name(before[seat])} → {level_name(s.levels[seat])}" + (f"  (+{up})" if up else "")
            draw_text(surf, txt, ss, WIN if up else TEXT, (cols[2], ty), bold=bool(up),
                      max_width=box.right - m - cols[2])
            ty += line
        if s.game_over:
            draw_text(surf, _("Game over: {names} won").format(
                names=", ".join(seat_name(x, me, names) for x in s.game_winners)), ss, ACCENT, (box.centerx, ty),
                anchor="midtop", bold=True, max_width=w)
