"""Records 战绩 and statistics of the current profile (README "Career"; docs/CAREER_API.md).

:class:`RecordsScreen` lists the profile's recorded hands, newest first: date, dealer 庄 or
defender 闲, bid, trump, the dealer side's card points, the profile's game points and coins.
It scrolls with the wheel, by dragging (mouse or finger) and with ▲ ▼; a tap on a row opens
that hand in the replay viewer 回放. A switch 红五 / 找朋友 (keys ``game:hongwu``,
``game:zhaopengyou``) chooses the game listed; a 找朋友 row shows date, the profile's role
(dealer 庄家, friend 朋友 or catcher 抓分), the level played, trump, the catchers' points and
the profile's levels gained (docs/CAREER_API.md "找朋友"); its tap opens the 找朋友 viewer
(:mod:`game.scenes.replay_zpy_view`). Keys: ``rec:<id>`` (visible rows),
``up``, ``down``, ``stats``, ``back``.

:class:`StatsScreen`: hands, dealer rate and success rate, mean bid, best and worst hand, red
fives captured and lost, titles reached, and the game points over time as a chart
(:func:`game.career.chart.draw_points_chart`). With the same switch on 找朋友: hands, dealer
and friend rates, the dealer side's wins, catcher wins, hands alone, mean catchers' points,
levels gained, matches and games won (:class:`game.career.zpy_stats.ZpyStats`), and the levels
of every seat over the latest match (:func:`game.career.chart.draw_levels_chart`, the
profile's seat drawn thicker). Keys: ``records``, ``back``, ``game:hongwu``, ``game:zhaopengyou``.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pygame

from game import fonts
from game.i18n import _, current_language
from game.scenes.menu import Screen, draw_form_panel
from game.text import RANKS, SUIT_SYMBOL
from game.widgets import ACCENT, ERROR, MUTED, TEXT, Button, draw_text

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

WIN = (140, 230, 150)
#: px a press must move before it scrolls instead of tapping
DRAG_PX = 12


def when(t: float) -> str:
    """A record's local time as ``MM-DD HH:MM``."""
    return time.strftime("%m-%d %H:%M", time.localtime(t))


def trump_text(trump: str | None) -> str:
    """♠ ♥ ♣ ♦ for a suit trump, 无 / NT for no trump, — when unknown."""
    if not trump:
        return "—"
    return SUIT_SYMBOL.get(trump, _("NT") if trump.upper() in ("NT", "N", "NONE") else trump)


def rank_text(rank: int) -> str:
    """A level 2..14 as ``2`` … ``10``, ``J``, ``Q``, ``K``, ``A`` (找朋友 §2)."""
    return RANKS.get(rank, str(rank))


def zpy_role(r: Any) -> str:
    """The profile's side in a 找朋友 hand (a ZpyHandRecord): dealer, friend or catcher."""
    if r.dealer == r.seat:
        return _("Dealer")
    return _("Friend") if r.friend == r.seat else _("Catcher")


GAMES = ("hongwu", "zhaopengyou")


def game_label(game: str) -> str:
    """The switch button's text of ``game``."""
    return _("Hong Wu hands") if game == "hongwu" else _("Find Friends hands")


def signed(n: int) -> str:
    """``+15`` / ``-20`` / ``0`` (thousands separated)."""
    return f"{n:+,}" if n else "0"


class RecordsScreen(Screen):
    """The record list (see the module docstring). Public for tests: ``records`` (newest
    first: :class:`Record` for 红五, :class:`ZpyHandRecord` for 找朋友), ``game`` ("hongwu" or
    "zhaopengyou"), ``offset`` (index of the first row shown), ``rows_shown``."""

    def __init__(self, app: "App", game: str = "hongwu") -> None:
        super().__init__(app)
        self.profile = app.career.current()
        self.offset = 0
        self.set_game(game)
        self.rows_shown = 1
        self._drag: tuple[int, int] | None = None  # (start y, offset then)
        self._dragged = False

    def set_game(self, game: str) -> None:
        """List ``game``'s hands ("hongwu" or "zhaopengyou"; ValueError otherwise)."""
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}: expected one of {GAMES}")
        self.game = game
        st = self.app.career.store()
        if st is None or self.profile is None:
            self.records = []
        elif game == "hongwu":
            self.records = list(reversed(st.records(self.profile.id, ruleset="hongwu")))
        else:
            self.records = list(reversed(st.zpy_hands(self.profile.id)))
        self.offset = 0
        self.invalidate()

    @staticmethod
    def _rid(r: Any) -> int:
        return r.id if hasattr(r, "id") else r.record_id

    def _panel(self) -> pygame.Rect:
        m = self.metrics
        r = pygame.Rect(0, 0, m.w - 2 * m.margin, m.h - 2 * m.margin)
        r.center = (m.w // 2, m.h // 2)
        return r

    def build(self) -> list[Button]:
        """Visible rows, ▲ ▼ at the right, Back and Statistics under them."""
        m = self.metrics
        panel = self._panel()
        self._panel_rect = panel
        top = panel.y + round(m.title * 0.7 * 1.3) + m.gap * 2
        self._head_y = top
        rows_top = top + m.small + m.gap
        foot_y = panel.bottom - m.margin - m.button_h
        side = m.button_h + m.gap
        self._list = pygame.Rect(panel.x + m.margin, rows_top, panel.w - 2 * m.margin - side, foot_y - m.gap - rows_top)
        row_h = m.button_h
        self.rows_shown = max(1, (self._list.h + 4) // (row_h + 4))
        self.offset = max(0, min(self.offset, len(self.records) - self.rows_shown))
        out = []
        for i, r in enumerate(self.records[self.offset:self.offset + self.rows_shown]):
            rect = pygame.Rect(self._list.x, rows_top + i * (row_h + 4), self._list.w, row_h)
            out.append(Button(f"rec:{self._rid(r)}", rect, "", style="flat", value=r))
        x = self._list.right + m.gap
        out.append(Button("up", pygame.Rect(x, rows_top, m.button_h, m.button_h), "▲", enabled=self.offset > 0))
        out.append(Button("down", pygame.Rect(x, self._list.bottom - m.button_h, m.button_h, m.button_h), "▼",
                          enabled=self.offset + self.rows_shown < len(self.records)))
        bw = min(round(220 * max(m.unit, 0.7)), (panel.w - 2 * m.margin - 3 * m.gap) // 4)
        x0 = panel.centerx - 2 * bw - round(1.5 * m.gap)
        keys = [("back", _("Back"), "flat")] + [(f"game:{g}", game_label(g), "primary" if g == self.game else "flat")
                                               for g in GAMES] + [("stats", _("Statistics"), "primary")]
        for i, (key, label, style) in enumerate(keys):
            out.append(Button(key, pygame.Rect(x0 + i * (bw + m.gap), foot_y, bw, m.button_h), label, style=style))
        return out

    def columns(self) -> list[tuple[str, float, str]]:
        """(heading, x share of the row, anchor) per column of the chosen game."""
        if self.game == "zhaopengyou":
            return [(_("Date"), 0.0, "midleft"), (_("Role"), 0.22, "midleft"), (_("Level"), 0.44, "center"),
                    (_("Trump"), 0.56, "center"), (_("Catchers' points"), 0.78, "midright"),
                    (_("Levels gained"), 0.99, "midright")]
        return [(_("Date"), 0.0, "midleft"), (_("Role"), 0.22, "midleft"), (_("Bid"), 0.40, "midright"),
                (_("Trump"), 0.49, "center"), (_("Dealer's points"), 0.62, "midright"), (_("Game points"), 0.8, "midright"),
                (_("Coins"), 0.99, "midright")]

    def scroll(self, rows: int) -> None:
        """Move the list by ``rows`` (positive: towards older hands)."""
        self.offset = max(0, min(self.offset + rows, len(self.records) - self.rows_shown))
        self.invalidate()

    def _drag_to(self, y: int) -> None:
        y0, off0 = self._drag
        if abs(y - y0) >= DRAG_PX:
            self._dragged = True
            self._pressed = None
            self.offset = off0
            self.scroll(round((y0 - y) / (self.metrics.button_h + 4)))

    def handle_event(self, ev: Any) -> None:
        """Wheel and drag (mouse or finger) scroll; the rest as on every screen (a drag never
        taps a row). The mouse events SDL makes from touches only press buttons: their finger
        events do the dragging."""
        if ev.type == pygame.MOUSEWHEEL:
            self.scroll(-ev.y)
            return
        if ev.type in (pygame.FINGERDOWN, pygame.FINGERMOTION, pygame.FINGERUP):
            y = round(ev.y * self.metrics.h)
            if ev.type == pygame.FINGERDOWN and self._list.collidepoint(round(ev.x * self.metrics.w), y):
                self._drag, self._dragged = (y, self.offset), False
            elif ev.type == pygame.FINGERMOTION and self._drag is not None:
                self._drag_to(y)
            elif ev.type == pygame.FINGERUP:
                self._drag = None
            return
        touch = getattr(ev, "touch", False)
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self._list.collidepoint(ev.pos) and not touch:
            self._drag, self._dragged = (ev.pos[1], self.offset), False
        elif ev.type == pygame.MOUSEMOTION and (touch or (self._drag is not None and ev.buttons[0])):
            if not touch:
                self._drag_to(ev.pos[1])
            return
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            self._drag = None
            if self._dragged:
                self._dragged = False
                self._pressed = None
                return
        super().handle_event(ev)

    def on_key(self, ev: Any) -> None:
        """Page Up / Page Down scroll a page; the rest as on every screen."""
        if ev.key == pygame.K_PAGEDOWN:
            self.scroll(self.rows_shown)
        elif ev.key == pygame.K_PAGEUP:
            self.scroll(-self.rows_shown)
        else:
            super().on_key(ev)

    def on_button(self, button: Button) -> None:
        """Open a hand's replay, scroll, statistics or back."""
        key = button.key
        if key.startswith("game:"):
            self.set_game(key[5:])
        elif key.startswith("rec:"):
            self.app.open_replay(int(key[4:]))
        elif key == "up":
            self.scroll(-max(1, self.rows_shown - 1))
        elif key == "down":
            self.scroll(max(1, self.rows_shown - 1))
        elif key == "stats":
            self.app.open_stats(self.game)
        elif key == "back":
            self.app.pop_screen(self)

    def draw_content(self, surf: pygame.Surface) -> None:
        """Panel, title, column headings (rows are drawn over their buttons)."""
        m = self.metrics
        panel = getattr(self, "_panel_rect", None)
        if panel is None:
            return
        draw_form_panel(surf, panel)
        name = self.profile.name if self.profile else ""
        draw_text(surf, _("Records of {name}").format(name=name), round(m.title * 0.7), ACCENT,
                  (panel.centerx, panel.y + m.gap), anchor="midtop", bold=True, max_width=panel.w - 2 * m.margin)
        lx, lw = self._list.x + m.margin, self._list.w - 2 * m.margin
        for head, share, anchor in self.columns():
            ax = lx + round(lw * share)
            a = {"midleft": "topleft", "midright": "topright", "center": "midtop"}[anchor]
            draw_text(surf, head, m.small, MUTED, (ax, self._head_y), anchor=a, max_width=round(lw * 0.2))
        if not self.records:
            draw_text(surf, _("No hands recorded yet: play a game."), m.font, TEXT,
                      (self._list.centerx, self._list.y + m.gap * 2), anchor="midtop", max_width=self._list.w)

    def draw(self, surf: pygame.Surface, force: bool = False) -> list[pygame.Rect]:
        """As every screen, then each row's columns over its button."""
        out = super().draw(surf, force)
        if not out:
            return out
        m = self.metrics
        cols = self.columns()
        for b in self.buttons:
            if not b.key.startswith("rec:"):
                continue
            r = b.value
            dealer = r.dealer == r.seat
            if self.game == "zhaopengyou":
                self._draw_zpy_row(surf, b, r, cols)
                continue
            values = [when(r.time), _("Dealer") if dealer else _("Defender"), str(r.bid), trump_text(r.trump),
                      str(r.points), signed(r.my_points), signed(r.my_coins)]
            lx, lw = b.rect.x + m.margin, b.rect.w - 2 * m.margin
            for (head, share, anchor), v in zip(cols, values):
                col = TEXT
                if head in (_("Game points"), _("Coins")):
                    n = r.my_points if head == _("Game points") else r.my_coins
                    col = WIN if n > 0 else ERROR if n < 0 else TEXT
                elif dealer and head == _("Role"):
                    col = ACCENT
                draw_text(surf, v, m.small, col, (lx + round(lw * share), b.rect.centery), anchor=anchor,
                          bold=head in (_("Game points"),), max_width=round(lw * 0.2))
        return out

    def _draw_zpy_row(self, surf: pygame.Surface, b: Button, r: Any, cols: list) -> None:
        """One 找朋友 row's columns over its button (a ZpyHandRecord)."""
        m = self.metrics
        values = [when(r.time), zpy_role(r), rank_text(r.level), trump_text(r.trump), str(r.catcher_points),
                  signed(r.my_gain)]
        lx, lw = b.rect.x + m.margin, b.rect.w - 2 * m.margin
        for i, ((head, share, anchor), v) in enumerate(zip(cols, values)):
            col = TEXT
            if i == 5:
                col = WIN if r.my_gain > 0 else TEXT
            elif i == 1 and r.seat in r.dealer_side:
                col = ACCENT
            draw_text(surf, v, m.small, col, (lx + round(lw * share), b.rect.centery), anchor=anchor,
                      bold=i == 5, max_width=round(lw * 0.2))


class StatsScreen(Screen):
    """Statistics of the current profile with the game-points chart (module docstring).
    Public for tests: ``game``, ``stats`` (:class:`game.career.Stats` for 红五,
    :class:`game.career.zpy_stats.ZpyStats` for 找朋友), ``my_seat`` (the profile's seat in
    the charted 找朋友 match, None without one), ``chart_rect``."""

    def __init__(self, app: "App", game: str = "hongwu") -> None:
        super().__init__(app)
        self.profile = app.career.current()
        self.stats: Any = None
        self.my_seat: int | None = None
        self.chart_rect: pygame.Rect | None = None
        self.set_game(game)

    def set_game(self, game: str) -> None:
        """Show ``game``'s statistics ("hongwu" or "zhaopengyou"; ValueError otherwise)."""
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}: expected one of {GAMES}")
        self.game = game
        self.stats, self.my_seat, self.chart_rect = None, None, None
        self._load()
        self.invalidate()

    def _load(self) -> None:
        from game.career import stats
        from game.career.zpy_stats import zpy_stats

        st = self.app.career.store()
        if st is None or self.profile is None:
            return
        if self.game == "hongwu":
            self.stats = stats(st, self.profile.name, series_max=max(100, self.metrics.w))
            return
        self.stats = zpy_stats(st, self.profile.name)
        if self.stats.match_id is not None:
            hands = st.zpy_hands(self.profile.id, self.stats.match_id)
            self.my_seat = hands[-1].seat if hands else None

    def build(self) -> list[Button]:
        """Back and Records under the panel."""
        m = self.metrics
        panel = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin)
        self._panel_rect = panel
        foot_y = panel.bottom - m.margin - m.button_h
        bw = min(round(220 * max(m.unit, 0.7)), (panel.w - 2 * m.margin - 3 * m.gap) // 4)
        x0 = panel.centerx - 2 * bw - round(1.5 * m.gap)
        keys = [("back", _("Back"), "flat")] + [(f"game:{g}", game_label(g), "primary" if g == self.game else "flat")
                                               for g in GAMES] + [("records", _("Records"), "primary")]
        return [Button(key, pygame.Rect(x0 + i * (bw + m.gap), foot_y, bw, m.button_h), label, style=style)
                for i, (key, label, style) in enumerate(keys)]

    def on_button(self, button: Button) -> None:
        """Back, the game switch, or the record list (of the game shown)."""
        if button.key.startswith("game:"):
            self.set_game(button.key[5:])
        elif button.key == "back":
            self.app.pop_screen(self)
        elif button.key == "records":
            self.app.pop_screen(self)
            shown = [s for s in self.app.screens if isinstance(s, RecordsScreen)]
            if shown:
                if shown[-1].game != self.game:
                    shown[-1].set_game(self.game)
            else:
                self.app.open_records(self.game)

    def lines(self) -> list[tuple[str, str]]:
        """(label, value) rows of the panel."""
        s = self.stats
        if s is None:
            return []
        if self.game == "zhaopengyou":
            return self.zpy_lines()

        def pct(x: float | None) -> str:
            return "—" if x is None else f"{x * 100:.0f}%"

        def hand(h: dict | None) -> str:
            return "—" if h is None else f"{signed(h['game_points'])} ({when(h['time'])})"

        lang = "zh" if current_language() == "zh" else "en"
        from engine.scoring import title_for

        reached = [t["title"] if lang == "zh" else t["en"] for t in s.titles]
        return [
            (_("Title"), f"{title_for(s.points, lang)} · {s.points}"),
            (_("Hands"), str(s.hands)),
            (_("As dealer"), f"{s.dealer_hands} ({pct(s.dealer_rate)})"),
            (_("Dealer success"), f"{s.dealer_wins} ({pct(s.dealer_success_rate)})"),
            (_("Mean bid as dealer"), "—" if s.mean_bid is None else f"{s.mean_bid:.1f}"),
            (_("Best hand"), hand(s.best)),
            (_("Worst hand"), hand(s.worst)),
            (_("Red fives captured / lost"), f"{s.red_fives_won} / {s.red_fives_lost}"),
            (_("Coins"), f"{s.coins:+,}" if s.coins else "0"),
            (_("Titles reached"), " · ".join(reached[-4:])),
        ]

    def zpy_lines(self) -> list[tuple[str, str]]:
        """(label, value) rows of the 找朋友 panel (a ZpyStats)."""
        s = self.stats

        def share(k: int, x: float | None) -> str:
            return f"{k} (—)" if x is None else f"{k} ({x * 100:.0f}%)"

        return [
            (_("Hands"), str(s.hands)),
            (_("As dealer"), share(s.dealer_hands, s.dealer_rate if s.hands else None)),
            (_("As friend"), share(s.friend_hands, s.friend_rate if s.hands else None)),
            (_("Dealer side wins"), f"{s.dealer_side_wins} / {s.dealer_side_hands}"),
            (_("Catcher wins"), f"{s.catcher_wins} / {s.catcher_hands}"),
            (_("Alone as dealer"), str(s.alone_hands)),
            (_("Mean catchers' points"), "—" if s.mean_catcher_points is None else f"{s.mean_catcher_points:.1f}"),
            (_("Levels gained"), signed(s.levels_gained)),
            (_("Matches / games won"), f"{s.matches} / {s.games_won}"),
        ]

    def _draw_chart(self, surf: pygame.Surface, chart: pygame.Rect) -> None:
        """The game's chart into ``chart``: game points (红五) or the latest match's levels (找朋友)."""
        from game.career.chart import draw_levels_chart, draw_points_chart

        font = fonts.get_font(self.metrics.small)
        if self.game == "zhaopengyou":
            draw_levels_chart(surf, chart, self.stats.levels, font=font, title=_("Levels in the latest match"),
                              labels=list(self.stats.match_seats) or None, highlight=self.my_seat,
                              colors={"background": (12, 46, 30)})
            return
        draw_points_chart(surf, chart, self.stats.series, font=font, title=_("Accumulated game points per hand"),
                          colors={"background": (12, 46, 30)})

    def draw_content(self, surf: pygame.Surface) -> None:
        """Panel, title, the figures (left) and the chart (right; below on a narrow window)."""

        m = self.metrics
        panel = self._panel_rect
        draw_form_panel(surf, panel)
        name = self.profile.name if self.profile else ""
        title = draw_text(surf, _("Statistics of {name}").format(name=name), round(m.title * 0.7), ACCENT,
                          (panel.centerx, panel.y + m.gap), anchor="midtop", bold=True,
                          max_width=panel.w - 2 * m.margin)
        top = title.bottom + m.gap
        bottom = panel.bottom - m.margin * 2 - m.button_h
        rows = self.lines()
        if not rows:
            draw_text(surf, _("No profile: create one from the menu."), m.font, TEXT, (panel.centerx, top + m.gap),
                      anchor="midtop", max_width=panel.w - 2 * m.margin)
            return
        line = round(m.small * 1.45)
        wide = m.w >= 1.5 * m.h or len(rows) * line > (bottom - top) // 2
        left_w = round(panel.w * 0.42) if wide else panel.w - 2 * m.margin
        x = panel.x + m.margin * 2
        y = top
        label_w = round((left_w - m.margin * 2) * 0.55)
        for label, value in rows:
            draw_text(surf, label, m.small, MUTED, (x, y), max_width=label_w - m.gap)
            vw = left_w - label_w - m.margin * 2
            while " · " in value and fonts.fit_size(value, m.small, vw, bold=True) < m.small:
                value = "… " + value.split(" · ", 1)[1].removeprefix("… ")  # the latest titles fit
            draw_text(surf, value, m.small, TEXT, (x + label_w, y), bold=True, max_width=vw)
            y += line
        if wide:
            chart = pygame.Rect(panel.x + left_w + m.margin, top, panel.right - m.margin * 2 - panel.x - left_w, bottom - top)
        else:
            chart = pygame.Rect(panel.x + m.margin * 2, y + m.gap, panel.w - 4 * m.margin, bottom - y - m.gap)
        self.chart_rect = chart
        if chart.h >= 60 and chart.w >= 120:
            self._draw_chart(surf, chart)
