"""Chat at the table: the :class:`game.chat_panel.ChatPanel` over the table and the speech
bubbles at the speakers' name plates.  Mixed into :class:`game.scenes.table_scene.TableScene`.

The panel and the bubbles are drawn last into the static layer (over the table's buttons), and
only where they changed; input goes to the panel first (:meth:`TableChat._chat_event`), so keys
typed into its field never reach the table's shortcuts.  A table without chat (local play)
has ``chat`` None and nothing here runs.
"""
from __future__ import annotations

from typing import Any

import pygame

from game.chat_panel import ChatPanel, bubble_rects, draw_bubble


class TableChat:
    """Chat panel and bubbles of the table scene (see the module docstring)."""

    chat: ChatPanel | None = None
    _chat_rects: dict[Any, pygame.Rect] = {}
    _chat_version = -1
    _chat_fading = False
    _chat_sprite: tuple | None = None  # (key, image): the panel drawn over flying cards

    def attach_chat(self, panel: ChatPanel) -> None:
        """Show ``panel`` (a :class:`ChatPanel`; its ``area_fn`` is set to the space under the
        toolbar) and its bubbles at this table."""
        panel.size_fn = lambda: (self.layout.w, self.layout.h)
        panel.area_fn = self._chat_area
        self.chat = panel
        self._chat_rects = {}
        panel.layout()
        self.invalidate()

    def _chat_area(self) -> pygame.Rect:
        lay = self.layout
        top = lay.toolbar.bottom + lay.margin
        return pygame.Rect(0, top, lay.w - lay.margin, lay.h - top - lay.margin)

    def _chat_event(self, ev: Any) -> bool:
        """Give ``ev`` to the chat panel first; True when it took it."""
        chat = self.chat
        if chat is None:
            return False
        was_open = chat.is_open
        took = chat.handle_event(ev)
        if took or chat.is_open != was_open:
            self._chat_refresh(force=chat.is_open != was_open)
        return took

    def _chat_update(self, now: float) -> None:
        """Per frame: new lines, bubbles that expire or fade, the unread count on the toolbar."""
        chat = self.chat
        if chat is None:
            return
        unread = chat.session.unread
        chat.update()
        chat.session.expire(now)
        fading = any(b.alpha(now) < 255 for b in chat.session.bubbles.values())
        if fading or self._chat_fading:  # only the bubbles change as they fade
            self.invalidate(*[r for k, r in self._chat_rects.items() if k != "panel"] or [self.layout.toolbar])
        self._chat_fading = fading
        if chat.session.unread != unread:
            self.invalidate(self.layout.toolbar)
        if chat.version != self._chat_version:
            self._chat_refresh()

    def _chat_targets(self) -> dict[Any, pygame.Rect]:
        chat = self.chat
        assert chat is not None
        out: dict[Any, pygame.Rect] = {("bubble", s): r for s, r in self._bubble_rects().items()}
        if chat.is_open:
            out["panel"] = pygame.Rect(chat.rect)
        return out

    def _bubble_rects(self) -> dict[int, pygame.Rect]:
        """Seat -> where its bubble is drawn (beside the open panel when under it)."""
        chat = self.chat
        assert chat is not None
        return bubble_rects(self.layout, self.pos_of, chat.session.bubbles, self.layout.small_font,
                            chat.rect if chat.is_open else None,
                            [b.rect for b in self.buttons] + [self.layout.hand_area])

    def _chat_refresh(self, force: bool = False) -> None:
        """Damage what the chat drew and what it draws now (when either changed, or ``force``)."""
        chat = self.chat
        if chat is None:
            return
        if chat.is_open:
            chat.layout()
        new = self._chat_targets()
        if force or chat.version != self._chat_version or new != self._chat_rects:
            self.invalidate(*(list(self._chat_rects.values()) + list(new.values())) or [self.layout.toolbar])
            self.invalidate(self.layout.toolbar)
        self._chat_rects = new
        self._chat_version = chat.version

    def _chat_over_sprites(self, sprites: list[tuple]) -> None:
        """Keep the open panel above flying cards: its pixels of the static layer go on top of
        ``sprites`` (``(image, pos, area)`` tuples) when one of them crosses it."""
        chat = self.chat
        static = getattr(self, "_static", None)
        if chat is None or not chat.is_open or static is None:
            return
        box = chat.rect.clip(static.get_rect())
        if not box or not any(pygame.Rect(pos, img.get_size()).colliderect(box) for img, pos, _a in sprites):
            return
        key = (self._chat_version, tuple(box))
        if self._chat_sprite is None or self._chat_sprite[0] != key:
            self._chat_sprite = (key, static.subsurface(box).copy())
        sprites.append((self._chat_sprite[1], box.topleft, None))

    def _draw_chat(self, surf: pygame.Surface, clip: pygame.Rect) -> None:
        """Bubbles, then the open panel, where they meet ``clip`` (the static layer's redraw)."""
        chat = self.chat
        if chat is None:
            return
        now = self.clock()
        size = self.layout.small_font
        rects = self._bubble_rects()
        for seat, r in rects.items():
            if r.colliderect(clip):
                draw_bubble(surf, r, chat.session.bubbles[seat], size, now)
        if chat.is_open and chat.rect.colliderect(clip):
            chat.draw(surf)
