"""A one-line text field that works with input methods (IME: pinyin, etc.).

SDL delivers typed text as ``TEXTINPUT`` (committed text) and, while an input method composes,
``TEXTEDITING`` (the composition: ``text``, caret ``start``).  The field keeps the committed
``text`` and the caret, shows the composition underlined at the caret, and asks SDL to put the
IME's candidate window there (``pygame.key.set_text_input_rect``).  While a composition is
open, editing keys (Backspace, arrows, Enter, Esc) belong to the input method and are left
alone.  Keys: Backspace / Delete, Left / Right, Home / End, Ctrl+V pastes (when the
clipboard is available), Enter submits, Esc cancels.  ``max_len`` characters at most
(typed or pasted text beyond it is cut).

:meth:`TextField.handle_event` returns what the event did (``"submit"``, ``"cancel"``,
``"edit"``, ``"key"`` for any other key swallowed, or None when the event is not the
field's), so a scene can keep keys typed into the field away from its shortcuts.
"""
from __future__ import annotations

from typing import Any

import pygame

from game import fonts

_TEXT_EVENTS = (pygame.TEXTINPUT, pygame.TEXTEDITING)


class TextField:
    """The field's state and drawing.

    ``max_len``: longest text (characters); ``placeholder``: shown grey while empty.  Public
    state: ``text``, ``caret`` (index into ``text``), ``composition`` (the IME's text being
    composed, not yet part of ``text``), ``comp_caret``, ``focused``, ``rect`` (last drawn,
    screen px).
    """

    def __init__(self, max_len: int, placeholder: str = "") -> None:
        if max_len < 1:
            raise ValueError(f"max_len must be at least 1, not {max_len}")
        self.max_len = max_len
        self.placeholder = placeholder
        self.text = ""
        self.caret = 0
        self.composition = ""
        self.comp_caret = 0
        self.focused = False
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._caret_x = 0

    # -- focus --------------------------------------------------------------------------------------
    def focus(self) -> None:
        """Take the keyboard: start SDL text input, the IME window at the caret."""
        self.focused = True
        try:
            pygame.key.start_text_input()
        except pygame.error:  # pragma: no cover - no keyboard on this driver
            pass
        self._place_ime()

    def blur(self) -> None:
        """Give the keyboard back (an open composition is dropped)."""
        self.focused = False
        self.composition = ""
        try:
            pygame.key.stop_text_input()
        except pygame.error:  # pragma: no cover
            pass

    def clear(self) -> str:
        """Empty the field; returns the text it held."""
        text, self.text, self.caret, self.composition = self.text, "", 0, ""
        return text

    # -- editing ----------------------------------------------------------------------------------------
    def insert(self, text: str) -> bool:
        """Insert ``text`` at the caret (line breaks and control characters become spaces or
        go; cut to ``max_len``); True when the text changed."""
        clean = "".join(" " if ch in "\r\n\t" else ch for ch in str(text) if ch in "\r\n\t" or ch.isprintable())
        room = self.max_len - len(self.text)
        clean = clean[:max(0, room)]
        if not clean:
            return False
        self.text = self.text[:self.caret] + clean + self.text[self.caret:]
        self.caret += len(clean)
        return True

    def handle_event(self, ev: Any) -> str | None:
        """Apply one pygame event (see the module docstring for the result)."""
        if not self.focused:
            return None
        if ev.type == pygame.TEXTINPUT:
            self.composition = ""
            self.insert(ev.text)
            self._place_ime()
            return "edit"
        if ev.type == pygame.TEXTEDITING:
            self.composition = str(ev.text)
            self.comp_caret = int(getattr(ev, "start", len(self.composition)) or 0)
            self._place_ime()
            return "edit"
        if ev.type == pygame.KEYUP:
            return "key"
        if ev.type != pygame.KEYDOWN:
            return None
        if self.composition:  # the input method is busy with this key
            return "key"
        k = ev.key
        mod = getattr(ev, "mod", 0)
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return "submit"
        if k == pygame.K_ESCAPE:
            return "cancel"
        before = (self.text, self.caret)
        if k == pygame.K_BACKSPACE and self.caret > 0:
            self.text = self.text[:self.caret - 1] + self.text[self.caret:]
            self.caret -= 1
        elif k == pygame.K_DELETE:
            self.text = self.text[:self.caret] + self.text[self.caret + 1:]
        elif k == pygame.K_LEFT:
            self.caret = max(0, self.caret - 1)
        elif k == pygame.K_RIGHT:
            self.caret = min(len(self.text), self.caret + 1)
        elif k == pygame.K_HOME:
            self.caret = 0
        elif k == pygame.K_END:
            self.caret = len(self.text)
        elif k == pygame.K_v and mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            self.insert(_clipboard())
        if (self.text, self.caret) != before:
            self._place_ime()
            return "edit"
        return "key"

    # -- drawing -------------------------------------------------------------------------------------------
    def draw(self, surf: pygame.Surface, rect: pygame.Rect, size: int) -> None:
        """Draw into ``rect`` with text of ``size`` px: the text scrolled so the caret shows,
        the composition underlined at the caret, a caret bar while focused."""
        self.rect = pygame.Rect(rect)
        pygame.draw.rect(surf, (250, 250, 244), rect, border_radius=6)
        pygame.draw.rect(surf, (250, 206, 90) if self.focused else (120, 130, 124), rect, width=2,
                         border_radius=6)
        pad = max(6, size // 2)
        inner = rect.inflate(-2 * pad, -4)
        font = fonts.get_font(size)
        if not self.text and not self.composition:
            if self.placeholder:
                t = fonts.render(self.placeholder, size, (130, 130, 130))
                surf.blit(t, t.get_rect(midleft=(inner.x, rect.centery)), pygame.Rect(0, 0, inner.w, t.get_height()))
            self._caret_x = inner.x
            if self.focused:
                pygame.draw.line(surf, (20, 20, 20), (inner.x, rect.y + 6), (inner.x, rect.bottom - 6), 2)
            return
        head, tail = self.text[:self.caret], self.text[self.caret:]
        w_head = font.size(head)[0]
        w_comp = font.size(self.composition)[0] if self.composition else 0
        shift = max(0, w_head + w_comp + 2 - inner.w)  # keep the caret and composition in view
        old_clip = surf.get_clip()
        surf.set_clip(inner.clip(old_clip) if old_clip else inner)
        x = inner.x - shift
        y = rect.centery
        for part, color in ((head, (20, 20, 20)), (self.composition, (30, 60, 160)), (tail, (20, 20, 20))):
            if not part:
                continue
            t = fonts.render(part, size, color)
            r = t.get_rect(midleft=(x, y))
            surf.blit(t, r)
            if color != (20, 20, 20):  # the composition: underlined
                pygame.draw.line(surf, color, (r.x, r.bottom - 1), (r.right, r.bottom - 1), 2)
            x += font.size(part)[0]
        caret_x = inner.x - shift + w_head + (font.size(self.composition[:self.comp_caret])[0] if self.composition else 0)
        if self.focused:
            pygame.draw.line(surf, (20, 20, 20), (caret_x, rect.y + 6), (caret_x, rect.bottom - 6), 2)
        surf.set_clip(old_clip)
        self._caret_x = caret_x

    def _place_ime(self) -> None:
        """Tell SDL where the caret is, for the input method's candidate window."""
        if not self.focused or not self.rect.w:
            return
        x = max(self.rect.x, min(self.rect.right - 2, self._caret_x or self.rect.x))
        try:
            pygame.key.set_text_input_rect(pygame.Rect(x, self.rect.y, 2, self.rect.h))
        except pygame.error:  # pragma: no cover
            pass


def _clipboard() -> str:
    """The clipboard's text, or "" when there is none (or no clipboard on this driver)."""
    try:
        import pygame.scrap as scrap

        if hasattr(scrap, "get_text"):  # pygame-ce 2.2+: SDL's clipboard, no init needed
            data = scrap.get_text()
        else:  # pragma: no cover - older pygame
            if not scrap.get_init():
                scrap.init()
            data = scrap.get(pygame.SCRAP_TEXT)
    except Exception:
        return ""
    if isinstance(data, bytes):
        data = data.decode("utf-8", "replace").rstrip("\x00")
    return str(data or "")
