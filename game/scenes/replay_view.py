"""The replay viewer 回放 (README "Career"; docs/REPLAY.md): a recorded hand, trick by trick,
every hand face up, the kitty, each trick's cards with its winner and points, and the
settlement at the end.

Steps are :func:`engine.replay.frames`: step 0 is the table after the bury (the kitty dealt
and buried is shown), step k the table after trick k (the seats' remaining cards, the trick's
cards at the right of each seat, the winner's framed). Forwards and backwards with the buttons
(``first`` ``prev`` ``next`` ``last``), the arrow keys (Home / End), or a horizontal swipe
over the cards; jump to a trick by tapping or dragging the slider (``slider``: one stop per
step). ``back`` (or Esc) closes it. Public for tests: ``frames``, ``step``, ``replay``.

Review marks (README "Review"): when the hand has a review 复盘 (cached in the career store, or
just computed by the Review button), the steps where the reviewed seat lost points carry a
badge with the loss in game points — a dot over the slider's tick, a pill beside the heading
and on that seat's cards of the trick — and a band under the status line shows the seat's play
beside the better one ("You: ♠K ♠K  better: ♠A ♠A  +2.1 game points", :mod:`game.scenes.replay_marks`).
``next_costly`` (the "!▶" button, or N) jumps to the next costly decision, Shift+N (P) to the
previous one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import pygame

from game.i18n import _
from game.scenes.menu import Screen, draw_form_panel
from game.widgets import ACCENT, ERROR, MUTED, TEXT, Button, draw_text

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

WIN = (140, 230, 150)
#: px a horizontal swipe must cover to step
SWIPE_PX = 60


def clip(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` shortened with "…" until it fits ``width`` px at ``size`` (never below it)."""
    from game import fonts

    font = fonts.get_font(size, bold=bold)
    if font.size(text)[0] <= width:
        return text
    while len(text) > 1 and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


def load(source: Any, store: Any = None) -> tuple[Any, str]:
    """``(Replay, "")`` for a record id or a replay file path, or ``(None, why)`` (a
    translated sentence with the reason) when it cannot be read or is malformed."""
    from engine import replay as R
    from game.career import CareerError, load_replay

    try:
        rep = load_replay(source, store)
        R.frames(rep)  # a malformed action list is reported here, not while stepping
        return rep, ""
    except CareerError as exc:
        return None, _("No such record: {reason}").format(reason=exc)
    except (OSError, UnicodeDecodeError) as exc:
        return None, _("Cannot read the replay: {reason}").format(reason=exc)
    except R.ReplayError as exc:
        return None, _("The replay is damaged: {reason}").format(reason=exc)


class ReplayScreen(Screen):
    """The viewer (see the module docstring). ``on_close``: called instead of popping the
    screen when it is closed (``hongwu replay`` quits the window). ``review``: None, or
    ``(db_path, record_id)`` of the record shown (its review 复盘 is then cached), or
    ``(None, None)`` to review the replay itself; a Review button then opens
    :class:`game.scenes.review_screen.ReviewScreen` (key ``review``)."""

    def __init__(self, app: "App", replay: Any, on_close: Callable[[], None] | None = None,
                 review: tuple[Any, Any] | None = None) -> None:
        super().__init__(app)
        self.review = review
        from engine import replay as R

        self.replay = replay
        self.frames = R.frames(replay)
        self.step = 0
        self.on_close = on_close
        h = replay.header
        n = replay.ruleset.players
        seats = list(h.get("seats") or [])
        from game.text import ai_name

        names = [(str(seats[s]) if s == h.get("seat") else ai_name(str(seats[s])))  # 基础 for "basic"
                 if s < len(seats) and seats[s] else _("Seat {n}").format(n=s) for s in range(n)]
        self.names = [f"{x} ({_('Seat {n}').format(n=s)})" if names.count(x) > 1 else x  # three "basic"s
                      for s, x in enumerate(names)]
        self.me = h.get("seat")
        self._renderer: Any = None
        self._swipe: tuple[int, int] | None = None
        self._sliding = False
        self.review_result: Any = None
        """The :class:`ai_plugins.review.Review` whose marks are shown (None: no marks)."""
        self.marks: dict = {}
        """``{step: replay_marks.StepMark}`` of :attr:`review_result`."""
        self.mark_dots: dict[int, tuple[int, int]] = {}
        """Where the slider's mark dots were last drawn (``{step: (x, y)}``, for tests)."""
        self.drawn: dict[str, pygame.Rect] = {}
        """Rects of the review parts last drawn (``badge``, ``trick_badge``, ``compare`` and the
        comparison's parts), for tests."""
        if review is not None and review[0] is not None and review[1] is not None:
            self._load_cached_review(review[0], review[1])

    def _load_cached_review(self, db_path: Any, record_id: int) -> None:
        """Show the marks of record ``record_id``'s cached review, if there is one (a store
        that cannot be read just leaves the viewer without marks)."""
        from game.career import CareerError, Store
        from game.career.reviews import cached_review

        try:
            with Store.open(db_path) as store:
                rv = cached_review(store, int(record_id))
        except (CareerError, OSError, ValueError):
            return
        self.set_review(rv)

    def set_review(self, rv: Any) -> None:
        """Show ``rv``'s marks (an :class:`ai_plugins.review.Review`; None clears them)."""
        from game.scenes.replay_marks import step_marks

        self.review_result = rv
        self.marks = step_marks(rv, self.last_step)
        self.invalidate()

    def next_costly(self, forward: bool = True) -> None:
        """Jump to the next (or previous) costly decision's step, if any
        (:func:`game.scenes.replay_marks.next_target`)."""
        from game.scenes.replay_marks import next_target

        k = next_target(self.marks, self.step, forward)
        if k is not None:
            self.go(k)

    @property
    def last_step(self) -> int:
        """Index of the final step (the last trick, with the settlement)."""
        return len(self.frames) - 1

    def go(self, step: int) -> None:
        """Show step ``step`` (clamped to 0..:attr:`last_step`)."""
        self.step = max(0, min(self.last_step, int(step)))
        self.invalidate()

    # -- layout --------------------------------------------------------------------------------
    def build(self) -> list[Button]:
        """The step bar: Back, |◀ ◀, the slider, ▶ ▶|."""
        m = self.metrics
        y = m.h - m.margin - m.button_h
        bw = max(m.button_h, round(m.button_h * 1.1))
        back_w = max(round(m.button_h * 1.8), 90)
        x = m.margin
        out = [Button("back", pygame.Rect(x, y, back_w, m.button_h), _("Back"), style="flat")]
        x += back_w + m.gap
        if self.review is not None:  # the review 复盘 of this hand
            rw = max(round(m.button_h * 1.8), 90)
            out.append(Button("review", pygame.Rect(x, y, rw, m.button_h), _("Review"), style="flat"))
            x += rw + m.gap
        out.append(Button("first", pygame.Rect(x, y, bw, m.button_h), "|◀", enabled=self.step > 0))
        x += bw + m.gap // 2
        out.append(Button("prev", pygame.Rect(x, y, bw, m.button_h), "◀", enabled=self.step > 0))
        x += bw + m.gap
        extra = bw + m.gap // 2 if self.marks else 0  # "!▶": the next costly decision
        right = m.w - m.margin - 2 * bw - m.gap // 2 - m.gap - extra
        self.slider = pygame.Rect(x, y, max(40, right - x), m.button_h)
        out.append(Button("next", pygame.Rect(right + m.gap, y, bw, m.button_h), "▶",
                          enabled=self.step < self.last_step, style="primary"))
        out.append(Button("last", pygame.Rect(right + m.gap + bw + m.gap // 2, y, bw, m.button_h), "▶|",
                          enabled=self.step < self.last_step))
        if self.marks:
            from game.scenes.replay_marks import next_target

            out.append(Button("next_costly", pygame.Rect(right + m.gap + 2 * (bw + m.gap // 2), y, bw, m.button_h),
                              "!▶", enabled=next_target(self.marks, self.step) is not None))
        self.area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, y - m.gap - m.margin)
        return out

    def slider_step(self, x: int) -> int:
        """The step under slider x-coordinate ``x``."""
        r = self.slider
        k = (x - r.x) / max(1, r.w - 1)
        return round(max(0.0, min(1.0, k)) * self.last_step)

    def slider_x(self, step: int) -> int:
        """The slider x-coordinate of ``step`` (for tests and drawing)."""
        r = self.slider
        return r.x + round(step * (r.w - 1) / max(1, self.last_step))

    # -- input -----------------------------------------------------------------------------------
    def handle_event(self, ev: Any) -> None:
        """Slider taps and drags, swipes over the cards, then the buttons and keys."""
        pos = getattr(ev, "pos", None)
        if ev.type in (pygame.FINGERDOWN, pygame.FINGERUP) and hasattr(self, "slider"):
            p = (round(ev.x * self.metrics.w), round(ev.y * self.metrics.h))
            if ev.type == pygame.FINGERDOWN:
                self._finger = p if self.area.collidepoint(p) else None
            else:
                start, self._finger = getattr(self, "_finger", None), None
                if start is not None and abs(p[0] - start[0]) >= SWIPE_PX and abs(p[0] - start[0]) > abs(p[1] - start[1]):
                    self.go(self.step + (1 if p[0] < start[0] else -1))  # a finger swipe
            return
        if getattr(ev, "touch", False) and ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) \
                and self.area.collidepoint(pos):
            return  # a touch on the cards: its finger events swipe
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and hasattr(self, "slider"):
            if self.slider.collidepoint(pos):
                self._sliding = True
                self.go(self.slider_step(pos[0]))
                return
            if self.area.collidepoint(pos):
                self._swipe = pos
        elif ev.type == pygame.MOUSEMOTION and self._sliding:
            self.go(self.slider_step(pos[0]))
            return
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            if self._sliding:
                self._sliding = False
                return
            start, self._swipe = self._swipe, None
            if start is not None and abs(pos[0] - start[0]) >= SWIPE_PX and abs(pos[0] - start[0]) > abs(pos[1] - start[1]):
                self.go(self.step + (1 if pos[0] < start[0] else -1))  # swipe left: forwards
                return
        super().handle_event(ev)

    def on_key(self, ev: Any) -> None:
        """←/→ (and PgUp/PgDn) step, Home/End jump to the ends, N / Shift+N (P) the next /
        previous costly decision when there are review marks; Esc closes."""
        k = ev.key
        if k in (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_SPACE):
            self.go(self.step + 1)
        elif k in (pygame.K_LEFT, pygame.K_PAGEUP, pygame.K_BACKSPACE):
            self.go(self.step - 1)
        elif k == pygame.K_HOME:
            self.go(0)
        elif k == pygame.K_END:
            self.go(self.last_step)
        elif k == pygame.K_n and self.marks:
            self.next_costly(not (ev.mod & pygame.KMOD_SHIFT))
        elif k == pygame.K_p and self.marks:
            self.next_costly(False)
        else:
            super().on_key(ev)

    def on_button(self, button: Button) -> None:
        """Step, jump or close."""
        key = button.key
        if key == "next":
            self.go(self.step + 1)
        elif key == "prev":
            self.go(self.step - 1)
        elif key == "first":
            self.go(0)
        elif key == "last":
            self.go(self.last_step)
        elif key == "next_costly":
            self.next_costly()
        elif key == "back":
            self.on_back()
        elif key == "review" and self.review is not None:
            from game.scenes.review_screen import ReviewScreen

            db_path, record_id = self.review
            if record_id is not None:
                self.app.push_screen(ReviewScreen(self.app, db_path, record_id, on_done=self.set_review))
            else:
                self.app.push_screen(ReviewScreen(self.app, replay=self.replay, on_done=self.set_review))

    def on_back(self) -> None:
        """Close the viewer."""
        if self.on_close is not None:
            self.on_close()
        else:
            self.app.pop_screen(self)

    # -- drawing -----------------------------------------------------------------------------------
    def renderer(self) -> Any:
        """The card renderer (made once)."""
        if self._renderer is None:
            from game.cards_render import CardRenderer

            self._renderer = CardRenderer()
        return self._renderer

    def heading(self) -> str:
        """"Trick 3 of 25" / "After the bury"."""
        if self.step == 0:
            return _("Replay · after the bury")
        return _("Replay · trick {k} of {n}").format(k=self.step, n=self.last_step)

    def status(self) -> tuple[str, tuple]:
        """The line under the seats: the trick's winner and points, or what step 0 shows."""
        f = self.frames[self.step]
        t = self.last_trick(f)
        if t is None:
            return _("Dealer {name} at {bid}: the kitty as dealt and as buried").format(
                name=self.names[f.dealer], bid=f.bid), MUTED
        return _("Trick {k}: led by {leader}, won by {name}, {points} points").format(
            k=t.trick_no, leader=self.names[t.leader], name=self.names[t.winner], points=t.points), ACCENT

    def draw_content(self, surf: pygame.Surface) -> None:
        """Heading, the seats' rows, the kitty, the status line, the settlement at the end,
        the slider."""

        m = self.metrics
        a = self.area
        draw_form_panel(surf, a)
        f = self.frames[self.step]
        head = draw_text(surf, self.heading(), round(m.title * 0.6), ACCENT, (a.x + m.margin * 2, a.y + m.gap),
                         bold=True, max_width=a.w // 2)
        info = self.info_line(f)
        draw_text(surf, info, m.small, TEXT, (a.right - m.margin * 2, head.centery), anchor="midright",
                  max_width=a.w // 2 - m.margin * 3)
        mark = self.marks.get(self.step)
        self.drawn = {}
        if mark is not None:  # the step's loss beside the heading
            self.drawn["badge"] = self._badge(surf, mark, (head.right + m.gap, head.centery), "midleft")
        top = head.bottom + m.gap
        final = self.step == self.last_step and f.settlement is not None
        foot = (m.small + m.gap) * (3 if final else 1)
        band_h = round(m.small * 2.6) if self.marks else 0  # the review comparison band
        foot += band_h + (m.gap if band_h else 0)
        n = len(f.hands)
        row_h = max(30, (a.bottom - m.gap - foot - top) // (n + 1))
        ch = max(28, row_h - m.gap // 2 - 2)
        cw = round(ch * 0.7)
        name_w = round(a.w * 0.17)
        trick_w = round(a.w * 0.24)
        hand_x = a.x + m.margin + name_w
        hand_w = a.right - m.margin - trick_w - hand_x - m.gap
        r = self.renderer()
        t = self.last_trick(f)
        played = dict(t.plays) if t is not None else {}
        trump_cards = self._trump_test(f)
        for s in range(n):
            y = top + s * row_h
            role = self.seat_role(f, s)
            col = ACCENT if role else TEXT
            nw = name_w - m.margin * 2
            draw_text(surf, clip(self.names[s], m.small, nw, True), m.small, col,
                      (a.x + m.margin * 2, y + ch // 2 - m.small), bold=True, max_width=nw)
            pts = _("{p} points").format(p=f.points_won[s])
            if role:
                pts = role + " · " + pts
            draw_text(surf, clip(pts, m.small, nw), m.small, ACCENT if role else MUTED,
                      (a.x + m.margin * 2, y + ch // 2 + 2), max_width=nw)
            self._cards(surf, r, self.arranged(f, f.hands[s]), hand_x, y, hand_w, cw, ch, trump_cards)
            cards = played.get(s, ())
            tx = a.right - m.margin - trick_w
            if cards:
                rr = self._cards(surf, r, cards, tx, y, trick_w - m.margin, cw, ch, trump_cards)
                if t is not None and s == t.winner:
                    pygame.draw.rect(surf, ACCENT, rr.inflate(6, 6), width=3, border_radius=6)
                if mark is not None and self.review_result is not None and s == self.review_result.seat:
                    bx = min(rr.right + m.gap // 2, a.right - m.margin // 2 - round(m.small * 3.2))
                    self.drawn["trick_badge"] = self._badge(surf, mark, (bx, rr.y), "topleft")
            elif mark is not None and self.review_result is not None and s == self.review_result.seat:
                self.drawn["trick_badge"] = self._badge(surf, mark, (a.right - m.margin, y + 2), "topright")
        y = top + n * row_h
        label = _("Kitty dealt") if self.step == 0 and f.kitty else _("Kitty buried")
        cards = f.kitty if self.step == 0 and f.kitty else f.buried
        draw_text(surf, label, m.small, MUTED, (a.x + m.margin * 2, y + ch // 2), anchor="midleft",
                  max_width=name_w - m.margin * 2)
        self._cards(surf, r, cards, hand_x, y, hand_w, cw, ch, trump_cards)
        if self.step == 0 and f.kitty:
            bx = a.right - m.margin - trick_w
            draw_text(surf, _("buried"), m.small, MUTED, (bx, y - 2), anchor="bottomleft")
            self._cards(surf, r, f.buried, bx, y, trick_w - m.margin, cw, ch, trump_cards)
        sy = y + row_h
        text, col = self.status()
        draw_text(surf, text, m.small, col, (a.centerx, sy), anchor="midtop", bold=True, max_width=a.w - 4 * m.margin)
        if final:
            self.draw_final(surf, f, sy)
        if band_h:
            by = sy + (m.small + m.gap) * (3 if final else 1)
            self._draw_band(surf, pygame.Rect(a.x + m.margin * 2, by, a.w - 4 * m.margin, band_h), mark)
        self._draw_slider(surf)

    def _badge(self, surf: pygame.Surface, mark: Any, pos: tuple[int, int], anchor: str) -> pygame.Rect:
        from game.scenes.replay_marks import draw_badge

        return draw_badge(surf, mark, self.metrics.small, pos, anchor)

    def _draw_band(self, surf: pygame.Surface, rect: pygame.Rect, mark: Any) -> None:
        """The review band: the step's costliest decision, the seat's play beside the better
        one; elsewhere a hint how many steps are marked and how to jump."""
        from game.scenes import replay_marks as rm

        m = self.metrics
        pygame.draw.rect(surf, (20, 44, 32), rect, border_radius=6)
        self.drawn["compare"] = rect
        inner = rect.inflate(-2 * m.gap, -4)
        if mark is None:
            costly = sum(1 for x in self.marks.values() if x.costly)
            text = _("Review: points lost at {n} steps, {costly} costly · !▶ or N: next costly decision").format(
                n=len(self.marks), costly=costly)
            draw_text(surf, text, m.small, MUTED, (inner.x, inner.centery), anchor="midleft", max_width=inner.w)
            return
        r = self.renderer()
        game = getattr(self.review_result, "game", "hongwu")
        parts = rm.draw_comparison(surf, inner, mark.decisions[0], m.small, r.face, game)
        self.drawn.update({"compare_" + k: v for k, v in parts.items()})

    def last_trick(self, f: Any) -> Any:
        """The trick that ended at frame ``f`` (None at step 0)."""
        return f.last_trick

    def info_line(self, f: Any) -> str:
        """The heading's right side: dealer, bid and trump."""
        from game.text import suit_label

        return _("Dealer {name} · bid {bid} · trump {trump}").format(name=self.names[f.dealer], bid=f.bid,
                                                                        trump=suit_label(f.trump))

    def seat_role(self, f: Any, s: int) -> str:
        """The role shown beside seat ``s``'s points ("" for none): the dealer here."""
        return _("Dealer") if s == f.dealer else ""

    def draw_final(self, surf: pygame.Surface, f: Any, sy: int) -> None:
        """The settlement lines under the status line of the last step."""
        m = self.metrics
        a = self.area
        s = f.settlement
        if s is not None:
            head = (_("Dealer wins: {final}") if s.dealer_final > 0 else _("Dealer loses: {final}")).format(
                final=f"{s.dealer_final:+d}" if s.dealer_final else "0")
            draw_text(surf, head, m.small, WIN if s.dealer_final > 0 else ERROR, (a.centerx, sy + m.small + m.gap),
                      anchor="midtop", bold=True, max_width=a.w - 4 * m.margin)
            gp = " · ".join(f"{self.names[i]} {g:+d}" for i, g in enumerate(s.game_points))
            draw_text(surf, _("Game points: {list}").format(list=gp), m.small, TEXT,
                      (a.centerx, sy + 2 * (m.small + m.gap)), anchor="midtop", max_width=a.w - 4 * m.margin)

    def arranged(self, f: Any, cards: Any) -> tuple:
        """A hand in the table's display order (suits grouped as the settings say, trumps at
        one end; :func:`game.scenes.table_extras.arrange`), or as recorded if that fails."""
        try:
            from game.scenes import table_extras as extras

            return extras.arrange(cards, self.trump_context(f), extras.prefs_from(self.app.settings))
        except Exception:
            return tuple(cards)

    def trump_context(self, f: Any) -> Any:
        """The card order of frame ``f`` (红五: by its trump suit)."""
        from engine.order import context

        return context(f.trump)

    def _trump_test(self, f: Any) -> Callable[[Any], bool]:
        try:

            ctx = self.trump_context(f)
            return lambda c: bool(ctx.is_trump(c))
        except Exception:
            return lambda c: False

    def _cards(self, surf: pygame.Surface, r: Any, cards: Any, x: int, y: int, width: int, cw: int, ch: int,
               trump: Callable[[Any], bool]) -> pygame.Rect:
        """Cards overlapped to fit ``width``; returns the rect they cover."""
        cards = list(cards)
        if not cards:
            return pygame.Rect(x, y, 0, ch)
        step = min(cw + 2, max(6, (width - cw) // max(1, len(cards) - 1))) if len(cards) > 1 else 0
        for i, c in enumerate(cards):
            try:
                img = r.face(c, cw, ch, trump=trump(c))
            except TypeError:
                img = r.face(c, cw, ch)
            surf.blit(img, (x + i * step, y))
        return pygame.Rect(x, y, step * (len(cards) - 1) + cw, ch)

    def _draw_slider(self, surf: pygame.Surface) -> None:
        m = self.metrics
        s = getattr(self, "slider", None)
        if s is None:
            return
        pygame.draw.rect(surf, (30, 64, 46), s, border_radius=s.h // 4)
        track = pygame.Rect(s.x + m.gap, s.centery - 3, s.w - 2 * m.gap, 6)
        pygame.draw.rect(surf, (90, 140, 110), track, border_radius=3)
        for k in range(self.last_step + 1):  # one tick per step
            x = self.slider_x(k)
            pygame.draw.line(surf, MUTED, (x, s.centery - 8), (x, s.centery + 8), 1)
        if self.marks:  # review marks: a dot over each marked step's tick
            from game.scenes.replay_marks import draw_slider_marks

            self.mark_dots = draw_slider_marks(surf, self.marks, self.slider_x, s.y + max(5, s.h // 7),
                                               max(3, s.h // 10))
        kx = self.slider_x(self.step)
        pygame.draw.circle(surf, ACCENT, (kx, s.centery), max(8, s.h // 3))
        label = str(self.step) if self.step else "0"
        draw_text(surf, label, m.small, (30, 20, 10), (kx, s.centery), anchor="center", bold=True)
