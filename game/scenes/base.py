"""What every phase panel offers to the table scene."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.widgets import Button

if TYPE_CHECKING:  # pragma: no cover
    from game.scenes.table_scene import TableScene


class Panel:
    """Controls for one engine phase, drawn above the hand in the action bar.

    ``buttons(view)`` lists the buttons for the current view (rebuilt when the view or the
    layout changes); ``on_button(button, view)`` acts on a click (usually
    ``scene.submit(action)``); ``prompt(view, now)`` the line shown in the message area;
    ``update(view, now)`` returns True when the panel needs a redraw (timers);
    ``selectable`` says whether hand cards can be raised in this phase.
    """

    selectable = False

    def __init__(self, scene: "TableScene") -> None:
        self.scene = scene

    def buttons(self, view: Any) -> list[Button]:
        """Buttons for ``view`` (default none)."""
        return []

    def on_button(self, button: Button, view: Any) -> None:
        """Handle a click on one of this panel's buttons."""

    def prompt(self, view: Any, now: float) -> str:
        """The instruction line for the local player ("" for none)."""
        return ""

    def update(self, view: Any, now: float) -> bool:
        """Advance timers; True when the panel must be redrawn."""
        return False

    def draw(self, surf: pygame.Surface, view: Any) -> None:
        """Extra drawing on the static layer (default nothing)."""

    def reset(self) -> None:
        """Forget per-hand state (a new hand started)."""
