"""Why an action is refused: an English sentence with a stable code and parameters.

A :class:`Refusal` *is* the English sentence (a ``str`` subclass), so it can be shown or logged
as it is, and it also carries ``code`` and ``params`` so that a client can say the same thing in
another language without parsing English. The codes are part of the engine's contract:

| code | params | when |
|---|---|---|
| ``wrong_count`` | ``count`` | a follow with another number of cards than were led (§8) |
| ``not_held`` | ``card`` | a card the player does not hold (or not that many) |
| ``follow_suit`` | ``suit`` | off-suit cards while the led suit is held (§8) |
| ``play_all_suit`` | ``suit``, ``count`` | short in the led suit and not all of it played (§8) |
| ``tractor_owed`` | ``suit``, ``group``, ``length`` | a like tractor is held (§8) |
| ``pairs_owed`` | ``suit``, ``length``, ``pairs`` | that many pairs are owed to a tractor (§8) |
| ``groups_owed`` | ``suit``, ``length``, ``triples``, ``pairs`` | triples and pairs owed to a tractor of triples (§8) |
| ``triple_owed`` | ``suit`` | a triple is held (§8) |
| ``pair_owed`` | ``suit``, ``throw`` | a pair is held (§8) |
| ``structure_owed`` | ``suit`` | any other shortfall of structure (§8) |
| ``empty_lead`` | | no cards chosen to lead (§7) |
| ``mixed_lead`` | | a lead of several effective suits (§6, §7) |
| ``hand_over`` | | any action after settlement |
| ``no_seat`` | ``seat`` | a seat that does not exist |
| ``not_your_turn`` | ``seat``, ``to_act`` | another seat must act |
| ``wrong_phase`` | ``action``, ``phase`` | e.g. a play during bidding |
| ``bad_bid`` | ``amount``, ``options`` | a bid that is not allowed now (§2) |
| ``bad_suit`` | ``suit`` | a trump choice that is not a suit (§3) |
| ``bury_count`` | ``count``, ``given`` | burying another number of cards than the kitty (§4) |
| ``bad_cards`` | | card text that names no card |

``suit`` is ``"S" "H" "C" "D"`` or ``"trump"``; ``card`` is card text.
"""
from __future__ import annotations

from typing import Any


class Refusal(str):
    """The English reason (the string itself), with ``code`` (str) and ``params`` (dict)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, text: str, **params: Any) -> "Refusal":
        obj = super().__new__(cls, text)
        obj.code = code
        obj.params = params
        return obj

    def __reduce__(self):
        return (_rebuild, (self.code, str(self), self.params))


def _rebuild(code: str, text: str, params: dict[str, Any]) -> Refusal:
    return Refusal(code, text, **params)
