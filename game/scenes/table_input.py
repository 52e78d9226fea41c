"""Table input: pointer, touch and keys turned into the scene's intents.

A press on a button, a card tapped or dragged over, a key (see :func:`game.input.key_action`)
become selections, helper toggles or a panel's button click; nothing here draws.  Mixed into
:class:`game.scenes.table_scene.TableScene`.
"""
from __future__ import annotations

from typing import Any

import pygame

from game import fonts
from game.input import HOLD_S, escape, key_action
from game.scenes import table_extras as extras
from game.scenes.trump import SUIT_ORDER
from game.widgets import Button


class TableInput:
    """Pointer and keyboard handling of the table scene (see the module docstring)."""

    # -- input ----------------------------------------------------------------------------------------
    def handle_event(self, ev: pygame.event.Event) -> None:
        """Mouse, touch and keyboard input (positions in scene pixels); the chat panel, when
        there is one, sees every event first (:meth:`TableChat._chat_event`)."""
        if self._chat_event(ev):
            return
        if ev.type in (pygame.KEYDOWN, pygame.KEYUP):
            self._on_key(ev)
            return
        p = self.pointer.translate(ev)
        if p is None:
            return
        kind, pos, source = p
        if kind == "secondary":
            if self.hand.selected:
                self.hand.selected.clear()
                self._damage_hand()
        elif kind == "down":
            self._pointer_down(pos, source)
        elif kind == "move":
            self._pointer_move(pos, source)
        elif kind == "up":
            self._pointer_up(pos)

    def _pointer_down(self, pos: tuple[int, int], source: str) -> None:
        for b in self.buttons:
            if b.rect.collidepoint(pos):
                self._pressed = b if b.enabled else None
                if b.key == "help:last" and b.enabled:  # like L: shown while held, a tap toggles
                    self._last_press = (not self.show_last, self.clock())
                    if not self.show_last:
                        self.toggle_last_trick(True)
                return
        if self.show_settlement:
            return
        if self.hand.cursor is not None:
            self.hand.cursor = None
            self._damage_hand()
        if self.panel.selectable and self.view.seat is not None and not self._dealing:
            idx = self.hand.card_at(self.layout, pos)
            if idx is not None:
                self.hand.toggle(idx)
                extras.smart_raise(self, idx)
                self._drag = (idx in self.hand.selected, {idx})
                self._damage_hand()
                return
        if self.layout.trick_area.collidepoint(pos) and self.timeline.moving(self.clock()):
            self.skip_animation()

    def _pointer_move(self, pos: tuple[int, int], source: str) -> None:
        if self._drag is not None and self.pointer.down:
            raise_, done = self._drag
            idx = self.hand.card_at(self.layout, pos)
            if idx is not None and idx not in done:
                done.add(idx)
                if self.hand.set_raised(idx, raise_):
                    self._damage_hand()
            return
        if source != "mouse":
            return
        for b in self.buttons:
            hov = b.rect.collidepoint(pos)
            if hov != b.hover:
                b.hover = hov
                self.invalidate(b.rect)

    def _pointer_up(self, pos: tuple[int, int]) -> None:
        self._drag = None
        pressed, self._pressed = self._pressed, None
        if pressed is None:
            return
        if pressed.key == "help:last":
            opened, t0 = self._last_press or (False, self.clock())
            self._last_press = None
            if not opened or self.clock() - t0 >= HOLD_S:  # a tap on an open view or a hold: hide
                self.toggle_last_trick(False)
            return
        for b in self.buttons:
            if b.key == pressed.key and b.hit(pos):
                self._click(b)
                return

    def _on_key(self, ev: Any) -> None:
        act = key_action(ev)
        if act is None:
            return
        now = self.clock()
        if ev.type == pygame.KEYUP:
            if act == "buried":
                extras.on_buried_key(self, ev, now)
            if act == "last" and self._last_down is not None:
                held = now - self._last_down >= HOLD_S
                self._last_down = None
                if held and self.show_last:
                    self.toggle_last_trick(False)
            return
        if getattr(self, "zpy", False) and self._zpy_key(act):
            return
        if act == "menu":  # Esc always opens the menu (Backspace lowers raised cards)
            escape(self.on_escape, "table")
        elif act == "skip":
            self.skip_animation()
        elif act == "hint":
            self.hint()
        elif act == "auto":
            self.toggle_auto()
        elif act == "buried":
            extras.on_buried_key(self, ev, now)
        elif act == "last":
            if getattr(ev, "repeat", False) or self._last_down is not None:
                return
            if self.show_last:
                self.toggle_last_trick(False)
            else:
                self.toggle_last_trick(True)
                self._last_down = now
        elif act in ("left", "right", "first", "last_card"):
            step = {"left": -1, "right": 1, "first": -10_000, "last_card": 10_000}[act]
            self.hand.move_cursor(step)
            self._damage_hand()
        elif act in ("raise", "lower", "toggle"):
            if not (self.panel.selectable and self.view.seat is not None) or self._dealing or self.show_settlement:
                return
            if self.hand.cursor is None:
                self.hand.move_cursor(0)
            i = self.hand.cursor
            if i is None:
                return
            if act == "toggle":
                self.hand.toggle(i)
            else:
                self.hand.set_raised(i, act == "raise")
            extras.smart_raise(self, i)
            self._damage_hand()
        elif act == "clear":
            if self.hand.selected:
                self.hand.selected.clear()
                self._damage_hand()
        elif act == "confirm":
            for b in self.buttons:
                if b.style == "primary" and b.enabled:
                    self._click(b)
                    return
        elif act.startswith("pick") or act == "pass":
            self._pick(act)

    def _zpy_key(self, act: str) -> bool:
        """找朋友 keys on your turn (True when used): in a declaration or counter window 1–4
        pick the n-th declaration offered, 0/P passes; calling the friend, ↑/↓ change the rank,
        ←/→ the suit, 1–3 the copy (Enter calls, as everywhere)."""
        v = self.view
        if not v.my_turn or self.show_settlement:
            return False
        phase = v.phase.value
        key = None
        if phase in ("deal", "counter"):
            if act == "pass":
                key = "declare:pass"
            elif act.startswith("pick"):
                key = f"declare:{int(act[4:]) - 1}"
        elif phase == "call_friend":
            panel = self.panels["call_friend"]
            ranks = panel.ranks(v)
            if act in ("raise", "lower"):
                i = ranks.index(panel.rank) if panel.rank in ranks else 0
                panel.rank = ranks[(i + (1 if act == "raise" else -1)) % len(ranks)]
            elif act in ("left", "right"):
                suits = "SHCD"
                i = suits.index(panel.suit)
                panel.suit = suits[(i + (1 if act == "right" else -1)) % len(suits)]
            elif act.startswith("pick") and int(act[4:]) <= 3:
                panel.nth = int(act[4:])
            else:
                return False
            panel.touched = True
            self.invalidate()
            return True
        if key is None:
            return False
        for b in self.buttons:
            if b.key == key and b.enabled:
                self._click(b)
        return True

    def _pick(self, act: str) -> None:
        """Number keys: the n-th bid (1–4) or suit, 0/P pass."""
        from engine.state import Phase

        v = self.view
        if not v.my_turn or self._dealing or self.show_settlement:
            return
        key = None
        if v.phase == Phase.BID:
            if act == "pass":
                key = "bid:pass"
            else:
                legal = v.legal_bids()
                n = int(act[4:]) - 1
                if n < len(legal):
                    key = f"bid:{legal[n]}"
        elif v.phase == Phase.TRUMP and act != "pass":
            key = f"trump:{SUIT_ORDER[int(act[4:]) - 1]}"
        for b in self.buttons:
            if b.key == key and b.enabled:
                self._click(b)
                return

    def _click(self, b: Button) -> None:
        if b.key.startswith("tool:"):
            if self.on_toolbar is not None:
                self.on_toolbar(b.key[5:])
            self.renderer.clear()
            fonts.clear_cache()
            self._queue_prewarm()
            self.invalidate()
            return
        if b.key == "help:hint":
            self.hint()
            return
        if b.key == "help:auto":
            self.toggle_auto()
            return
        if b.key == "help:last":
            self.toggle_last_trick()
            return
        if b.key == "help:buried":
            extras.toggle_buried(self)
            return
        panel = self.panels["settle"] if b.key in ("next", "review") else self.panel
        panel.on_button(b, self.view)
        self.invalidate()

    def _damage_hand(self) -> None:
        lay = self.layout
        self.invalidate(lay.hand_area, lay.action_bar, lay.message_rect)
