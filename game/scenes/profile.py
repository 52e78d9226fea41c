"""The profile screen 玩家: pick who plays seat 0, or create a profile (a name typed in a
text field that takes IME input, an avatar from the built-in set). README "Career".

Opened at start when there is no current profile (``Options.profile_prompt``) and from the
main menu ("Profile"). Button keys: ``pick:<name>`` (one per profile shown), ``page:prev``
``page:next`` (when they do not all fit), ``avatar:<id>`` (one per :data:`game.career.AVATARS`),
``create``, ``back``. Public state for tests: ``field`` (:class:`game.textfield.TextField`),
``avatar`` (the chosen id), ``error`` (the last refusal, translated), ``page``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.avatars import draw_avatar
from game.i18n import _
from game.scenes.menu import Screen, draw_form_panel
from game.textfield import TextField
from game.widgets import ACCENT, ERROR, MUTED, TEXT, Button, draw_text

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

#: keys that still work as keys while the name field has the keyboard
_NAV_KEYS = (pygame.K_ESCAPE, pygame.K_TAB, pygame.K_UP, pygame.K_DOWN, pygame.K_RETURN, pygame.K_KP_ENTER,
             pygame.K_BACKSPACE)


def career_error_text(exc: Exception) -> str:
    """A CareerError's sentence in the UI language (the store's sentences are English)."""
    msg = str(exc)
    if "already" in msg or "exists" in msg:
        return _("That name is taken: choose another.")
    if "empty" in msg or "blank" in msg:
        return _("Type a name first.")
    if "long" in msg or "24" in msg:
        return _("A name has at most 24 characters.")
    return _("The profile could not be saved: {reason}").format(reason=msg)


class ProfileScreen(Screen):
    """Choose or create the profile (see the module docstring). ``first_run``: opened at
    start without a profile (Back then plays without one)."""

    def __init__(self, app: "App", first_run: bool = False) -> None:
        super().__init__(app)
        from game.career import AVATARS

        self.first_run = first_run
        self.avatars = AVATARS
        used = {p.avatar for p in app.career.profiles()}
        self.avatar = next((a for a in AVATARS if a not in used), AVATARS[0])
        self.field = TextField(max_len=24, placeholder=_("Your name"))
        self.error = ""
        self.page = 0
        self._per_page = 1
        self._avatar_of: dict[str, str] = {}
        self.field.focus()

    # -- layout ----------------------------------------------------------------------------------
    def _panel(self) -> pygame.Rect:
        m = self.metrics
        r = pygame.Rect(0, 0, m.w - 2 * m.margin, m.h - 2 * m.margin)
        r.center = (m.w // 2, m.h // 2)
        return r

    def build(self) -> list[Button]:
        """Profile list (left), new profile (right), Back under them."""
        m = self.metrics
        panel = self._panel()
        self._panel_rect = panel
        top = panel.y + round(m.title * 0.7) + m.gap * 3
        col_w = (panel.w - 3 * m.margin * 2) // 2
        left = pygame.Rect(panel.x + m.margin * 2, top + m.small + m.gap, col_w, 0)
        right_x = left.right + m.margin * 2
        foot_y = panel.bottom - m.margin - m.button_h
        out: list[Button] = []
        # the list of profiles
        profiles = self.app.career.profiles()
        cur = self.app.career.current()
        self._avatar_of = {p.name: p.avatar for p in profiles}
        rows_h = foot_y - m.gap - left.y
        per = max(1, (rows_h + m.gap) // (m.button_h + m.gap))
        if len(profiles) > per:
            per = max(1, per - 1)
        self._per_page = per
        pages = max(1, -(-len(profiles) // per))
        self.page = min(self.page, pages - 1)
        y = left.y
        from engine.scoring import title_for

        lang = "zh" if self.app.lang == "zh" else "en"
        for p in profiles[self.page * per:(self.page + 1) * per]:
            label = f"{p.name} · {title_for(p.points, lang)}"
            out.append(Button(f"pick:{p.name}", pygame.Rect(left.x, y, col_w, m.button_h), label,
                              style="normal", selected=cur is not None and cur.id == p.id))
            y += m.button_h + m.gap
        if pages > 1:
            half = (col_w - m.gap) // 2
            out.append(Button("page:prev", pygame.Rect(left.x, y, half, m.button_h), "◀", enabled=self.page > 0))
            out.append(Button("page:next", pygame.Rect(left.x + half + m.gap, y, half, m.button_h), "▶",
                              enabled=self.page < pages - 1))
        self._list_rect = pygame.Rect(left.x, left.y, col_w, rows_h)
        # a new profile: name field, avatars, Create
        y = top + m.small + m.gap
        self.field.rect = pygame.Rect(right_x, y, col_w, m.button_h)
        y += m.button_h + m.gap
        per_row = max(1, min(len(self.avatars), (col_w + m.gap) // (m.button_h + m.gap)))
        cell = min(m.button_h + m.gap, (col_w + m.gap) // per_row)
        side = cell - m.gap // 2
        for i, a in enumerate(self.avatars):
            r = pygame.Rect(right_x + (i % per_row) * cell, y + (i // per_row) * cell, side, side)
            out.append(Button(f"avatar:{a}", r, "", style="flat", selected=a == self.avatar))
        y += -(-len(self.avatars) // per_row) * cell + m.gap
        out.append(Button("create", pygame.Rect(right_x, y, col_w, m.button_h), _("Create and play"),
                          style="primary", enabled=bool(self.field.text.strip())))
        self._error_y = y + m.button_h + m.gap
        label = _("Play without a profile") if self.first_run or cur is None else _("Back")
        bw = min(col_w, max(round(260 * max(m.unit, 0.7)), 0))
        out.append(Button("back", pygame.Rect(panel.centerx - bw // 2, foot_y, bw, m.button_h), label, style="flat"))
        return out

    # -- input -------------------------------------------------------------------------------------
    def handle_event(self, ev: Any) -> None:
        """Typing goes to the name field; Enter creates; the rest as on every screen."""
        result = self.field.handle_event(ev)
        if result == "edit":
            self.error = ""
            self.invalidate()
            return
        if result == "submit":
            if self.field.text.strip():
                self.create()
            return
        if result == "key" and not (ev.type == pygame.KEYDOWN and ev.key in _NAV_KEYS and ev.key != pygame.K_BACKSPACE):
            return  # a key the field took (a character: its TEXTINPUT did the typing; Space must not press a button)
        super().handle_event(ev)

    def on_button(self, button: Button) -> None:
        """Pick, page, choose an avatar, create, or go back."""
        key = button.key
        head, _sep, arg = key.partition(":")
        if head == "pick":
            self.app.career.use(arg)
            self.close()
        elif key == "page:prev":
            self.page = max(0, self.page - 1)
        elif key == "page:next":
            self.page += 1
        elif head == "avatar":
            self.avatar = arg
        elif key == "create":
            self.create()
        elif key == "back":
            self.close()

    def create(self) -> None:
        """Create the typed profile with the chosen avatar and play as it (or show why not)."""
        from game.career import CareerError

        try:
            self.app.career.create(self.field.text, self.avatar)
        except (CareerError, OSError) as exc:
            self.error = career_error_text(exc)
            self.invalidate()
            return
        self.close()

    def close(self) -> None:
        """Leave the screen (text input off)."""
        self.field.blur()
        self.app.pop_screen(self)

    def on_back(self) -> None:
        """Esc: as Back."""
        self.close()

    # -- drawing -----------------------------------------------------------------------------------
    def draw_content(self, surf: pygame.Surface) -> None:
        """Panel, headings, the name field and the error line."""
        m = self.metrics
        panel = getattr(self, "_panel_rect", None)
        if panel is None:
            return
        draw_form_panel(surf, panel)
        draw_text(surf, _("Who is playing?"), round(m.title * 0.7), ACCENT, (panel.centerx, panel.y + m.gap * 3 // 2),
                  anchor="midtop", bold=True, max_width=panel.w - 2 * m.margin)
        lr = self._list_rect
        head_y = lr.y - m.small - m.gap // 2
        draw_text(surf, _("Choose a profile"), m.small, MUTED, (lr.x, head_y), max_width=lr.w)
        draw_text(surf, _("New profile: name and avatar"), m.small, MUTED, (self.field.rect.x, head_y),
                  max_width=self.field.rect.w)
        if not self._avatar_of:
            draw_text(surf, _("No profile yet: create one."), m.font, TEXT, (lr.x, lr.y + m.gap), max_width=lr.w)
        self.field.draw(surf, self.field.rect, m.font)
        if self.error:
            draw_text(surf, self.error, m.small, ERROR, (self.field.rect.x, self._error_y),
                      max_width=self.field.rect.w)

    def draw(self, surf: pygame.Surface, force: bool = False) -> list[pygame.Rect]:
        """As every screen, then the avatars over their buttons."""
        out = super().draw(surf, force)
        if out:
            for b in self.buttons:
                head, _sep, arg = b.key.partition(":")
                if head == "avatar":
                    draw_avatar(surf, b.rect.center, b.rect.h * 2 // 5, arg)
                elif head == "pick":
                    r = b.rect.h * 3 // 8
                    draw_avatar(surf, (b.rect.x + r + 6, b.rect.centery), r, self._avatar_of.get(arg))
        return out
