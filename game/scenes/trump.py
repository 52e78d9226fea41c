"""Trump choice 叫主: the four suits in the order ♠ ♥ ♣ ♦, with a 30 s countdown.

When the time runs out the client applies ``ChooseTrump(seat, "S", timed_out=True)``.  At a
table hosted elsewhere (``scene.remote_timers``) the host keeps that time instead: the panel
shows the host's seconds (``scene.countdown``) and never chooses by itself.
"""
from __future__ import annotations

import math
from typing import Any

from game.cards_render import pip
from game.i18n import _
from game.scenes.base import Panel
from game.text import SUIT_NAMES, seat_name
from game.widgets import Button, button_width

SUIT_ORDER = ("S", "H", "C", "D")
TIME_LIMIT_S = 30.0


class TrumpPanel(Panel):
    """Suit buttons and the countdown for the local dealer."""

    def __init__(self, scene) -> None:
        super().__init__(scene)
        self.started: float | None = None
        self._shown_left: int | None = None
        self.limit_s = TIME_LIMIT_S

    def reset(self) -> None:
        """Forget the countdown."""
        self.started = None
        self._shown_left = None

    def seconds_left(self, now: float) -> int:
        """Whole seconds left on the countdown (30 before it starts)."""
        if self.started is None:
            return int(self.limit_s)
        return max(0, math.ceil(self.limit_s - (now - self.started)))

    def buttons(self, view: Any) -> list[Button]:
        """One button per suit, in ♠ ♥ ♣ ♦ order, when the local seat is the dealer to choose."""
        if not view.my_turn:
            return []
        lay = self.scene.layout
        icon = max(12, round(lay.button_h * 0.55))
        labels = [_(SUIT_NAMES[s]) for s in SUIT_ORDER]
        w = max(button_width(lbl, lay.font_size, pad=icon + 34) for lbl in labels)
        rects = lay.button_row([w] * 4)
        return [Button(f"trump:{s}", r, lbl, style="suit", value=s, icon=pip(s, icon))
                for s, lbl, r in zip(SUIT_ORDER, labels, rects)]

    def on_button(self, button: Button, view: Any) -> None:
        """Submit the chosen suit."""
        from engine.state import ChooseTrump

        self.scene.submit(ChooseTrump(view.seat, button.value))

    def update(self, view: Any, now: float) -> bool:
        """Run the countdown; apply ♠ with ``timed_out=True`` at zero (local games only)."""
        if not view.my_turn or getattr(self.scene, "remote_timers", False):
            self.started = None
            return False
        if self.started is None:
            self.started = now
        left = self.seconds_left(now)
        if left <= 0:
            from engine.state import ChooseTrump

            self.started = None
            self.scene.submit(ChooseTrump(view.seat, "S", timed_out=True))
            return True
        if left != self._shown_left:
            self._shown_left = left
            return True
        return False

    def prompt(self, view: Any, now: float) -> str:
        """The instruction with the seconds left."""
        if view.my_turn:
            if getattr(self.scene, "remote_timers", False):
                cd = self.scene.countdown
                if cd is None or cd[0] != view.seat:
                    return _("Choose the trump suit")
                return _("Choose the trump suit: {s} s left (then ♠)").format(s=cd[1])
            return _("Choose the trump suit: {s} s left (then ♠)").format(s=self.seconds_left(now))
        if view.dealer is None:
            return ""
        return _("{name} is choosing the trump suit…").format(name=seat_name(view.dealer, view.seat, self.scene.names))
