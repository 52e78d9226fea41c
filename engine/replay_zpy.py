"""Replay files 回放 of 找朋友 hands: the same JSON-lines format as 红五's (docs/REPLAY.md
"找朋友"), with a header for the match state a 找朋友 hand starts from (levels, declaring
right, first-card seat) and its own action lines (declare, pass, call, bury, play).

Pure: text in, values out. :mod:`engine.replay` hands a header whose ``ruleset`` is
``"zhaopengyou"`` to :func:`parse` here, and :func:`engine.replay.verify` /
:func:`~engine.replay.frames` / :func:`~engine.replay.text_lines` dispatch on the parsed type,
so callers use one set of functions for both games.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from engine.cards import Card
from engine.replay import (
    FORMAT, VERSION, ReplayError, _cards, _seat, apply_line, check_recorded, parse_action_lines,
)
from engine.ruleset import RuleSet, zhaopengyou
from engine.state import Bury, FinishedTrick, Play
from engine.zhaopengyou import LEVEL_NAMES, CallFriend, Declare, Pass, ZPhase, ZpyAction, ZpyHand

RULESET = "zhaopengyou"
"""The ``ruleset`` field of a 找朋友 replay header."""


@dataclass(frozen=True)
class ZpyReplay:
    """A parsed 找朋友 replay: ``header`` (line 1, docs/REPLAY.md "找朋友") and ``actions``
    (the engine actions of lines 2.., in order)."""

    header: dict[str, Any]
    actions: tuple[ZpyAction, ...]

    @property
    def ruleset(self) -> RuleSet:
        """The header's 找朋友 ruleset (its ``options``)."""
        return zhaopengyou(**(self.header.get("options") or {}))


# --- writing ---------------------------------------------------------------------------------
def actions_from_events(events: Iterable[Any], since_last_redeal: bool = False) -> list[ZpyAction]:
    """The actions that produced a :class:`ZpyHand`'s full event log ``events``: declarations,
    passes, the friend call, buries, plays (a failed throw as attempted). With
    ``since_last_redeal`` only those after the last redeal (a hand stored by its stack)."""
    evs = list(events)
    if since_last_redeal:
        last = max((i for i, ev in enumerate(evs) if ev.kind == "redealt"), default=-1)
        evs = evs[last + 1:]
    out: list[ZpyAction] = []
    attempted: dict[int, tuple[Card, ...]] = {}
    for ev in evs:
        kind = ev.kind
        if kind == "declared":
            out.append(Declare(ev.seat, tuple(ev.cards)))
        elif kind == "passed":
            out.append(Pass(ev.seat))
        elif kind == "friend_called":
            out.append(CallFriend(ev.seat, ev.card, ev.nth))
        elif kind == "kitty_buried":
            out.append(Bury(ev.seat, tuple(ev.cards)))
        elif kind == "throw_failed":
            attempted[ev.seat] = tuple(ev.attempted)
        elif kind == "cards_played":
            out.append(Play(ev.seat, attempted.pop(ev.seat, tuple(ev.cards))))
    return out


def action_dict(action: ZpyAction) -> dict[str, Any]:
    """One 找朋友 action as its replay line's object (docs/REPLAY.md "找朋友")."""
    if isinstance(action, Declare):
        return {"a": "declare", "seat": action.seat, "cards": [str(c) for c in action.cards]}
    if isinstance(action, Pass):
        return {"a": "pass", "seat": action.seat}
    if isinstance(action, CallFriend):
        return {"a": "call", "seat": action.seat, "card": str(action.card), "nth": action.nth}
    kind = "bury" if isinstance(action, Bury) else "play"
    return {"a": kind, "seat": action.seat, "cards": [str(c) for c in action.cards]}


def settlement_dict(st: Any, hand: ZpyHand) -> dict[str, Any]:
    """The parts of a settled ``hand`` (its :class:`~engine.zhaopengyou_rules.ZpySettlement`
    ``st``) a replay checks: ``catcher_points``, ``winner``, ``levels`` (after), ``gains``,
    ``dealer_side``, ``catchers``, ``kitty_points``, ``multiplier``, ``game_over``,
    ``game_winners``, ``friend`` (seat or None), ``alone``, ``kitty`` (the buried cards)."""
    return {"catcher_points": st.catcher_points, "winner": st.winner, "levels": list(st.levels),
            "gains": list(st.gains), "dealer_side": list(st.dealer_side), "catchers": list(st.catchers),
            "kitty_points": st.kitty_points, "multiplier": st.multiplier, "game_over": st.game_over,
            "game_winners": list(st.game_winners), "friend": hand.friend, "alone": bool(st.alone),
            "kitty": [str(c) for c in hand.kitty]}


def options_dict(rs: RuleSet) -> dict[str, Any]:
    """The 找朋友 options of ``rs`` as JSON values (``must_play_levels`` a list of rank ints)."""
    o = rs.options
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in ((f, getattr(o, f)) for f in o.__dataclass_fields__)}


def header_for(hand: ZpyHand, **extra: Any) -> dict[str, Any]:
    """The header of a settled ``hand``: format, version, ruleset, decks, options, seed (or,
    for a hand without one, ``deal.stack``: the last deal's 162 cards), hand_no, levels
    (before), eligible, first_card, then ``extra`` (seats, seat, time, match_id, ...), dealer,
    level, trump (null: no-trump), friend_call ``[card, nth]`` and the settlement. Raises
    ValueError when the hand is not settled, or has no seed and was redealt (its first deal
    is lost: deal 找朋友 hands with a seed)."""
    if hand.settlement is None:
        raise ValueError("only a settled hand can be written as a replay")
    rs = hand.ruleset
    h: dict[str, Any] = {"format": FORMAT, "version": VERSION, "ruleset": RULESET, "decks": rs.decks,
                         "options": options_dict(rs), "seed": hand.seed, "hand_no": hand.hand_no,
                         "levels": list(hand.levels), "eligible": list(hand.eligible),
                         "first_card": hand.first_card}
    if hand.seed is None:
        if hand.deal_no > 1:
            raise ValueError("a 找朋友 hand without a seed that was redealt cannot be written as a replay "
                             "(deal with a seed: ZpyMatch(seed=...))")
        h["deal"] = {"stack": [str(c) for c in hand.stack]}
    elif _first_card_drawn(hand):
        h["draw_first_card"] = True
    h.update(extra)
    card, nth = hand.friend_call
    h.update({"dealer": hand.dealer, "level": hand.level, "trump": hand.trump, "friend_call": [str(card), nth],
              "settlement": settlement_dict(hand.settlement, hand)})
    return h


def _first_card_drawn(hand: ZpyHand) -> bool:
    """Whether ``hand`` (with a seed) drew its first-card seat from its seed (ZpyHand.new with
    ``first_card=None``, a match's first hand) rather than being given it: the generator
    draws the seat before the shuffle, so the two ways usually deal different cards. Told
    apart by redoing the hand's shuffles both ways and comparing every deal's dealt cards
    (its ``card_dealt`` events, redeals included) and the last stack, kitty included: drawn
    only when the given seat does not reproduce them and the drawn one does. (Comparing only
    the first cards dealt is not enough: ``_shuffle`` redraws indices that are too large, so
    the two generator streams can realign and deal the same top cards with a different rest.)"""
    import random

    from engine.cards import make_deck
    from engine.state import _shuffle

    deals: list[list] = [[]]
    for ev in hand.events:
        if ev.kind == "redealt":
            deals.append([])
        elif ev.kind == "card_dealt":
            deals[-1].append(ev.cards[0])

    def reproduces(draw: bool) -> bool:
        rng = random.Random(hand.seed)
        if draw and rng.randrange(hand.ruleset.players) != hand.first_card:
            return False
        stack: list = []
        for dealt in deals:
            stack = make_deck(hand.ruleset.decks)
            _shuffle(stack, rng)
            if stack[:len(dealt)] != dealt:
                return False
        return stack == list(hand.stack)

    return not reproduces(False) and reproduces(True)


def replay_lines(hand: ZpyHand, **extra: Any) -> list[str]:
    """The replay of a settled ``hand`` as lines (no newlines): header, then one action a line."""
    lines = [json.dumps(header_for(hand, **extra), ensure_ascii=False, separators=(",", ":"))]
    acts = actions_from_events(hand.events, since_last_redeal=hand.seed is None)
    lines += [_action_line(a) for a in acts]
    return lines


def _action_line(action: ZpyAction) -> str:
    """``json.dumps(action_dict(action), separators=(",", ":"))``, formatted directly (a hand
    has up to ~1,500 lines, most of them passes; card texts and ints need no escaping)."""
    t = type(action)
    if t is Pass:
        return f'{{"a":"pass","seat":{action.seat}}}'
    if t is CallFriend:
        return f'{{"a":"call","seat":{action.seat},"card":"{action.card}","nth":{action.nth}}}'
    kind = "play" if t is Play else "bury" if t is Bury else "declare"
    cards = ",".join(f'"{c}"' for c in action.cards)
    return f'{{"a":"{kind}","seat":{action.seat},"cards":[{cards}]}}'


def dumps(hand: ZpyHand, **extra: Any) -> str:
    """The replay file text of a settled 找朋友 ``hand`` (lines ending in ``\\n``)."""
    return "\n".join(replay_lines(hand, **extra)) + "\n"


# --- reading ---------------------------------------------------------------------------------
def parse_action(obj: Any, players: int, line: int) -> ZpyAction:
    """One 找朋友 action line's object as an engine action; :class:`ReplayError` names ``line``."""
    if not isinstance(obj, dict):
        raise ReplayError(line, "an action line must be a JSON object")
    kind = obj.get("a")
    seat = _seat(obj.get("seat"), players, line)
    if kind == "pass":
        return Pass(seat)
    if kind == "call":
        card, nth = obj.get("card"), obj.get("nth")
        if not isinstance(card, str) or type(nth) is not int:
            raise ReplayError(line, "a call needs a card text and nth (1..3)")
        return CallFriend(seat, _cards([card], line)[0], nth)
    if kind in ("declare", "bury", "play"):
        cards = _cards(obj.get("cards"), line)
        return {"declare": Declare, "bury": Bury, "play": Play}[kind](seat, cards)
    raise ReplayError(line, f"unknown 找朋友 action {kind!r} (declare, pass, call, bury or play)")


def parse_lines(header: dict[str, Any], lines: Sequence[str]) -> ZpyReplay:
    """The 找朋友 replay of ``header`` (line 1, already checked for format and version by
    :func:`engine.replay.parse`) and the action ``lines`` (file lines 2..). Raises
    :class:`ReplayError` with the line."""
    seed = header.get("seed")
    if seed is not None and type(seed) is not int:
        raise ReplayError(1, "seed must be a whole number or null")
    deal = header.get("deal")
    if seed is None and not (isinstance(deal, dict) and isinstance(deal.get("stack"), list)):
        raise ReplayError(1, "the header needs a seed or a deal with its stack")
    try:
        rs = zhaopengyou(**(header.get("options") or {}))
    except (TypeError, ValueError) as exc:
        raise ReplayError(1, f"bad 找朋友 options: {exc}") from None
    n = rs.players
    levels, eligible = header.get("levels"), header.get("eligible")
    if not isinstance(levels, list) or len(levels) != n or any(type(v) is not int or not 2 <= v <= 14 for v in levels):
        raise ReplayError(1, f"levels must be {n} level ranks 2..14")
    if not isinstance(eligible, list) or not eligible:
        raise ReplayError(1, "eligible must be a list of seats")
    for s in eligible:
        _seat(s, n, 1)
    _seat(header.get("first_card"), n, 1)
    return ZpyReplay(header, parse_action_lines(lines, parse_action, n))


# --- re-running ------------------------------------------------------------------------------
def start(replay: ZpyReplay) -> ZpyHand:
    """The dealt hand of ``replay`` before any action (from its seed, or its stack), waiting
    for its first polled seat. Raises :class:`ReplayError` (line 1) when it cannot be dealt.

    A header with ``draw_first_card`` says the first-card seat was drawn from the seed.
    Replays written before :func:`_first_card_drawn` compared every deal may carry it wrongly
    for a match's later hand; so when the
    actions do not play through with the drawn seat but do with the header's ``first_card``,
    the given seat is used: a stored record stays readable."""
    if replay.header.get("draw_first_card") and replay.header.get("seed") is not None:
        if not _plays_through(replay, True) and _plays_through(replay, False):
            return _deal(replay, False)
        return _deal(replay, True)
    return _deal(replay, False)


def _deal(replay: ZpyReplay, draw: bool) -> ZpyHand:
    """The dealt hand of ``replay``, its first-card seat drawn from the seed when ``draw``
    (and the header has a seed), else the header's ``first_card``."""
    h = replay.header
    try:
        first = None if draw and h.get("seed") is not None else h["first_card"]
        kw = dict(hand_no=h.get("hand_no", 1), levels=h["levels"], eligible=h["eligible"], first_card=first)
        if h.get("seed") is not None:
            return ZpyHand.new(replay.ruleset, h["seed"], **kw)
        return ZpyHand.from_stack(h["deal"]["stack"], replay.ruleset, **kw)
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(1, f"cannot deal this hand: {exc}") from None


def _plays_through(replay: ZpyReplay, draw: bool) -> bool:
    """Whether every action of ``replay`` is accepted, ending the hand, when dealt by
    :func:`_deal` with ``draw``."""
    try:
        hand = _deal(replay, draw)
        _apply_all(hand, replay)
    except ReplayError:
        return False
    return hand.is_over


def _apply(hand: ZpyHand, action: ZpyAction, line: int) -> None:
    apply_line(hand, action, line, action_dict)


def _apply_all(hand: ZpyHand, replay: ZpyReplay) -> None:
    """Apply every action of ``replay`` to ``hand`` (line numbers from 2); raises
    :class:`ReplayError` naming the first refused action's line."""
    for i, action in enumerate(replay.actions, start=2):
        _apply(hand, action, i)


def rerun(replay: ZpyReplay) -> ZpyHand:
    """Apply every action of ``replay``; returns the settled hand. Raises :class:`ReplayError`
    naming the first refused action's line, or the last line when the hand is not over."""
    hand = start(replay)
    _apply_all(hand, replay)
    if not hand.is_over:
        raise ReplayError(len(replay.actions) + 1, f"the hand is not over after the last action (phase {hand.phase.value})")
    return hand


def verify(replay: ZpyReplay) -> ZpyHand:
    """Re-run ``replay`` and compare with its header: the settlement (catchers' points,
    winner, levels after, gains, sides, friend, kitty ...) and the dealer, level, trump and
    friend call. Returns the hand; raises :class:`ReplayError` (line 1 for a header the
    actions do not reproduce, or the refused action's line)."""
    hand = rerun(replay)
    card, nth = hand.friend_call
    check_recorded(replay.header, settlement_dict(hand.settlement, hand),
                   (("first_card", hand.first_card), ("dealer", hand.dealer), ("level", hand.level),
                    ("trump", hand.trump), ("friend_call", [str(card), nth])))
    return hand


@dataclass(frozen=True)
class ZpyFrame:
    """One step of a 找朋友 replay viewer: the table after ``trick_no`` finished tricks (0:
    after the bury and the counter round, before the first lead). ``hands`` every seat's cards
    face up; ``tricks`` (:class:`engine.state.FinishedTrick`); ``points_won`` card points per
    seat; ``dealer``, ``level``, ``trump`` (None: no-trump), ``levels`` (before the hand);
    ``declarations`` ((seat, cards, "deal" or "counter"), ...); ``friend_call`` (card, nth);
    ``friend`` (the seat once revealed by this frame, else None), ``alone`` (the dealer is
    known to play alone); ``kitty`` (as dealt), ``buried`` (as buried), ``burier``;
    ``settlement`` (a ZpySettlement) on the last frame only."""

    trick_no: int
    hands: tuple[tuple[Card, ...], ...]
    tricks: tuple[FinishedTrick, ...]
    points_won: tuple[int, ...]
    dealer: int
    level: int
    trump: str | None
    levels: tuple[int, ...]
    declarations: tuple[tuple[int, tuple[Card, ...], str], ...]
    friend_call: tuple[Card, int] | None
    friend: int | None
    alone: bool
    kitty: tuple[Card, ...]
    buried: tuple[Card, ...]
    burier: int | None
    settlement: Any = None

    @property
    def last_trick(self) -> FinishedTrick | None:
        """The trick that just finished (None on frame 0)."""
        return self.tricks[-1] if self.tricks else None


def frames(replay: ZpyReplay) -> list[ZpyFrame]:
    """The viewer's steps: frame 0 when play starts (after the bury and the counter round),
    then one per finished trick (the last carries the settlement); index k is "after trick k".
    Raises :class:`ReplayError` as :func:`rerun`."""
    hand = start(replay)
    out: list[ZpyFrame] = []
    dealt_kitty: tuple[Card, ...] = ()

    def snap() -> None:
        out.append(ZpyFrame(len(hand.tricks), tuple(tuple(x) for x in hand.hands), tuple(hand.tricks),
                            tuple(hand.points_won), hand.dealer, hand.level, hand.trump, tuple(hand.levels),
                            tuple(hand.declarations), hand.friend_call, hand.friend,
                            bool(hand.alone and hand.friend_resolved), dealt_kitty, tuple(hand.buried),
                            hand.burier, hand.settlement))

    for i, action in enumerate(replay.actions, start=2):
        _apply(hand, action, i)
        if not dealt_kitty:
            taken = next((ev for ev in hand.events if ev.kind == "kitty_taken"), None)
            dealt_kitty = tuple(taken.cards) if taken is not None else ()
        if not out and hand.phase in (ZPhase.PLAY, ZPhase.SETTLE) and not isinstance(action, Play):
            snap()
        elif isinstance(action, Play) and not hand.current:
            snap()
    if not hand.is_over:
        raise ReplayError(len(replay.actions) + 1, "the hand is not over after the last action")
    return out


def text_lines(replay: ZpyReplay, names: Sequence[str] | None = None) -> list[str]:
    """A plain-text 找朋友 replay: the header, declarations, dealer, level, trump, the friend
    call, the kitty, every hand face up, then trick by trick (with the friend's reveal) and
    the settlement (catchers' points, winner, levels before -> after)."""
    fs = frames(replay)
    h = replay.header
    seats = list(names or h.get("seats") or [])
    n = replay.ruleset.players
    label = [f"seat {s}" + (f" ({seats[s]})" if s < len(seats) and seats[s] else "") for s in range(n)]
    first = fs[0]
    lv = lambda vs: " ".join(LEVEL_NAMES[v] for v in vs)  # noqa: E731
    out = [f"replay 找朋友: {h.get('time', '')} seed {h.get('seed')} match {h.get('match_id', '-')} "
           f"hand {h.get('hand_no', 1)} options {json.dumps(h.get('options', {}), sort_keys=True)}".replace("  ", " ")]
    out.append(f"levels before: {lv(first.levels)}")
    out.append("declarations: " + (", ".join(f"{label[s]} {' '.join(map(str, c))} ({p})"
                                             for s, c, p in first.declarations) or "none"))
    card, nth = first.friend_call
    out.append(f"dealer: {label[first.dealer]}, level {LEVEL_NAMES[first.level]}, trump {first.trump or 'none'}, "
               f"friend call: the {('1st', '2nd', '3rd')[nth - 1]} {card}")
    out.append("kitty dealt: " + " ".join(map(str, first.kitty)))
    out.append("kitty buried: " + " ".join(map(str, first.buried)))
    out.append("hands after the bury (face up):")
    for s in range(n):
        out.append(f"  {label[s]}: " + " ".join(map(str, first.hands[s])))
    known = first.friend
    for f in fs[1:]:
        t = f.last_trick
        plays = "; ".join(f"{label[s]} {' '.join(map(str, cards))}" for s, cards in t.plays)
        reveal = ""
        if f.friend is not None and known is None:
            reveal, known = f", friend revealed: {label[f.friend]}", f.friend
        out.append(f"trick {t.trick_no}: {plays} -> won by {label[t.winner]} ({t.points} points){reveal}")
    st = fs[-1].settlement
    friend = "alone" if st.alone else label[fs[-1].friend] if fs[-1].friend is not None else "alone"
    out.append(f"settlement: friend {friend}; catchers {st.catcher_points} points (kitty {st.kitty_points} "
               f"x{st.multiplier}); {st.winner} win; levels {lv(first.levels)} -> {lv(st.levels)}"
               + (f"; game over: {', '.join(label[s] for s in st.game_winners)} won" if st.game_over else ""))
    return out
