"""Input for the table: one pointer for mouse and touch, the key map, and the menu request.

**Pointer.** :class:`PointerInput` turns mouse buttons/motion and touch
``FINGERDOWN``/``FINGERUP``/``FINGERMOTION`` (normalised 0..1 coordinates) into
``("down" | "move" | "up", (x, y), source)`` tuples in window pixels.  SDL also synthesises
mouse events from touches (and touches from the mouse on some platforms); those echoes are
dropped: mouse events that carry ``touch=True`` or come from the touch mouse id, and any mouse
button event within :data:`ECHO_S` seconds of a real touch; touch events from the mouse touch
id.  Only the first finger down is followed (a second finger is ignored until it lifts).

**Keys** (:data:`KEYS`): ←/→ move the card cursor, ↑/Space raise (Space toggles), ↓ lowers,
Enter plays / confirms, 1–4 pick the bid (or trump suit) buttons, 0 or P passes, H hint,
L last trick (hold, or tap to toggle), K the
dealer's buried cards (the same way), A auto-play, S skip the animation, Backspace clears the
selection, Esc the menu.

**Menu.** Esc calls the scene's ``on_escape`` callback when one is set; otherwise
:func:`request_menu` posts a :data:`MENU_EVENT` (a pygame user event with ``source``) for the
app / menu code to handle.
"""
from __future__ import annotations

from typing import Any, Callable

import pygame

#: posted by :func:`request_menu` (``event.source`` says who asked, e.g. ``"table"``)
MENU_EVENT = pygame.event.custom_type()

#: seconds after a touch during which mouse button events are taken as SDL's echoes
ECHO_S = 0.6

#: SDL's id of the mouse "device" that mirrors touches (SDL_TOUCH_MOUSEID) and of the touch
#: device that mirrors the mouse (SDL_MOUSE_TOUCHID)
TOUCH_MOUSE_ID = 0xFFFFFFFF
MOUSE_TOUCH_ID = -1

#: key -> action name (the table's keyboard map; see the module docstring)
KEYS: dict[int, str] = {
    pygame.K_LEFT: "left",
    pygame.K_RIGHT: "right",
    pygame.K_UP: "raise",
    pygame.K_DOWN: "lower",
    pygame.K_SPACE: "toggle",
    pygame.K_RETURN: "confirm",
    pygame.K_KP_ENTER: "confirm",
    pygame.K_1: "pick1", pygame.K_2: "pick2", pygame.K_3: "pick3", pygame.K_4: "pick4",
    pygame.K_KP1: "pick1", pygame.K_KP2: "pick2", pygame.K_KP3: "pick3", pygame.K_KP4: "pick4",
    pygame.K_0: "pass", pygame.K_KP0: "pass", pygame.K_p: "pass",
    pygame.K_h: "hint",
    pygame.K_l: "last",
    pygame.K_k: "buried",
    pygame.K_a: "auto",
    pygame.K_s: "skip",
    pygame.K_BACKSPACE: "clear",
    pygame.K_DELETE: "clear",
    pygame.K_ESCAPE: "menu",
    pygame.K_HOME: "first",
    pygame.K_END: "last_card",
}

#: a key held at least this long (s) counts as "held" (L shows the last trick while held)
HOLD_S = 0.35


def N_(message: str) -> str:
    """Mark ``message`` for the catalog (translated where it is shown)."""
    return message


#: the table's keys for help screens: ``(keys, description msgid)``; show with ``_(description)``
KEY_HELP: tuple[tuple[str, str], ...] = (
    ("← →", N_("move the card cursor")),
    ("↑ ↓ / Space", N_("raise or lower the card (Space toggles)")),
    ("Enter", N_("play, bury or confirm; next hand")),
    ("1 2 3 4", N_("bid (the n-th amount) or choose the trump suit")),
    ("0 / P", N_("pass")),
    ("1 2 3 4", N_("找朋友: declare or counter with the n-th offer; the friend's copy (1 2 3)")),
    ("↑ ↓ ← →", N_("找朋友: the friend's rank and suit")),
    ("H", N_("hint")),
    ("L", N_("last trick (hold, or tap to toggle)")),
    ("K", N_("the dealer's buried cards (hold, or tap to toggle)")),
    ("A", N_("auto-play on / off")),
    ("S", N_("skip the animation")),
    ("Backspace", N_("lower every raised card")),
    ("Esc", N_("menu")),
)


def key_action(ev: Any) -> str | None:
    """The table action bound to a KEYDOWN/KEYUP event's key, or None."""
    return KEYS.get(getattr(ev, "key", None))


def request_menu(source: str = "table") -> None:
    """Ask for the menu: post a :data:`MENU_EVENT` with ``source``."""
    try:
        pygame.event.post(pygame.event.Event(MENU_EVENT, source=source))
    except pygame.error:  # pragma: no cover - event system not initialised
        pass


def escape(on_escape: Callable[[], None] | None, source: str = "table") -> None:
    """Handle Esc: call ``on_escape`` when given, else :func:`request_menu`."""
    if on_escape is not None:
        on_escape()
    else:
        request_menu(source)


class PointerInput:
    """Mouse and touch as one pointer, without SDL's duplicate events.

    ``size_fn`` returns the window size ``(w, h)`` (to turn normalised touch coordinates into
    pixels); ``clock`` returns seconds.  :meth:`translate` maps one pygame event to a pointer
    tuple ``(kind, (x, y), source)`` — ``kind`` ``"down"``, ``"move"``, ``"up"`` or
    ``"cancel"``, ``source`` ``"mouse"`` or ``"touch"`` — or None when the event is not a
    pointer event or is an echo.  Right mouse button presses come out as ``("secondary",
    pos, "mouse")``.
    """

    def __init__(self, size_fn: Callable[[], tuple[int, int]], clock: Callable[[], float]) -> None:
        self.size_fn = size_fn
        self.clock = clock
        self.finger: Any = None
        self.down = False
        self.source: str | None = None
        self._last_touch = -1e9

    def _is_echo_mouse(self, ev: Any) -> bool:
        if getattr(ev, "touch", False):
            return True
        if getattr(ev, "which", None) == TOUCH_MOUSE_ID:
            return True
        return self.clock() - self._last_touch < ECHO_S and ev.type != pygame.MOUSEMOTION

    def _finger_pos(self, ev: Any) -> tuple[int, int]:
        w, h = self.size_fn()
        x = min(max(float(getattr(ev, "x", 0.0)), 0.0), 1.0)
        y = min(max(float(getattr(ev, "y", 0.0)), 0.0), 1.0)
        return (min(w - 1, int(x * w)), min(h - 1, int(y * h)))

    def translate(self, ev: Any) -> tuple[str, tuple[int, int], str] | None:
        """The pointer tuple for ``ev`` (see the class docstring), or None."""
        t = ev.type
        if t in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
            if getattr(ev, "touch_id", None) == MOUSE_TOUCH_ID:
                return None  # SDL's touch copy of a mouse event
            self._last_touch = self.clock()
            fid = (getattr(ev, "touch_id", 0), getattr(ev, "finger_id", 0))
            pos = self._finger_pos(ev)
            if t == pygame.FINGERDOWN:
                if self.down and self.source == "touch" and self.finger != fid:
                    return None  # a second finger
                self.finger, self.down, self.source = fid, True, "touch"
                return ("down", pos, "touch")
            if self.source != "touch" or self.finger != fid:
                return None
            if t == pygame.FINGERMOTION:
                return ("move", pos, "touch") if self.down else None
            self.down, self.finger = False, None
            return ("up", pos, "touch")
        if t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            if self._is_echo_mouse(ev):
                return None
            pos = tuple(int(v) for v in ev.pos)
            if t == pygame.MOUSEMOTION:
                if self.source == "touch" and self.down:
                    return None
                return ("move", pos, "mouse")  # type: ignore[return-value]
            button = getattr(ev, "button", 1)
            if button == 3 and t == pygame.MOUSEBUTTONDOWN:
                return ("secondary", pos, "mouse")  # type: ignore[return-value]
            if button != 1:
                return None
            if t == pygame.MOUSEBUTTONDOWN:
                self.down, self.source, self.finger = True, "mouse", None
                return ("down", pos, "mouse")  # type: ignore[return-value]
            was = self.down and self.source == "mouse"
            self.down = False
            return ("up", pos, "mouse") if was or self.source != "touch" else None  # type: ignore[return-value]
        return None
