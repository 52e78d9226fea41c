"""The 找朋友 deal as a host paces it out: a seat's view of the deal so far.

The engine deals a 找朋友 hand up to the next seat it must poll for a declaration 亮主 in one
step (:meth:`engine.zhaopengyou.ZpyHand.apply`, 找朋友 spec §3). A host that sent all of those
cards at once would let a remote window's hand jump by a dozen cards and make the other seats'
declaration windows meaningless. :class:`net.zpy_room.ZpyRoom` therefore sends the deal's
``card_dealt`` events one at a time, :attr:`net.server.TableConfig.deal_card_s` seconds apart,
each followed by the view :func:`view_so_far` makes (PROTOCOL.md §14, "The deal, card by
card"): the seat's own cards shown so far and nothing the engine already knows beyond them
(no polled seat, no offered declaration, no dealer or trump of a deal that is not over yet).

:data:`DEAL_CARD_S` gives the per-card pause of each client ``--speed``: the same as a local
table's (``game.pacing.Pace.deal_s / 32``, a test keeps the two equal).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

#: Seconds between two dealt cards per ``--speed`` (``game.pacing`` deal length / 32).
DEAL_CARD_S: dict[str, float] = {"slow": 2.4 / 32, "normal": 1.6 / 32, "fast": 0.8 / 32,
                                 "instant": 0.0}


def deal_card_s(speed: str | None, given: float | None = None) -> float:
    """The host's seconds per dealt card: ``given`` when set (``--deal-pace``), else the pause
    of ``speed`` (None: ``normal``). ValueError for a negative ``given`` or unknown speed."""
    if given is not None:
        if given < 0:
            raise ValueError("the deal pace is seconds per card, 0 or more")
        return float(given)
    try:
        return DEAL_CARD_S[speed or "normal"]
    except KeyError:
        raise ValueError(f"unknown speed {speed!r} ({', '.join(DEAL_CARD_S)})") from None


def view_so_far(view: Any, shown: Sequence[Sequence[Any]], redeals_held: int = 0) -> Any:
    """``view`` (the engine's :class:`~engine.zhaopengyou.ZpyView` of one seat, or None for
    an observer's) as it stands after the cards of ``shown`` (per seat, the cards sent out so
    far this deal, in deal order): phase ``DEAL``, the seat's own shown cards (sorted), the
    hand sizes and cards dealt so far, nobody to act, no offered declaration, no dealer, level,
    trump, kitty or friend call yet; ``deal_no`` less the ``redeals_held`` redeals not yet
    sent. Declarations already made stay (they are sent as they happen)."""
    from engine.zhaopengyou import ZPhase

    seat = view.seat
    mine = tuple(sorted(shown[seat])) if seat is not None else ()
    return replace(
        view, phase=ZPhase.DEAL, hand=mine, hand_sizes=tuple(len(h) for h in shown),
        cards_dealt=sum(len(h) for h in shown), deal_no=view.deal_no - redeals_held,
        to_act=None, legal_declarations=(), dealer=None, level=None, trump=None,
        trump_known=False, kitty=None, kitty_flip=None, friend_call=None, friend=None,
        alone=False, burier=None, buried=None, settlement=None)
