"""找朋友 engine values <-> wire values (PROTOCOL.md "找朋友 at the table", protocol 3).

The 找朋友 counterpart of :mod:`net.codec`: a :class:`engine.zhaopengyou.ZpyView` becomes a
``ZpyView`` map, a :class:`engine.zhaopengyou_rules.ZpySettlement` a ``ZpySettlement`` map,
the 找朋友 events (``card_dealt``, ``declared``, ``passed``, ``redealt``, ``kitty_flipped``,
``deal_finished``, ``friend_called``, ``friend_revealed``) and the shared ones (``hand_started``,
``kitty_taken``, ``kitty_buried``, ``cards_played``, ``throw_failed``, ``trick_won``,
``hand_settled``) ``Event`` maps, and the actions ``declare``/``pass``/``call_friend`` (plus
红五's ``bury``/``play``) requests. Only the fields of the schemas in :mod:`net.protocol` are
written; the engine events are already filtered with ``for_seat`` by the caller, so a card a
seat may not see is never at hand here. The hand's seed is written once only, in the
``hand_settled`` event's settlement when the hand is over (:func:`settlement_out`); never in
``hand_started`` or a view.

Decoding rebuilds real engine objects so that a client can ask the engine
(``view.play_options()``, ``view.friend_calls()``) exactly as a local game does.
"""
from __future__ import annotations

from typing import Any, Mapping

from engine.events import EVENT_TYPES, ZPY_EVENT_TYPES, Event
from engine.ruleset import RuleSet, zhaopengyou
from engine.state import Bury, FinishedTrick, Play
from engine.zhaopengyou import CallFriend, Declare, Pass, ZPhase, ZpyView
from engine.zhaopengyou_rules import ZpySettlement

from . import codec
from .codec import cards_in, cards_out
from .protocol import EVENTS, ErrorCode, ProtocolError

#: Every event class a 找朋友 hand may emit, by ``kind``.
ALL_EVENT_TYPES: dict[str, type[Event]] = {**EVENT_TYPES, **ZPY_EVENT_TYPES}

ACTION_METHODS: dict[type, str] = {Declare: "declare", Pass: "pass", CallFriend: "call_friend",
                                   Bury: "bury", Play: "play"}
"""Request method for each 找朋友 action type."""

METHOD_PHASES: dict[str, tuple[ZPhase, ...]] = {
    "declare": (ZPhase.DEAL, ZPhase.COUNTER), "pass": (ZPhase.DEAL, ZPhase.COUNTER),
    "call_friend": (ZPhase.CALL_FRIEND,), "bury": (ZPhase.BURY,), "play": (ZPhase.PLAY,),
}
"""The phases in which each 找朋友 action method is possible (PROTOCOL.md "Turn kinds")."""


# ------------------------------------------------------------------------------ rules
options_out = codec.options_out
"""The rule options of a ruleset as a name -> value map (:func:`net.codec.options_out`)."""


_RULESETS: dict[tuple[tuple[str, Any], ...], RuleSet] = {}


def ruleset_in(options: Mapping[str, Any]) -> RuleSet:
    """The 找朋友 ruleset with ``options`` (cached). Raises ValueError/TypeError."""
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))
    rs = _RULESETS.get(key)
    if rs is None:
        rs = _RULESETS[key] = zhaopengyou(**dict(options))
    return rs


# ------------------------------------------------------------------------------ settlement
def settlement_out(s: ZpySettlement | None, levels_before: Any = (),
                   kitty: Any = (), seed: int | None = None) -> dict[str, Any] | None:
    """ZpySettlement -> ``ZpySettlement`` map (None stays None). ``levels_before`` (the five
    level ranks the hand was played at) and ``kitty`` (the buried cards, public once settled)
    come from the hand (找朋友 spec §8-§10). ``seed``: the hand's deal seed, written only when
    given (the host's ``hand_settled`` event: the hand is over, so its deals are no secret any
    more; the match seed the next hands come from is never sent). With it a client re-deals
    the hand and replays it from the events it received (:mod:`net.zpy_log`, PROTOCOL.md
    section 14)."""
    if s is None:
        return None
    out = {
        "dealer_side": list(s.dealer_side), "catchers": list(s.catchers),
        "eligible": list(s.eligible), "kitty_points": s.kitty_points,
        "multiplier": s.multiplier, "catcher_points": s.catcher_points, "winner": s.winner,
        "gains": list(s.gains), "levels_before": list(levels_before), "levels": list(s.levels),
        "first_card_to": s.first_card_to, "game_over": bool(s.game_over),
        "game_winners": list(s.game_winners), "alone": bool(s.alone),
        "kitty": cards_out(kitty) or [],
    }
    if seed is not None:
        out["seed"] = int(seed)
    return out


def settlement_in(d: Mapping[str, Any] | None) -> ZpySettlement | None:
    """``ZpySettlement`` map -> engine ZpySettlement (None stays None; ``levels_before`` and
    ``kitty`` are on the view: ``levels`` and ``buried``)."""
    if d is None:
        return None
    return ZpySettlement(
        dealer_side=tuple(d["dealer_side"]), catchers=tuple(d["catchers"]),
        eligible=tuple(d["eligible"]), kitty_points=d["kitty_points"],
        multiplier=d["multiplier"], catcher_points=d["catcher_points"], winner=d["winner"],
        gains=tuple(d["gains"]), levels=tuple(d["levels"]), first_card_to=d["first_card_to"],
        game_over=d["game_over"], game_winners=tuple(d["game_winners"]), alone=d["alone"],
    )


# ------------------------------------------------------------------------------ events
_CARD_FIELDS = {"cards", "attempted", "forced"}


def event_out(ev: Event, levels_before: Any = (), kitty: Any = (), seed: int | None = None) -> dict[str, Any]:
    """A 找朋友 hand's event (already filtered with ``for_seat``) -> ``Event`` map; only the
    fields of :data:`net.protocol.EVENTS` for its kind. ``levels_before``/``kitty``/``seed``:
    for ``hand_settled`` (see :func:`settlement_out`). KeyError for an unknown kind."""
    schema = EVENTS[ev.kind]
    out: dict[str, Any] = {"kind": ev.kind}
    for name in schema:
        value = getattr(ev, name)
        if name in _CARD_FIELDS:
            value = cards_out(value)
        elif name == "card":
            value = str(value)
        elif name == "plays":
            value = [[seat, cards_out(cards)] for seat, cards in value]
        elif name == "red_fives":
            value = [list(p) for p in value]
        elif name == "settlement":
            value = settlement_out(value, levels_before, kitty, seed)
        out[name] = value
    return out


def event_in(d: Mapping[str, Any]) -> Event:
    """``Event`` map (either game's) -> engine event. KeyError/ValueError for unknown kinds or
    bad fields; withheld fields (the seed) keep their defaults."""
    kind = d["kind"]
    if kind == "hand_settled" and isinstance(d.get("settlement"), Mapping) \
            and "dealer_side" not in d["settlement"]:
        return codec.event_in(d)  # a 红五 settlement
    cls = ALL_EVENT_TYPES[kind]
    kwargs: dict[str, Any] = {}
    for name, value in d.items():
        if name == "kind":
            continue
        if name in _CARD_FIELDS:
            value = cards_in(value)
        elif name == "card":
            value = cards_in([value])[0]  # type: ignore[index]
        elif name == "plays":
            value = tuple((int(seat), cards_in(cards) or ()) for seat, cards in value)
        elif name == "red_fives":
            value = tuple((a, b) for a, b in value)
        elif name == "settlement":
            value = settlement_in(value)
        kwargs[name] = value
    return cls(**kwargs)


def any_event_in(d: Mapping[str, Any]) -> Event:
    """Decode an ``Event`` map of either ruleset (clients that may sit at both tables)."""
    if d.get("kind") in ZPY_EVENT_TYPES or (
            d.get("kind") == "hand_settled" and "dealer_side" in (d.get("settlement") or {})):
        return event_in(d)
    return codec.event_in(d)


# ------------------------------------------------------------------------------ views
def view_out(v: ZpyView, tricks: list[list[Any]] | None = None) -> dict[str, Any]:
    """``ZpyView`` -> ``ZpyView`` map (only what that view holds: it is already the seat's).
    ``tricks``: the wire form of ``v.tricks`` when the caller has it (as :func:`net.codec.view_out`)."""
    calls = v.friend_calls() if v.my_turn else ()
    return {
        "ruleset": "zhaopengyou",
        "seat": v.seat,
        "phase": v.phase.value,
        "options": options_out(v.ruleset),
        "hand_no": v.hand_no,
        "levels": list(v.levels),
        "eligible": list(v.eligible),
        "first_card": v.first_card,
        "deal_no": v.deal_no,
        "cards_dealt": v.cards_dealt,
        "to_act": v.to_act,
        "hand": cards_out(v.hand),
        "hand_sizes": list(v.hand_sizes),
        "declarations": [{"seat": s, "cards": cards_out(c), "phase": p}
                         for s, c, p in v.declarations],
        "standing": None if v.standing is None else [v.standing[0], cards_out(v.standing[1])],
        "legal_declarations": [cards_out(c) for c in v.legal_declarations],
        "friend_calls": [[str(c), n] for c, n in calls],
        "dealer": v.dealer,
        "level": v.level,
        "trump": v.trump,
        "trump_known": bool(v.trump_known),
        "kitty_flip": cards_out(v.kitty_flip),
        "friend_call": None if v.friend_call is None else [str(v.friend_call[0]), v.friend_call[1]],
        "friend": v.friend,
        "alone": bool(v.alone),
        "kitty": cards_out(v.kitty),
        "buried": cards_out(v.buried),
        "burier": v.burier,
        "trick_no": v.trick_no,
        "trick_leader": v.trick_leader,
        "current_trick": [[s, cards_out(c)] for s, c in v.current_trick],
        "tricks": [codec.trick_out(t) for t in v.tricks] if tricks is None else tricks,
        "points_won": list(v.points_won),
        "failed_throws": list(v.failed_throws),
        "settlement": settlement_out(v.settlement, v.levels, v.buried or ()),
        "bury_count": v.bury_count,
        "suggested_play": _suggested_play(v),
    }


def _suggested_play(v: ZpyView) -> list[str] | None:
    """The host's first legal play for the seat to play (a hint for simple clients), else None."""
    if v.phase is not ZPhase.PLAY or not v.my_turn:
        return None
    return cards_out(next(iter(v.play_options())))


def view_in(d: Mapping[str, Any]) -> ZpyView:
    """``ZpyView`` map -> engine ``ZpyView`` (so ``play_options()``, ``friend_calls()`` work
    client-side). Raises KeyError/ValueError/TypeError for a malformed map."""
    def cards(x: Any) -> Any:
        return cards_in(x)

    standing = d["standing"]
    call = d["friend_call"]
    return ZpyView(
        seat=d["seat"], phase=ZPhase(d["phase"]), ruleset=ruleset_in(d["options"]),
        hand_no=d["hand_no"], levels=tuple(d["levels"]), eligible=tuple(d["eligible"]),
        first_card=d["first_card"], deal_no=d["deal_no"], cards_dealt=d["cards_dealt"],
        to_act=d["to_act"], hand=cards(d["hand"]) or (), hand_sizes=tuple(d["hand_sizes"]),
        declarations=tuple((x["seat"], cards(x["cards"]) or (), x["phase"])
                           for x in d["declarations"]),
        standing=None if standing is None else (standing[0], cards(standing[1]) or ()),
        legal_declarations=tuple(cards(c) or () for c in d["legal_declarations"]),
        dealer=d["dealer"], level=d["level"], trump=d["trump"], trump_known=d["trump_known"],
        kitty_flip=cards(d["kitty_flip"]),
        friend_call=None if call is None else (cards([call[0]])[0], call[1]),  # type: ignore[index]
        friend=d["friend"], alone=d["alone"], kitty=cards(d["kitty"]),
        buried=cards(d["buried"]), burier=d["burier"], trick_no=d["trick_no"],
        trick_leader=d["trick_leader"],
        current_trick=tuple((int(s), cards(c) or ()) for s, c in d["current_trick"]),
        tricks=tuple(FinishedTrick(no, leader, tuple((int(s), cards(c) or ()) for s, c in plays),
                                   winner, points)
                     for no, leader, plays, winner, points in d["tricks"]),
        points_won=tuple(d["points_won"]), failed_throws=tuple(d["failed_throws"]),
        settlement=settlement_in(d["settlement"]),
    )


def is_zpy_view(wire: Any) -> bool:
    """True for a ``ZpyView`` map (it names its ruleset), False for a 红五 ``View``."""
    return isinstance(wire, Mapping) and wire.get("ruleset") == "zhaopengyou"


def any_view_in(wire: Mapping[str, Any]) -> Any:
    """Decode a ``View`` or ``ZpyView`` map."""
    return view_in(wire) if is_zpy_view(wire) else codec.view_in(wire)


# ------------------------------------------------------------------------------ actions
def action_out(action: Any) -> tuple[str, dict[str, Any]]:
    """找朋友 (or 红五) engine action -> ``(method, params)``. TypeError for anything else."""
    if isinstance(action, Declare):
        return "declare", {"cards": cards_out(action.cards)}
    if isinstance(action, Pass):
        return "pass", {}
    if isinstance(action, CallFriend):
        return "call_friend", {"card": str(action.card), "nth": action.nth}
    return codec.action_out(action)


def action_in(method: str, params: Mapping[str, Any], seat: int) -> Any:
    """``(method, params)`` of a validated 找朋友 action request by ``seat`` -> engine action.
    ProtocolError BAD_PARAMS for card text that names no card, UNKNOWN_METHOD otherwise."""
    try:
        if method == "declare":
            return Declare(seat, cards_in(params["cards"]) or ())
        if method == "pass":
            return Pass(seat)
        if method == "call_friend":
            return CallFriend(seat, cards_in([params["card"]])[0], params["nth"])  # type: ignore[index]
        if method == "bury":
            return Bury(seat, cards_in(params["cards"]))
        if method == "play":
            return Play(seat, cards_in(params["cards"]))
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_PARAMS, str(exc),
                            refusal={"code": "bad_cards", "params": {}}) from None
    raise ProtocolError(ErrorCode.UNKNOWN_METHOD, f"{method!r} is not a 找朋友 action")


def first_legal(view: ZpyView) -> Any:
    """The simplest legal action for ``view`` (its seat to act): pass a window or counter,
    the first legal call, bury the first 7 cards held, the first legal play (the host's
    last-resort player; 找朋友 spec §3-§7). ValueError when the seat is not to act."""
    seat = view.seat
    if seat is None or view.to_act != seat:
        raise ValueError("this seat is not to act")
    phase = view.phase
    if phase in (ZPhase.DEAL, ZPhase.COUNTER):
        return Pass(seat)
    if phase is ZPhase.CALL_FRIEND:
        card, nth = view.friend_calls()[0]
        return CallFriend(seat, card, nth)
    if phase is ZPhase.BURY:
        return Bury(seat, tuple(view.hand[: view.bury_count]))
    if phase is ZPhase.PLAY:
        return Play(seat, tuple(next(iter(view.play_options()))))
    raise ValueError(f"no decision in phase {phase.value}")
