"""Playing tricks: raise cards by clicking them, then Play.  The engine judges the play; a
refusal is shown with the engine's reason in the UI language."""
from __future__ import annotations

from typing import Any

from game.i18n import _
from game.scenes.base import Panel
from game.text import seat_name
from game.widgets import Button, button_width


class PlayPanel(Panel):
    """Play and Clear buttons; the selection may be prepared before the local turn."""

    selectable = True

    def buttons(self, view: Any) -> list[Button]:
        """Clear + Play for a seated player (Play enabled on the local turn with cards raised)."""
        if view.seat is None:
            return []
        lay = self.scene.layout
        n = len(self.scene.hand.selected)
        play, clear = _("Play"), _("Clear")
        rects = lay.button_row([button_width(clear, lay.font_size, round(lay.button_h * 2)),
                                button_width(play, lay.font_size, round(lay.button_h * 3.4))])
        return [Button("clear", rects[0], clear, style="flat", enabled=n > 0),
                Button("play", rects[1], play, style="primary", enabled=view.my_turn and n > 0)]

    def on_button(self, button: Button, view: Any) -> None:
        """Submit the raised cards, or lower them."""
        if button.key == "clear":
            self.scene.hand.selected.clear()
            self.scene.invalidate()
            return
        from engine.state import Play

        self.scene.submit(Play(view.seat, self.scene.hand.selected_cards()))

    def prompt(self, view: Any, now: float) -> str:
        """Whose turn, and what to do."""
        if view.my_turn:
            if view.lead is None:
                return _("Your lead: raise cards and press Play")
            return _("Your turn: follow with {n} card(s)").format(n=len(view.lead))
        if view.to_act is None:
            return ""
        return _("{name} to play…").format(name=seat_name(view.to_act, view.seat, self.scene.names))
