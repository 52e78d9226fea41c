"""Engine values <-> wire values (PROTOCOL.md, "Values").

Cards travel as canonical card text (``"10H"``, ``"BJ"``, ``"SJ"``); the engine's tuples become
arrays; enums their lower-case value; a ``PlayerView`` a map (``View``); events a map with
``kind`` (``Event``). Only the fields named in :mod:`net.protocol` schemas are sent, so an engine
field that is not in the protocol never leaks (the hand seed, for one, is never sent).

Decoding rebuilds real engine objects (``PlayerView``, events, actions) so that the client side
can ask the engine (``view.play_options()``, ``view.legal_bids()``) exactly as a local game does.
"""
from __future__ import annotations

from dataclasses import fields as dc_fields
from typing import Any, Iterable, Mapping

from engine.cards import Card, parse_cards
from engine.events import EVENT_TYPES, Event
from engine.refusals import Refusal
from engine.ruleset import RuleSet, hongwu
from engine.scoring import Settlement
from engine.state import (
    Bid, Bury, ChooseTrump, FinishedTrick, IllegalAction, Phase, Play, PlayerView,
)

from .protocol import EVENTS, STRUCTS, ErrorCode, ProtocolError

#: Event fields the engine has but the wire never carries (they would leak information).
WITHHELD_EVENT_FIELDS: dict[str, frozenset[str]] = {"hand_started": frozenset({"seed"})}


# ------------------------------------------------------------------------------ cards
def cards_out(cards: Iterable[int] | None) -> list[str] | None:
    """Card texts for ``cards`` (None stays None)."""
    if cards is None:
        return None
    return [str(Card(c)) if not isinstance(c, Card) else str(c) for c in cards]


#: Canonical card text -> Card: the server sends only these, so decoding is one lookup.
_CARD_BY_TEXT: dict[str, Card] = {str(c): c for c in map(Card, range(54))}


def cards_in(texts: Iterable[str] | None) -> tuple[Card, ...] | None:
    """Cards from wire card texts (None stays None). Raises ``ValueError`` on bad text."""
    if texts is None:
        return None
    texts = list(texts)
    try:
        return tuple([_CARD_BY_TEXT[t] for t in texts])
    except (KeyError, TypeError):  # not canonical: the full parser explains what is wrong
        return parse_cards(texts)


def _plays_out(plays: Iterable[tuple[int, Iterable[Card]]]) -> list[list[Any]]:
    return [[seat, cards_out(cards)] for seat, cards in plays]


def _plays_in(plays: Iterable[list[Any]]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    return tuple((int(seat), cards_in(cards) or ()) for seat, cards in plays)


def _pairs_out(pairs: Iterable[tuple[Any, Any]]) -> list[list[Any]]:
    return [[a, b] for a, b in pairs]


def _pairs_in(pairs: Iterable[list[Any]]) -> tuple[tuple[Any, Any], ...]:
    return tuple((a, b) for a, b in pairs)


# ------------------------------------------------------------------------------ rules
def options_out(ruleset: RuleSet) -> dict[str, Any]:
    """The rule options of ``ruleset`` as a name -> value map (the fields of its options
    type: ``RuleOptions`` for 红五, ``ZhaoPengyouOptions`` for 找朋友; tuples as lists)."""
    out = {}
    for f in dc_fields(ruleset.options):
        value = getattr(ruleset.options, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def ruleset_in(decks: int, options: Mapping[str, Any]) -> RuleSet:
    """The Hong Wu ruleset for ``decks`` and ``options``. Raises ValueError/TypeError."""
    return hongwu(int(decks), **dict(options))


# ------------------------------------------------------------------------------ settlement
def settlement_out(s: Settlement | None) -> dict[str, Any] | None:
    """Settlement -> ``Settlement`` map (None stays None)."""
    if s is None:
        return None
    return {
        "dealer": s.dealer, "bid": s.bid, "trick_points": list(s.trick_points),
        "kitty": cards_out(s.kitty), "kitty_points": s.kitty_points,
        "kitty_taker": s.kitty_taker, "kitty_counted": bool(s.kitty_counted),
        "red_fives": _pairs_out(s.red_fives), "red_five_adjust": s.red_five_adjust,
        "penalty_adjust": s.penalty_adjust, "dealer_final": s.dealer_final,
        "game_points": list(s.game_points),
    }


def settlement_in(d: Mapping[str, Any] | None) -> Settlement | None:
    """``Settlement`` map -> engine Settlement (None stays None)."""
    if d is None:
        return None
    return Settlement(
        dealer=d["dealer"], bid=d["bid"], trick_points=tuple(d["trick_points"]),
        kitty=cards_in(d["kitty"]) or (), kitty_points=d["kitty_points"],
        kitty_taker=d["kitty_taker"], kitty_counted=d["kitty_counted"],
        red_fives=_pairs_in(d["red_fives"]), red_five_adjust=d["red_five_adjust"],
        penalty_adjust=d["penalty_adjust"], dealer_final=d["dealer_final"],
        game_points=tuple(d["game_points"]),
    )


# ------------------------------------------------------------------------------ events
_CARD_FIELDS = {"cards", "attempted", "forced"}


def event_out(ev: Event) -> dict[str, Any]:
    """An engine event (already filtered with ``for_seat``) -> ``Event`` map.

    Only the fields of :data:`net.protocol.EVENTS` for its kind are written. Raises KeyError
    for an event kind the protocol does not know.
    """
    schema = EVENTS[ev.kind]
    out: dict[str, Any] = {"kind": ev.kind}
    for name in schema:
        value = getattr(ev, name)
        if name in _CARD_FIELDS:
            value = cards_out(value)
        elif name == "plays":
            value = _plays_out(value)
        elif name == "red_fives":
            value = _pairs_out(value)
        elif name == "settlement":
            value = settlement_out(value)
        out[name] = value
    return out


def event_in(d: Mapping[str, Any]) -> Event:
    """``Event`` map -> engine event. Raises KeyError/ValueError for unknown kinds or bad
    fields. Withheld fields (the seed) are left at their defaults."""
    cls = EVENT_TYPES[d["kind"]]
    kwargs: dict[str, Any] = {}
    for name, value in d.items():
        if name == "kind":
            continue
        if name in _CARD_FIELDS:
            value = cards_in(value)
        elif name == "plays":
            value = _plays_in(value)
        elif name == "red_fives":
            value = _pairs_in(value)
        elif name == "settlement":
            value = settlement_in(value)
        kwargs[name] = value
    return cls(**kwargs)


# ------------------------------------------------------------------------------ views
def trick_out(t: FinishedTrick) -> list[Any]:
    """A finished trick as the ``Trick`` tuple. (Not memoised: with protocol 2 full views are
    rare, and a cache keyed by tricks kept every table's old hands alive.)"""
    return [t.trick_no, t.leader, _plays_out(t.plays), t.winner, t.points]


def view_out(v: PlayerView, tricks: list[list[Any]] | None = None) -> dict[str, Any]:
    """``PlayerView`` -> ``View`` map (only what that view already holds).

    ``tricks``: the wire form of ``v.tricks`` when the caller already has it (the host keeps
    its hand's finished tricks encoded, :meth:`net.server.Room.tricks_wire`); it must be
    exactly ``[trick_out(t) for t in v.tricks]``."""
    return {
        "seat": v.seat,
        "phase": v.phase.value,
        "decks": v.ruleset.decks,
        "options": options_out(v.ruleset),
        "hand_no": v.hand_no,
        "first_bidder": v.first_bidder,
        "bids": _pairs_out(v.bids),
        "legal_bid_amounts": list(v.legal_bid_amounts),
        "dealer": v.dealer,
        "bid": v.bid,
        "trump": v.trump,
        "to_act": v.to_act,
        "hand": cards_out(v.hand),
        "hand_sizes": list(v.hand_sizes),
        "kitty": cards_out(v.kitty),
        "buried": cards_out(v.buried),
        "trick_no": v.trick_no,
        "trick_leader": v.trick_leader,
        "current_trick": _plays_out(v.current_trick),
        "tricks": [trick_out(t) for t in v.tricks] if tricks is None else tricks,
        "points_won": list(v.points_won),
        "red_fives": _pairs_out(v.red_fives),
        "failed_throws": list(v.failed_throws),
        "settlement": settlement_out(v.settlement),
        "bury_count": v.bury_count,
    }


_RULESETS: dict[tuple[int, tuple[tuple[str, Any], ...]], RuleSet] = {}


def view_in(d: Mapping[str, Any]) -> PlayerView:
    """``View`` map -> engine ``PlayerView`` (so ``play_options()`` etc. work client-side).

    Raises KeyError/ValueError/TypeError for a malformed map.
    """
    key = (int(d["decks"]), tuple(sorted(dict(d["options"]).items())))
    ruleset = _RULESETS.get(key)
    if ruleset is None:
        ruleset = _RULESETS[key] = ruleset_in(d["decks"], d["options"])
    return PlayerView(
        seat=d["seat"],
        phase=Phase(d["phase"]),
        ruleset=ruleset,
        hand_no=d["hand_no"],
        first_bidder=d["first_bidder"],
        bids=_pairs_in(d["bids"]),
        legal_bid_amounts=tuple(d["legal_bid_amounts"]),
        dealer=d["dealer"],
        bid=d["bid"],
        trump=d["trump"],
        to_act=d["to_act"],
        hand=cards_in(d["hand"]) or (),
        hand_sizes=tuple(d["hand_sizes"]),
        kitty=cards_in(d["kitty"]),
        buried=cards_in(d["buried"]),
        trick_no=d["trick_no"],
        trick_leader=d["trick_leader"],
        current_trick=_plays_in(d["current_trick"]),
        tricks=tuple(FinishedTrick(no, leader, _plays_in(plays), winner, points)
                     for no, leader, plays, winner, points in d["tricks"]),
        points_won=tuple(d["points_won"]),
        red_fives=_pairs_in(d["red_fives"]),
        failed_throws=tuple(d["failed_throws"]),
        settlement=settlement_in(d["settlement"]),
    )


# ------------------------------------------------------------------------------ refusals
def _safe_param(value: Any) -> Any:
    """A refusal parameter as a msgpack/JSON-safe value: ints, floats, strings, bools, nil
    and lists of them pass; anything else (a card object, a tuple...) becomes a list or text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_safe_param(v) for v in value]
    return str(value)


def refusal_out(reason: Any) -> dict[str, Any] | None:
    """The ``Refusal`` map ``{"code": str, "params": map}`` of an engine refusal
    (``engine.refusals.Refusal`` or ``IllegalAction``: anything with ``code``/``params``);
    None for plain text without a code."""
    code = getattr(reason, "code", None)
    if not isinstance(code, str) or not code:
        return None
    params = getattr(reason, "params", None) or {}
    return {"code": code, "params": {str(k): _safe_param(v) for k, v in dict(params).items()}}


def refusal_in(wire: Any, message: str) -> Refusal | None:
    """An ``engine.refusals.Refusal`` (the English ``message`` with the wire ``code`` and
    ``params``) from an error's ``refusal`` map; None when it is missing or malformed."""
    if not isinstance(wire, Mapping):
        return None
    code = wire.get("code")
    params = wire.get("params")
    if not isinstance(code, str) or not code:
        return None
    if not isinstance(params, Mapping):
        params = {}
    return Refusal(code, str(message), **{str(k): v for k, v in params.items()})


# ------------------------------------------------------------------------------ actions
ACTION_METHODS: dict[type, str] = {Bid: "bid", ChooseTrump: "trump", Bury: "bury", Play: "play"}
"""Request method for each engine action type."""

METHOD_PHASES: dict[str, Phase] = {"bid": Phase.BID, "trump": Phase.TRUMP, "bury": Phase.BURY,
                                   "play": Phase.PLAY}
"""The phase in which each action method is possible."""


def action_out(action: Any) -> tuple[str, dict[str, Any]]:
    """Engine action -> ``(method, params)`` of the request that asks for it.

    Raises TypeError for something that is not an engine action.
    """
    if isinstance(action, Bid):
        return "bid", {"amount": action.amount}
    if isinstance(action, ChooseTrump):
        return "trump", {"suit": action.suit}
    if isinstance(action, Bury):
        return "bury", {"cards": cards_out(action.cards)}
    if isinstance(action, Play):
        return "play", {"cards": cards_out(action.cards)}
    raise TypeError(f"not an engine action: {action!r}")


def action_in(method: str, params: Mapping[str, Any], seat: int) -> Any:
    """``(method, params)`` of a validated action request by ``seat`` -> engine action.

    Raises :class:`ProtocolError` BAD_PARAMS for card text that names no card.
    """
    try:
        if method == "bid":
            return Bid(seat, params["amount"])
        if method == "trump":
            return ChooseTrump(seat, params["suit"])
        if method == "bury":
            return Bury(seat, cards_in(params["cards"]))
        if method == "play":
            return Play(seat, cards_in(params["cards"]))
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_PARAMS, str(exc),
                            refusal={"code": "bad_cards", "params": {}}) from None
    raise ProtocolError(ErrorCode.UNKNOWN_METHOD, f"{method!r} is not an action")


__all__ = [
    "cards_out", "cards_in", "event_out", "event_in", "view_out", "view_in", "action_out",
    "action_in", "settlement_out", "settlement_in", "options_out", "ruleset_in",
    "refusal_out", "refusal_in",
    "ACTION_METHODS", "METHOD_PHASES", "WITHHELD_EVENT_FIELDS", "IllegalAction", "STRUCTS",
]
