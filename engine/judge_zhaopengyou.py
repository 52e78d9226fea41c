"""The judge's 找朋友 operations: requests with ``"ruleset": "zhaopengyou"`` (zhaopengyou-spec
§11; RULES.md "The judge").

Common fields: ``decks`` omitted or 3 (anything else is a bad request); ``level`` a rank text
``"2"``..``"10"``, ``"T"``, ``"J" "Q" "K" "A"`` (numbers are bad requests); ``trump`` S H C D
or ``"none"`` (no-trump 无主); seats 0-4; ``options`` only :class:`ZhaoPengyouOptions` names
(``must_play_levels`` a list of rank texts). Every card list of one request together must fit
in three decks. Operations: card compare classify lead follow winner declare friend settle
(``bids`` and ``title`` belong to 红五 and are bad requests here).
"""
from __future__ import annotations

from typing import Any, Callable

from engine.cards import CardError, check_fits
from engine.order import NO_TRUMP, TrumpContext, level_context
from engine.patterns import classify, suit_of_play
from engine.ruleset import LEVEL_TEXT, ZhaoPengyouOptions, parse_level
from engine.tricks import check_lead, follow_error, trick_winner
from engine.zhaopengyou_rules import (
    FriendCall, check_declaration, friend_call_error, settle_hand, track_friend,
)

PLAYERS, DECKS = 5, 3


class BadRequest(ValueError):
    """A 找朋友 request the judge cannot answer (the judge turns it into ``ok: false``)."""


# --- field readers ----------------------------------------------------------------------
def _field(req: dict, name: str) -> Any:
    if name not in req:
        raise BadRequest(f"missing field {name!r}")
    return req[name]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _seat(v: Any, name: str) -> int:
    if not _is_int(v) or not 0 <= v < PLAYERS:
        raise BadRequest(f"field {name!r} must be a seat 0..{PLAYERS - 1}")
    return v


def _seats(v: Any, name: str) -> list[int]:
    if not isinstance(v, list):
        raise BadRequest(f"field {name!r} must be a list of seats 0..{PLAYERS - 1}")
    return [_seat(s, name) for s in v]


def _cards(value: Any, name: str) -> tuple:
    from engine.cards import parse_cards

    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise BadRequest(f"field {name!r} must be a list of card texts")
    try:
        return parse_cards(value)
    except CardError as exc:
        raise BadRequest(f"field {name!r}: {exc}") from None


def _card(value: Any, name: str):
    if not isinstance(value, str):
        raise BadRequest(f"field {name!r} must be a card text")
    return _cards([value], name)[0]


def _level(value: Any, name: str) -> int:
    if not isinstance(value, str):
        raise BadRequest(f"field {name!r} must be a level text 2..10, J, Q, K, A (not a number)")
    try:
        return parse_level(value)
    except (TypeError, ValueError) as exc:
        raise BadRequest(f"field {name!r}: {exc}") from None


def _levels(req: dict, name: str = "levels") -> list[int]:
    v = _field(req, name)
    if not isinstance(v, list) or len(v) != PLAYERS:
        raise BadRequest(f"field {name!r} must hold {PLAYERS} levels")
    return [_level(x, name) for x in v]


def _options(req: dict) -> ZhaoPengyouOptions:
    decks = req.get("decks", DECKS)
    if not _is_int(decks) or decks != DECKS:
        raise BadRequest("找朋友 is played with 3 decks: field 'decks' must be 3 or omitted")
    options = req.get("options", {})
    if not isinstance(options, dict):
        raise BadRequest("field 'options' must be an object")
    mpl = options.get("must_play_levels")
    if mpl is not None and (not isinstance(mpl, list) or not all(isinstance(x, str) for x in mpl)):
        raise BadRequest("option must_play_levels must be a list of level texts such as \"5\", \"K\"")
    try:
        return ZhaoPengyouOptions.from_mapping(options)
    except (TypeError, ValueError) as exc:
        raise BadRequest(str(exc)) from None


_TRUMPS = {"S": "S", "H": "H", "C": "C", "D": "D", "♠": "S", "♥": "H", "♣": "C", "♦": "D", "NONE": None}


def _trump(req: dict) -> str | None:
    t = _field(req, "trump")
    if not isinstance(t, str) or t.strip().upper() not in _TRUMPS:
        raise BadRequest("field 'trump' must be one of S H C D or \"none\"")
    return _TRUMPS[t.strip().upper()]


def _ctx(req: dict, opts: ZhaoPengyouOptions) -> TrumpContext:
    trump = _trump(req)
    level = _level(_field(req, "level"), "level")
    return level_context(level, trump, opts.trump_top_tractors)


def _fit(cards: list) -> None:
    try:
        check_fits(cards, DECKS)
    except CardError as exc:
        raise BadRequest(str(exc)) from None


def _trump_text(trump: str | None) -> str:
    return NO_TRUMP if trump is None else trump


# --- operations -------------------------------------------------------------------------
def op_card(req: dict) -> dict:
    """``card`` -> effective ``suit`` ("trump" or S H C D) and ``points`` (spec §6, §8)."""
    ctx = _ctx(req, _options(req))
    card = _card(_field(req, "card"), "card")
    return {"suit": ctx.suit_of(card), "points": card.points}


def op_compare(req: dict) -> dict:
    """``a``, ``b`` -> ``order`` 1/0/-1, or null for two different side suits (spec §6)."""
    ctx = _ctx(req, _options(req))
    a, b = _card(_field(req, "a"), "a"), _card(_field(req, "b"), "b")
    return {"order": ctx.compare(a, b)}


def op_classify(req: dict) -> dict:
    """``cards`` -> ``pattern`` and ``components`` (spec §7, rules-spec §6)."""
    ctx = _ctx(req, _options(req))
    cards = _cards(_field(req, "cards"), "cards")
    _fit(list(cards))
    p = classify(cards, ctx)
    return {"pattern": p.kind, "components": [c.as_json() for c in p.components]}


def op_lead(req: dict) -> dict:
    """``lead``, ``hands`` (the other four, in play order) -> ``valid``, ``forced`` (spec §7)."""
    ctx = _ctx(req, _options(req))
    lead = _cards(_field(req, "lead"), "lead")
    hands = _field(req, "hands")
    if not isinstance(hands, list) or len(hands) != PLAYERS - 1:
        raise BadRequest(f"field 'hands' must hold exactly {PLAYERS - 1} hands")
    others = [_cards(h, "hands") for h in hands]
    _fit(list(lead) + [c for h in others for c in h])
    check = check_lead(lead, others, ctx)
    out: dict[str, Any] = {"valid": check.valid, "forced": None}
    if not check.valid:
        out["forced"] = [str(c) for c in check.forced] if check.forced else None
        out["reason"] = check.reason
    return out


def op_follow(req: dict) -> dict:
    """``lead``, ``hand``, ``play`` -> ``legal``, ``reason`` (null when legal; spec §7)."""
    ctx = _ctx(req, _options(req))
    lead = _cards(_field(req, "lead"), "lead")
    hand = _cards(_field(req, "hand"), "hand")
    play = _cards(_field(req, "play"), "play")
    if suit_of_play(lead, ctx) is None:
        raise BadRequest("field 'lead' must be one or more cards of one effective suit")
    _fit(list(lead) + list(hand))
    reason = follow_error(lead, hand, play, ctx)
    return {"legal": reason is None, "reason": None if reason is None else str(reason)}


def op_winner(req: dict) -> dict:
    """``plays`` (five card lists, the lead first) -> ``winner`` index (spec §7)."""
    ctx = _ctx(req, _options(req))
    plays = _field(req, "plays")
    if not isinstance(plays, list) or len(plays) != PLAYERS:
        raise BadRequest(f"field 'plays' must hold {PLAYERS} plays")
    ps = [_cards(p, "plays") for p in plays]
    if len({len(p) for p in ps}) != 1 or not ps[0]:
        raise BadRequest("every play must have the same, non-zero number of cards")
    if suit_of_play(ps[0], ctx) is None:
        raise BadRequest("the lead must be cards of one effective suit")
    _fit([c for p in ps for c in p])
    return {"winner": trick_winner(ps, ctx)}


def _standing(req: dict) -> tuple[int, tuple] | None:
    st = req.get("standing")
    if st is None:
        return None
    if not isinstance(st, dict):
        raise BadRequest("field 'standing' must be null or {\"seat\", \"cards\"}")
    seat = _seat(_field(st, "seat"), "standing.seat")
    cards = _cards(_field(st, "cards"), "standing.cards")
    if len(set(cards)) > 1 or len(cards) > 3:
        raise BadRequest("field 'standing.cards' must be one to three identical cards")
    return seat, cards


def op_declare(req: dict) -> dict:
    """``phase``, ``seat``, ``cards``, ``standing``; deal: ``levels``, ``eligible``; counter:
    ``level`` (``eligible`` with counter_declare = eligible) -> ``legal``, ``overrides``,
    ``trump``, ``level``, ``reason`` (spec §3, §5)."""
    opts = _options(req)
    phase = _field(req, "phase")
    if phase not in ("deal", "counter"):
        raise BadRequest("field 'phase' must be \"deal\" or \"counter\"")
    seat = _seat(_field(req, "seat"), "seat")
    cards = _cards(_field(req, "cards"), "cards")
    standing = _standing(req)
    if standing is None:
        _fit(list(cards))
    elif standing[0] == seat:  # a self-overbid: the standing cards are among the shown ones
        counts: dict[int, int] = {}
        for group in (cards, standing[1]):
            here: dict[int, int] = {}
            for c in group:
                here[c] = here.get(c, 0) + 1
            for c, k in here.items():
                counts[c] = max(counts.get(c, 0), k)
        _fit([c for c, k in counts.items() for _ in range(k)])
    else:
        _fit(list(cards) + list(standing[1]))
    levels = level = eligible = None
    if phase == "deal":
        levels = _levels(req)
        eligible = _seats(req["eligible"], "eligible") if req.get("eligible") is not None else None
    else:
        level = _level(_field(req, "level"), "level")
        if req.get("eligible") is not None:
            eligible = _seats(req["eligible"], "eligible")
        elif opts.counter_declare == "eligible":
            raise BadRequest("field 'eligible' is needed when counter_declare is \"eligible\"")
    v = check_declaration(
        phase, seat, cards, standing=standing, options=opts, levels=levels, level=level, eligible=eligible,
    )
    return {
        "legal": v.legal, "overrides": v.overrides, "trump": v.trump,
        "level": LEVEL_TEXT[v.level] if v.level is not None else None, "reason": v.reason,
    }


def op_friend(req: dict) -> dict:
    """``trump``, ``level``, ``dealer``, ``call`` {card, nth}, ``plays`` [{seat, cards}],
    ``final`` -> ``call_ok``, ``friend``, ``revealed_at``, ``alone`` (spec §4)."""
    opts = _options(req)
    trump = _trump(req)
    level = _level(_field(req, "level"), "level")
    dealer = _seat(_field(req, "dealer"), "dealer")
    call = _field(req, "call")
    if not isinstance(call, dict):
        raise BadRequest("field 'call' must be {\"card\", \"nth\"}")
    card = _card(_field(call, "card"), "call.card")
    nth = _field(call, "nth")
    if not _is_int(nth):
        raise BadRequest("field 'call.nth' must be an integer")
    plays_in = _field(req, "plays")
    if not isinstance(plays_in, list):
        raise BadRequest("field 'plays' must be a list of {\"seat\", \"cards\"}")
    plays = []
    for p in plays_in:
        if not isinstance(p, dict):
            raise BadRequest("each play must be {\"seat\", \"cards\"}")
        plays.append((_seat(_field(p, "seat"), "plays.seat"), _cards(_field(p, "cards"), "plays.cards")))
    _fit([c for _, cs in plays for c in cs])
    final = req.get("final", False)
    if not isinstance(final, bool):
        raise BadRequest("field 'final' must be true or false")
    fc = FriendCall(card, nth)
    error = friend_call_error(fc, trump, level, opts)
    if error is not None:
        return {"call_ok": False, "friend": None, "revealed_at": None, "alone": None, "reason": error}
    st = track_friend(fc, dealer, plays, final)
    return {"call_ok": True, "friend": st.friend, "revealed_at": st.revealed_at, "alone": st.alone}


def op_settle(req: dict) -> dict:
    """``dealer``, ``friend``, ``levels``, ``trump``, ``points_won``, ``kitty``,
    ``last_trick_winner``, ``last_lead``, ``failed_throws``, ``friend_points_before_reveal`` ->
    the :class:`~engine.zhaopengyou_rules.ZpySettlement` fields (spec §8-§10)."""
    opts = _options(req)
    dealer = _seat(_field(req, "dealer"), "dealer")
    friend = _field(req, "friend")
    if friend is not None:
        friend = _seat(friend, "friend")
    levels = _levels(req)
    trump = _trump(req)
    pts = _field(req, "points_won")
    if not isinstance(pts, list) or len(pts) != PLAYERS or any(not _is_int(p) or p < 0 for p in pts):
        raise BadRequest(f"field 'points_won' must be a list of {PLAYERS} non-negative integers")
    kitty = _cards(_field(req, "kitty"), "kitty")
    last = _seat(_field(req, "last_trick_winner"), "last_trick_winner")
    last_lead = _cards(_field(req, "last_lead"), "last_lead")
    _fit(list(kitty) + list(last_lead))
    ctx = level_context(levels[dealer], trump, opts.trump_top_tractors)
    if suit_of_play(last_lead, ctx) is None:
        raise BadRequest("field 'last_lead' must be one or more cards of one effective suit")
    failed = _seats(req.get("failed_throws", []), "failed_throws")
    early = 0
    if opts.friend_early_points == "catchers" and friend is not None and friend != dealer:
        early = _field(req, "friend_points_before_reveal")
    elif "friend_points_before_reveal" in req:
        early = req["friend_points_before_reveal"]
    if not _is_int(early) or early < 0:
        raise BadRequest("field 'friend_points_before_reveal' must be a non-negative integer")
    s = settle_hand(
        dealer=dealer, friend=friend, levels=levels, trump=trump, points_won=pts, kitty=kitty,
        last_trick_winner=last, last_lead=last_lead, options=opts, failed_throws=failed,
        friend_points_before_reveal=early,
    )
    return {
        "dealer_side": list(s.dealer_side), "catchers": list(s.catchers), "eligible": list(s.eligible),
        "kitty_points": s.kitty_points, "multiplier": s.multiplier, "catcher_points": s.catcher_points,
        "winner": s.winner, "gains": list(s.gains), "levels": [LEVEL_TEXT[lv] for lv in s.levels],
        "first_card_to": s.first_card_to, "game_over": s.game_over, "game_winners": list(s.game_winners),
    }


def _not_here(op: str) -> Callable[[dict], dict]:
    def refuse(req: dict) -> dict:
        raise BadRequest(f"op {op!r} belongs to 红五; 找朋友 has no {op}")
    return refuse


OPS: dict[str, Callable[[dict], dict]] = {
    "card": op_card, "compare": op_compare, "classify": op_classify, "lead": op_lead,
    "follow": op_follow, "winner": op_winner, "declare": op_declare, "friend": op_friend,
    "settle": op_settle, "bids": _not_here("bids"), "title": _not_here("title"),
}
"""The 找朋友 operations by name (``bids`` and ``title`` answer a bad request)."""
