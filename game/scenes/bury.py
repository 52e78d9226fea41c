"""Burying 扣底: the dealer's hand with the kitty merged in; select exactly the kitty size."""
from __future__ import annotations

from typing import Any

from game.i18n import _
from game.scenes.base import Panel
from game.text import seat_name
from game.widgets import Button, button_width


class BuryPanel(Panel):
    """A Confirm button, enabled only when exactly ``view.bury_count`` cards are raised."""

    selectable = True

    def buttons(self, view: Any) -> list[Button]:
        """Confirm (and Clear) for the local dealer."""
        if not view.my_turn:
            return []
        lay = self.scene.layout
        n = len(self.scene.hand.selected)
        label = _("Bury {k}/{n}").format(k=n, n=view.bury_count)
        clear = _("Clear")
        rects = lay.button_row([button_width(clear, lay.font_size, round(lay.button_h * 2)),
                                button_width(label, lay.font_size, round(lay.button_h * 3.4))])
        return [Button("clear", rects[0], clear, style="flat", enabled=n > 0),
                Button("bury", rects[1], label, style="primary", enabled=n == view.bury_count)]

    def on_button(self, button: Button, view: Any) -> None:
        """Bury the raised cards, or lower them all."""
        if button.key == "clear":
            self.scene.hand.selected.clear()
            self.scene.invalidate()
            return
        from engine.state import Bury

        self.scene.submit(Bury(view.seat, self.scene.hand.selected_cards()))

    def prompt(self, view: Any, now: float) -> str:
        """Instruction for the dealer, or who is burying."""
        if view.my_turn:
            return _("Select {n} cards to bury (kitty cards are marked with a dot)").format(n=view.bury_count)
        who = getattr(view, "burier", None)  # 找朋友: the dealer, or the counterer re-burying
        who = view.dealer if who is None else who
        if who is None:
            return ""
        return _("{name} is burying the kitty…").format(name=seat_name(who, view.seat, self.scene.names))
