"""Where the hidden cards lie, read from what the seats have shown: a learned prior for the
``expert`` AI's sampled worlds (the option ``infer``).

A sampled world deals the cards a seat cannot see to the other hands (and, for a defender, to
the buried kitty) with exact counts and the known voids (:func:`.simulate.sample_world`). This
module adds a per-card weight for each holder, ``exp(w · φ(holder, card))``, where ``φ`` holds
a few signals that a seat gave away by bidding and playing:

- the auction: the dealer's bid, a defender's own highest bid (RULES.md §2);
- the leads: which effective suits a seat has led (a seat leads its long or strong suits);
- the follows (RULES.md §8): a seat that ruffed a side lead holds trumps; a seat void in a side
  lead that played no trump (it discarded) may have none; the suits a seat discarded from and
  whether it discarded point cards;
- for a defender's view, the dealer's side and the buried kitty (the dealer names its long suit
  as trump and keeps its trumps and points out of the kitty, RULES.md §3–§4).

The weights are a softmax fit (one holder among those that may still hold the card, the
holder's card count as offset) on decisions of ``basic`` self-play deals
(``tools/train_sample_prior.py``: seeded and reproducible); they live in
``ai_plugins/builtin/data/sample_prior.json``, one set per deck count. Everything here reads only
what the seat may know (a :class:`engine.state.PlayerView`).
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from typing import Any, Callable

from engine.cards import Card
from engine.order import TRUMP_INDEX

from .knowledge import seen_tricks

FEATURE_NAMES = (
    "dealer_trump", "dealer_big_trump", "dealer_trump_bid", "dealer_point", "dealer_side_high",
    "kitty_trump", "kitty_point", "kitty_side_high",
    "led_side", "led_side_high", "led_trump",
    "ruffed_trump", "declined_trump", "discarded_side", "discarded_point",
    "bidder_trump", "bidder_point", "kitty_dealer_void", "followed_side", "played_trumps",
)
"""Names of the entries of :func:`features`, in order."""

PRIOR_FILE = "sample_prior.json"
"""The weights, in ``ai_plugins/builtin/data/`` (package data)."""

KITTY = "kitty"
"""The holder name of the buried kitty in a defender's samples (as in :func:`.simulate.sample_world`)."""


def seat_signals(view: Any) -> list[dict[str, Any]]:
    """Per seat (seat order) what its bids and plays have shown, from ``view`` (play phase,
    ``view.ctx`` set): ``{"led": set of effective suits it led, "ruffed": bool (it played a
    trump to a side lead), "declined": bool (void in a side lead, it played no trump),
    "discarded": set of side suits it played off-suit, "discarded_point": bool, "bid": its
    highest bid in card points above the minimum, or None if it never bid, "followed": per
    effective suit the tricks it followed fully in suit, "trumps": trumps it played, "void":
    effective suits it did not follow fully}`` (RULES.md §2, §8)."""
    sx = view.ctx.SUITX
    n = len(view.hand_sizes)
    out = [{"led": set(), "ruffed": False, "declined": False, "discarded": set(),
            "discarded_point": False, "bid": None, "followed": [0] * 5, "trumps": 0,
            "void": set()} for _ in range(n)]
    lo = view.ruleset.bid_min
    for s, amt in view.bids:
        if amt:
            prev = out[s]["bid"]
            out[s]["bid"] = max(prev or 0, amt - lo)
    for plays in seen_tricks(view):
        lead_seat, lead = plays[0]
        lsx = sx[lead[0]]
        out[lead_seat]["led"].add(lsx)
        out[lead_seat]["trumps"] += sum(1 for c in lead if sx[c] == TRUMP_INDEX)
        for s, cards in plays[1:]:
            sig = out[s]
            sig["trumps"] += sum(1 for c in cards if sx[c] == TRUMP_INDEX)
            off = [c for c in cards if sx[c] != lsx]
            if not off:
                sig["followed"][lsx] += 1
                continue
            sig["void"].add(lsx)
            if lsx != TRUMP_INDEX:
                if any(sx[c] == TRUMP_INDEX for c in off):
                    sig["ruffed"] = True
                elif len(off) == len(cards):
                    sig["declined"] = True
            for c in off:
                if sx[c] != TRUMP_INDEX:
                    sig["discarded"].add(sx[c])
                    if Card(c).points:
                        sig["discarded_point"] = True
    return out


def features(view: Any, signals: list[dict[str, Any]], holder: Any, card: int) -> list[float]:
    """The feature vector (:data:`FEATURE_NAMES` order) of ``card`` (an id) lying with ``holder``
    (a seat, or :data:`KITTY`) as seen from ``view``; ``signals`` from :func:`seat_signals`."""
    ctx = view.ctx
    x, v = ctx.SUITX[card], ctx.VAL[card]
    trump = x == TRUMP_INDEX
    pt = 1.0 if Card(card).points else 0.0
    side_high = 1.0 if (not trump and v >= 13) else 0.0
    f = [0.0] * len(FEATURE_NAMES)
    if holder == KITTY:
        f[5] = float(trump)
        f[6] = pt
        f[7] = side_high
        if not trump and view.dealer is not None and x in signals[view.dealer]["void"]:
            f[17] = 1.0
        return f
    if holder == view.dealer:
        f[0] = float(trump)
        f[1] = 1.0 if trump and v >= 20 else 0.0
        f[2] = (view.bid - view.ruleset.bid_min) / 50.0 if trump and view.bid else 0.0
        f[3] = pt
        f[4] = side_high
    sig = signals[holder]
    f[18] = sig["followed"][x] / 3.0
    if trump:
        f[19] = sig["trumps"] / 5.0
        f[10] = 1.0 if TRUMP_INDEX in sig["led"] else 0.0
        f[11] = float(sig["ruffed"])
        f[12] = float(sig["declined"])
    else:
        if x in sig["led"]:
            f[8] = 1.0
            f[9] = side_high
        f[13] = 1.0 if x in sig["discarded"] else 0.0
    f[14] = pt if sig["discarded_point"] else 0.0
    if holder != view.dealer and sig["bid"] is not None:
        b = sig["bid"] / 50.0
        f[15] = b if trump else 0.0
        f[16] = b * pt
    return f


@lru_cache(maxsize=1)
def load_weights() -> dict[str, list[float]]:
    """The shipped weights: ``{"2": [...], "3": [...]}``, one float per :data:`FEATURE_NAMES`
    entry a deck count (``ai_plugins/builtin/data/sample_prior.json``)."""
    text = resources.files(__package__).joinpath("data", PRIOR_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if list(data["features"]) != list(FEATURE_NAMES):
        raise ValueError(f"{PRIOR_FILE} was fitted on other features: {data['features']}")
    return data["weights"]


def prior_bias(view: Any, weights: list[float] | None = None) -> Callable[[Any, int], float]:
    """The ``bias(holder, card)`` of :func:`.simulate.sample_world` for ``view`` (play phase,
    dealer known): ``exp(w · features)`` for each holder the seat cannot see into (the other
    seats; for a defender also :data:`KITTY`) and each card id, tabulated once. ``weights``
    default: the shipped ones for the deck count (KeyError if none)."""
    w = weights if weights is not None else load_weights()[str(view.ruleset.decks)]
    signals = seat_signals(view)
    holders: list[Any] = [s for s in range(len(view.hand_sizes)) if s != view.seat]
    if view.buried is None:
        holders.append(KITTY)
    table: dict[Any, list[float]] = {}
    for h in holders:
        row = []
        for c in range(54):
            z = sum(a * b for a, b in zip(w, features(view, signals, h, c)) if b)
            row.append(math.exp(max(-20.0, min(20.0, z))))
        table[h] = row

    def bias(holder: Any, card: int) -> float:
        return table[holder][card]

    return bias


__all__ = ["FEATURE_NAMES", "seat_signals", "features", "load_weights", "prior_bias", "KITTY"]
