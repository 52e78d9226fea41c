"""How fast the table moves for each ``--speed`` (seconds), shared by the table and the client.

``instant`` means no delay and no animation at all.
"""
from __future__ import annotations

from dataclasses import dataclass

SPEEDS = ("slow", "normal", "fast", "instant")


def N_(message: str) -> str:
    """Mark a speed name for the message catalog (translated where it is shown)."""
    return message


N_("slow"), N_("normal"), N_("fast"), N_("instant")


@dataclass(frozen=True)
class Pace:
    """Delays for one speed, all in seconds (floats >= 0).

    ``action_s``: pause before an AI acts; ``trick_s``: extra pause after a trick is won (so it
    can be seen); ``deal_s``: length of the deal animation; ``anim_s``: how long a played card
    flies; ``settle_s``: how long a demo shows the settlement before the next hand.
    """

    speed: str
    action_s: float
    trick_s: float
    deal_s: float
    anim_s: float
    settle_s: float

    @property
    def instant(self) -> bool:
        """True for ``instant``: no delays, no animations."""
        return self.speed == "instant"


_PACES = {
    "slow": Pace("slow", 1.2, 1.6, 2.4, 0.45, 5.0),
    "normal": Pace("normal", 0.7, 1.0, 1.6, 0.3, 3.5),
    "fast": Pace("fast", 0.3, 0.5, 0.8, 0.16, 2.0),
    "instant": Pace("instant", 0.0, 0.0, 0.0, 0.0, 0.0),
}


def pace(speed: str) -> Pace:
    """The :class:`Pace` of ``speed`` (one of :data:`SPEEDS`); ValueError otherwise."""
    try:
        return _PACES[speed]
    except KeyError:
        raise ValueError(f"speed must be one of {', '.join(SPEEDS)}, not {speed!r}") from None
