"""Bidding 叫分: one button per legal bid plus Pass; every seat's bid is on its name plate."""
from __future__ import annotations

from typing import Any

from game.i18n import _
from game.scenes.base import Panel
from game.text import seat_name
from game.widgets import Button, button_width


class BiddingPanel(Panel):
    """Buttons for the bids the engine allows now (``view.legal_bids()``) and Pass."""

    def buttons(self, view: Any) -> list[Button]:
        """Pass + legal bids when it is the local seat's turn; none otherwise."""
        if not view.my_turn:
            return []
        lay = self.scene.layout
        labels = [("bid:pass", _("Pass"), None, "flat")]
        labels += [(f"bid:{a}", str(a), a, "normal") for a in view.legal_bids()]
        widths = [button_width(lbl, lay.font_size, min_w=round(lay.button_h * 1.8)) for _k, lbl, _a, _s in labels]
        rects = lay.button_row(widths)
        return [Button(k, r, lbl, style=st, value=a) for (k, lbl, a, st), r in zip(labels, rects)]

    def on_button(self, button: Button, view: Any) -> None:
        """Submit the bid (``value`` None = pass)."""
        from engine.state import Bid

        self.scene.submit(Bid(view.seat, button.value))

    def prompt(self, view: Any, now: float) -> str:
        """Whose turn it is, and the bid to beat."""
        high = max((a for _s, a in view.bids if a is not None), default=None)
        if view.my_turn:
            if high is None:
                return _("Your bid: choose an amount or pass")
            return _("Your bid: the highest is {bid}").format(bid=high)
        if view.to_act is None:
            return ""
        return _("{name} is bidding…").format(name=seat_name(view.to_act, view.seat, self.scene.names))
