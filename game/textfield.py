"""A one-line text field that works with an input method (IME): typed text arrives as
``TEXTINPUT`` events (whole characters, e.g. 汉字 committed by a pinyin IME), the text being
composed as ``TEXTEDITING`` (shown underlined, not yet part of the value). Backspace deletes
the last character, Enter submits. Used by the profile screen (README "Career")."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from game import fonts
from game.widgets import ACCENT, MUTED, TEXT


@dataclass
class TextField:
    """``text`` (the value), ``composing`` (IME text not yet committed), ``max_len``
    (characters), ``rect`` (screen px, set by the screen's layout), ``placeholder``.

    :meth:`handle` takes one pygame event and returns ``"changed"``, ``"submit"`` (Enter) or
    None (not for the field). Call :meth:`start` / :meth:`stop` when the field gains / loses
    the keyboard (they switch SDL's text input and place the IME candidate box)."""

    text: str = ""
    max_len: int = 24
    placeholder: str = ""
    rect: Any = None
    composing: str = ""

    def start(self) -> None:
        """Turn text input (and the IME) on, the candidate box under the field."""
        try:
            pygame.key.start_text_input()
            if self.rect is not None:
                pygame.key.set_text_input_rect(self.rect)
        except Exception:  # pragma: no cover - a driver without text input
            pass

    def stop(self) -> None:
        """Turn text input off."""
        try:
            pygame.key.stop_text_input()
        except Exception:  # pragma: no cover
            pass

    def handle(self, ev: Any) -> str | None:
        """Apply one event (see the class docstring)."""
        if ev.type == pygame.TEXTINPUT:
            add = "".join(ch for ch in ev.text if ch.isprintable())
            self.composing = ""
            if not add:
                return None
            self.text = (self.text + add)[: self.max_len]
            return "changed"
        if ev.type == pygame.TEXTEDITING:
            self.composing = ev.text
            return "changed"
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_BACKSPACE:
                if self.composing:  # the IME handles its own text
                    return None
                self.text = self.text[:-1]
                return "changed"
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not self.composing:
                return "submit"
        return None

    def draw(self, surf: pygame.Surface, size: int, focused: bool = True) -> None:
        """The box, the value (or the placeholder, muted), the composition underlined and a
        caret; the text shrinks to fit the box."""
        r = self.rect
        pygame.draw.rect(surf, (12, 36, 24), r, border_radius=6)
        pygame.draw.rect(surf, ACCENT if focused else MUTED, r, width=2, border_radius=6)
        pad = max(6, r.h // 5)
        shown = self.text + self.composing
        label = shown or self.placeholder
        size = fonts.fit_size(label + "|", size, r.w - 2 * pad)
        x = r.x + pad
        if not shown:
            t = fonts.render(self.placeholder, size, MUTED)
            surf.blit(t, t.get_rect(midleft=(x, r.centery)))
            if focused:
                pygame.draw.line(surf, TEXT, (x, r.centery - size // 2), (x, r.centery + size // 2), 2)
            return
        t = fonts.render(self.text, size, TEXT) if self.text else None
        if t is not None:
            surf.blit(t, t.get_rect(midleft=(x, r.centery)))
            x += t.get_width()
        if self.composing:
            c = fonts.render(self.composing, size, ACCENT)
            cr = c.get_rect(midleft=(x, r.centery))
            surf.blit(c, cr)
            pygame.draw.line(surf, ACCENT, (cr.x, cr.bottom), (cr.right, cr.bottom), 1)
            x = cr.right
        if focused:
            pygame.draw.line(surf, TEXT, (x + 2, r.centery - size // 2), (x + 2, r.centery + size // 2), 2)
