"""找朋友 (Finding Friends) rules as pure functions: declaring 亮主/反牌, the friend call
叫朋友, the kitty multiplier 抠底, settlement and level changes (zhaopengyou-spec §3-§5,
§8-§10; RULES.md "找朋友").

Shapes and units: seats are ints 0..4 in play order; levels are rank ints 2..14 (A = 14);
cards are :class:`engine.cards.Card`; points are card points (5s, 10s, Ks). The phase
machine (deal windows, the counter round, tricks) lives elsewhere and calls these.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Sequence

from engine.cards import BIG_JOKER_ID, SMALL_JOKER_ID, Card, card_points
from engine.order import NO_TRUMP, TrumpContext, level_context
from engine.patterns import INVALID, classify
from engine.ruleset import ZhaoPengyouOptions

PLAYERS = 5
"""Seats at a 找朋友 table (zhaopengyou-spec §1); the ruleset object says the same."""
ACE = 14
"""The top level: nobody passes A (zhaopengyou-spec §2)."""

DEAL, COUNTER = "deal", "counter"
"""The two phases in which a seat may show cards for trump (§3 亮主, §5 反牌)."""

_SUIT_STRENGTH = {"S": 4, "H": 3, "C": 2, "D": 1, None: 0}
"""♠ > ♥ > ♣ > ♦ in declarations (§3); jokers 0 (their value already separates them)."""


# --------------------------------------------------------------------------------------
# declaring (§3, §5)
# --------------------------------------------------------------------------------------
def declaration_strength(cards: Sequence[Card]) -> tuple[int, int, int]:
    """Strength of a declaration (zhaopengyou-spec §3): ``(size, value, suit)``, compared as a
    tuple (higher is stronger). ``size`` is the number of cards (triple 3 > pair 2 > single 1);
    ``value`` is 16 for big jokers, 15 for small jokers, else the rank 2..14 (A high), so a pair
    of 3s beats a pair of ♠2s; ``suit`` is ♠ 4, ♥ 3, ♣ 2, ♦ 1, jokers 0. An empty list is
    ``(0, 0, 0)`` (nothing standing: a kitty flip). Assumes identical cards (see
    :func:`check_declaration`)."""
    if not cards:
        return (0, 0, 0)
    c = Card(cards[0])
    return (len(cards), c.rank, _SUIT_STRENGTH[c.suit])


def counter_strength(cards: Sequence[Card]) -> tuple[int, int, int]:
    """Strength of a counter-declaration against a standing one (zhaopengyou-spec §5): larger
    size, then BJ > SJ > ♠ > ♥ > ♣ > ♦ (the rank of level cards plays no part): ``(size,
    joker 2/1/0, suit 4..1)``. Empty (nothing standing after a kitty flip): ``(0, 0, 0)``."""
    if not cards:
        return (0, 0, 0)
    c = Card(cards[0])
    joker = 2 if c == BIG_JOKER_ID else 1 if c == SMALL_JOKER_ID else 0
    return (len(cards), joker, _SUIT_STRENGTH[c.suit])


@dataclass(frozen=True)
class DeclareVerdict:
    """The answer of :func:`check_declaration`.

    ``legal``: this seat may show these cards in this phase (right, shape and rank; strength
    aside). ``overrides``: legal and it replaces the standing declaration. ``trump``: what it
    would make trump when legal — ``"S" "H" "C" "D"`` or ``"none"`` (:data:`NO_TRUMP`, jokers:
    no-trump 无主); None when not legal. ``level``: the level rank it would set (the
    declarer's own level in the deal, the hand's level in the counter round), None when not
    legal. ``reason``: None only when ``overrides``, else a sentence.
    """

    legal: bool
    overrides: bool
    trump: str | None
    level: int | None
    reason: str | None


def _refuse(reason: str) -> DeclareVerdict:
    return DeclareVerdict(False, False, None, None, reason)


def _held(cards: Sequence[Card], hand: Sequence[Card]) -> bool:
    have: dict[int, int] = {}
    for c in hand:
        have[c] = have.get(c, 0) + 1
    for c in cards:
        if not have.get(c):
            return False
        have[c] -= 1
    return True


def check_declaration(
    phase: str,
    seat: int,
    cards: Sequence[Card],
    *,
    standing: "tuple[int, tuple[Card, ...]] | None",
    options: ZhaoPengyouOptions,
    levels: Sequence[int] | None = None,
    level: int | None = None,
    eligible: Collection[int] | None = None,
    hand: Sequence[Card] | None = None,
) -> DeclareVerdict:
    """May ``seat`` show ``cards`` for trump now, and does it override (zhaopengyou-spec §3, §5)?

    ``phase`` is ``"deal"`` (亮主/抢庄, during the deal) or ``"counter"`` (反牌, after the
    bury). ``standing`` is ``(seat, cards)`` of the standing declaration or None (after a kitty
    flip pass ``(dealer, ())``: the dealer is not polled, anyone's legal counter overrides).
    ``hand``, when given, must hold the cards (shown cards stay in hand).

    Deal: ``levels`` (five level ranks) is required; ``eligible`` (seats with the declaring
    right, None = everyone). Legal: the seat has the right, the cards are 1-3 identical cards
    of the seat's own level rank or identical jokers (a single joker only with
    ``single_joker_declares``). Overrides, mode "contest": nothing stands, or strictly stronger
    by :func:`declaration_strength` (and, when ``standing`` is this seat's, ``self_overbid``);
    mode "first": only while nothing stands.

    Counter: ``level`` (the hand's level rank L) is required. Legal: ``counter_declare`` is not
    "off" ("eligible": the seat is in ``eligible``, then required), the seat is not the
    standing declarer's, the cards are 2 or 3 identical cards of rank L or identical jokers.
    Overrides: stronger than the standing one by :func:`counter_strength`.

    Raises ValueError for an unknown phase or a missing ``levels``/``level``/``eligible``.
    """
    if phase not in (DEAL, COUNTER):
        raise ValueError(f"phase must be 'deal' or 'counter', not {phase!r}")
    cards = tuple(Card(c) for c in cards)
    if phase == DEAL:
        if levels is None:
            raise ValueError("a deal declaration needs the five levels")
        if eligible is not None and seat not in eligible:
            return _refuse("this seat has no declaring right this hand")
        own = levels[seat]
    else:
        if level is None:
            raise ValueError("a counter-declaration needs the hand's level")
        if options.counter_declare == "off":
            return _refuse("counter-declaring is switched off (counter_declare = off)")
        if options.counter_declare == "eligible":
            if eligible is None:
                raise ValueError("counter_declare = eligible needs the eligible seats")
            if seat not in eligible:
                return _refuse("only seats with the declaring right may counter (counter_declare = eligible)")
        if standing is not None and standing[0] == seat:
            return _refuse("the standing declarer does not counter himself")
        own = level
    if not cards:
        return _refuse("show one to three identical cards")
    if len(set(cards)) != 1:
        return _refuse("the cards shown must be identical (same rank and suit)")
    if len(cards) > 3:
        return _refuse("at most three identical cards may be shown")
    card = cards[0]
    if card.is_joker:
        trump = NO_TRUMP
        if len(cards) == 1 and (phase == COUNTER or not options.single_joker_declares):
            return _refuse("a single joker cannot declare")
    elif card.rank != own:
        whose = "your own level" if phase == DEAL else "the hand's level"
        return _refuse(f"a declaration shows cards of {whose} rank or jokers")
    else:
        trump = card.suit
    if phase == COUNTER and len(cards) < 2:
        return _refuse("a counter shows a pair or a triple")
    if hand is not None and not _held(cards, hand):
        return _refuse("you do not hold these cards")
    if phase == DEAL:
        if standing is None:
            return DeclareVerdict(True, True, trump, own, None)
        if options.declaration_mode == "first":
            return DeclareVerdict(True, False, trump, own, "a declaration already stands (declaration_mode = first)")
        if standing[0] == seat and not options.self_overbid:
            return DeclareVerdict(True, False, trump, own, "you may not outbid yourself (self_overbid = false)")
        if declaration_strength(cards) > declaration_strength(standing[1]):
            return DeclareVerdict(True, True, trump, own, None)
        return DeclareVerdict(True, False, trump, own, "not stronger than the standing declaration")
    if standing is None or counter_strength(cards) > counter_strength(standing[1]):
        return DeclareVerdict(True, True, trump, own, None)
    return DeclareVerdict(True, False, trump, own, "not stronger than the standing declaration")


def kitty_flip(kitty: Sequence[Card], first_seat: int, eligible: Collection[int], levels: Sequence[int]) -> tuple[int, str]:
    """Nobody declared (zhaopengyou-spec §3, ``no_declaration`` "kitty_flip" or redeals used
    up): ``(dealer, trump)``. The dealer is the first seat with the declaring right
    (``eligible``) counting from ``first_seat`` (the first-card seat) in play order; with L his
    level, trump is the suit of the kitty's first card of rank L in deal order (``kitty`` as
    dealt), else of its first card that is not a joker. Raises ValueError when no seat is
    eligible or the kitty holds only jokers."""
    n = len(levels)
    dealer = next((s % n for s in range(first_seat, first_seat + n) if s % n in eligible), None)
    if dealer is None:
        raise ValueError("no seat holds the declaring right")
    level = levels[dealer]
    cards = [Card(c) for c in kitty]
    for c in cards:
        if not c.is_joker and c.rank == level:
            return dealer, c.suit
    for c in cards:
        if not c.is_joker:
            return dealer, c.suit
    raise ValueError("a kitty of jokers only names no trump suit")


def deal_window(after_seat: int, players: int = PLAYERS) -> tuple[int, ...]:
    """The seats polled in one declaration window (zhaopengyou-spec §3), in order: the seat
    that just got a card (or, after the deal, the seat after the last declarer) first, then
    each next seat once: ``after_seat, after_seat + 1, ...`` (mod ``players``)."""
    return tuple((after_seat + i) % players for i in range(players))


# --------------------------------------------------------------------------------------
# the friend (§4)
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FriendCall:
    """The dealer's call "the ``nth`` played ``card``" (zhaopengyou-spec §4); ``nth`` 1..3."""

    card: Card
    nth: int

    def __str__(self) -> str:
        return f"#{self.nth} {self.card}"


@dataclass(frozen=True)
class FriendStatus:
    """What the plays so far say about the friend (zhaopengyou-spec §4): ``friend`` (the seat
    that played the Nth copy — the dealer's own seat when he did — or None while unrevealed),
    ``revealed_at`` (index into the plays of that play, or None), ``alone`` (the dealer played
    the Nth copy, or the hand is over and it never came)."""

    friend: int | None
    revealed_at: int | None
    alone: bool


def friend_call_error(call: FriendCall, trump: str | None, level: int, options: ZhaoPengyouOptions) -> str | None:
    """Why ``call`` is not a valid call, or None (zhaopengyou-spec §4). ``nth`` must be an int
    1..3; with ``friend_card`` "non_trump" the card may not be a joker, of the level rank
    ``level``, or of the suit ``trump`` (S H C D; None or "none" for no-trump) standing at the
    call; "any" allows every card."""
    nth = call.nth
    if isinstance(nth, bool) or not isinstance(nth, int) or not 1 <= nth <= 3:
        return "the friend is the 1st, 2nd or 3rd copy played"
    if options.friend_card == "any":
        return None
    card = Card(call.card)
    if card.is_joker:
        return "the friend card may not be a joker"
    if card.rank == level:
        return "the friend card may not be a level card"
    if trump not in (None, NO_TRUMP) and card.suit == trump:
        return "the friend card may not be a trump-suit card"
    return None


def track_friend(
    call: FriendCall, dealer: int, plays: Sequence[tuple[int, Sequence[Card]]], final: bool = False
) -> FriendStatus:
    """Follow the copies of ``call.card`` through ``plays`` — ``(seat, cards)`` of every play
    of the hand so far, in order, cards actually played only (a failed throw's taken-back cards
    are not in them) — and name the friend (zhaopengyou-spec §4). Copies in one play all belong
    to its seat; the seat whose play brings the count to ``call.nth`` is the friend from that
    play on. When that seat is ``dealer`` he plays alone. ``final``: the hand is over, so a call
    whose Nth copy never came leaves the dealer alone. Does not validate the call."""
    seen = 0
    for i, (seat, cards) in enumerate(plays):
        seen += sum(1 for c in cards if c == call.card)
        if seen >= call.nth:
            return FriendStatus(seat, i, seat == dealer)
    return FriendStatus(None, None, bool(final))


# --------------------------------------------------------------------------------------
# the kitty, points and levels (§8-§10)
# --------------------------------------------------------------------------------------
def kitty_multiplier(last_lead: Sequence[Card], ctx: TrumpContext, options: ZhaoPengyouOptions) -> int:
    """The kitty multiplier when the catchers win the last trick (zhaopengyou-spec §9): with m
    the number of cards in the largest component of the last lead (the cards actually led),
    ``kitty_multiplier`` "times" gives 2m, "power" 2**m, "double" 2. Raises ValueError when
    ``last_lead`` is empty or of mixed suits."""
    pattern = classify(last_lead, ctx)
    if pattern.kind == INVALID:
        raise ValueError("the last lead must be one or more cards of one effective suit")
    m = max(c.size for c in pattern.components)
    mode = options.kitty_multiplier
    if mode == "times":
        return 2 * m
    if mode == "power":
        return 2 ** m
    return 2


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def level_gains(catcher_points: int, options: ZhaoPengyouOptions, alone: bool = False) -> tuple[str, int]:
    """Who wins the hand and by how many levels (zhaopengyou-spec §10), for the catchers'
    points P (≥ 0) with line t = ``threshold`` and step s = ``step``: P < t gives
    ``("dealer", ceil((t - P) / s) + (1 if P == 0))``, plus ``lone_dealer_bonus`` when the
    dealer is ``alone``; P ≥ t gives ``("catchers", ceil((P - t + 5) / s))``, one less with
    ``level_table`` "dead_band" (never below 0)."""
    t, s = options.threshold, options.step
    p = catcher_points
    if p < t:
        gain = _ceil_div(t - p, s) + (1 if p == 0 else 0)
        if alone:
            gain += options.lone_dealer_bonus
        return "dealer", gain
    gain = _ceil_div(p - t + 5, s)
    if options.level_table == "dead_band":
        gain = max(0, gain - 1)
    return "catchers", gain


def raise_level(current: int, gain: int, *, as_dealer: bool, options: ZhaoPengyouOptions) -> int:
    """One winner's level after a gain of ``gain`` (zhaopengyou-spec §10): rank by rank,
    stopping at A and at any rank of ``must_play_levels``. A seat already on A or on such a
    rank M moves on only when ``as_dealer`` (he won as dealer, so L = M), by the full gain up
    to the next stop; otherwise it stays. Never passes A."""
    stops = set(options.must_play_levels) | {ACE}
    if current >= ACE:
        return ACE
    if current in stops and not as_dealer:
        return current
    level = current
    for _ in range(gain):
        level += 1
        if level in stops:
            break
    return min(level, ACE)


def apply_levels(
    levels: Sequence[int], winners: Collection[int], gain: int, dealer: int, dealer_won: bool,
    options: ZhaoPengyouOptions,
) -> tuple[int, ...]:
    """Every seat's level after the hand (zhaopengyou-spec §10): each seat in ``winners``
    rises by ``gain`` through :func:`raise_level` (the dealer counts as dealer only when his
    side won, ``dealer_won``); losers stay."""
    return tuple(
        raise_level(lv, gain, as_dealer=dealer_won and s == dealer, options=options) if s in winners else lv
        for s, lv in enumerate(levels)
    )


@dataclass(frozen=True)
class ZpySettlement:
    """The end of a 找朋友 hand (zhaopengyou-spec §8-§10), the judge's ``settle`` answer.

    ``dealer_side``, ``catchers``, ``eligible`` (next hand's declaring right: the winning side):
    ascending seat tuples. ``kitty_points`` (card points buried, whoever takes them);
    ``multiplier`` (0 unless a catcher won the last trick); ``catcher_points`` (P, clamped at
    0); ``winner`` ("dealer" or "catchers"); ``gains`` (five ints, the levels awarded, bonus
    included, before stops); ``levels`` (five rank ints after the stops); ``first_card_to``
    (next hand: this dealer); ``game_over``; ``game_winners`` (ascending seats, () unless over);
    ``alone`` (the dealer played 1 against 4).
    """

    dealer_side: tuple[int, ...]
    catchers: tuple[int, ...]
    eligible: tuple[int, ...]
    kitty_points: int
    multiplier: int
    catcher_points: int
    winner: str
    gains: tuple[int, ...]
    levels: tuple[int, ...]
    first_card_to: int
    game_over: bool
    game_winners: tuple[int, ...]
    alone: bool = False


def settle_hand(
    *,
    dealer: int,
    friend: int | None,
    levels: Sequence[int],
    trump: str | None,
    points_won: Sequence[int],
    kitty: Sequence[Card],
    last_trick_winner: int,
    last_lead: Sequence[Card],
    options: ZhaoPengyouOptions,
    failed_throws: Sequence[int] = (),
    friend_points_before_reveal: int = 0,
) -> ZpySettlement:
    """Settle one hand (zhaopengyou-spec §8-§10).

    ``friend`` is the friend's seat, None or ``dealer`` when the dealer played alone;
    ``levels`` the five levels before (L = ``levels[dealer]``); ``trump`` S H C D or
    None/"none"; ``points_won`` five trick-point totals (kitty excluded); ``kitty`` the buried
    cards; ``last_lead`` the cards actually led to the last trick; ``failed_throws`` a seat per
    failed throw; ``friend_points_before_reveal`` the friend's points from tricks before the
    trick of his reveal (used with ``friend_early_points`` "catchers").

    P = final catchers' trick points + kitty points × :func:`kitty_multiplier` (when a catcher
    won the last trick) + early friend points (option) + ``failed_throw_penalty`` per failure
    by the dealer side − the same per failure by a catcher, clamped at 0. Then
    :func:`level_gains` and :func:`apply_levels`. Game end: ``game_end`` "defend_a" — the
    dealer side won with L = A: the dealer alone wins the game; "reach_a" — some seat is on A
    after the hand: every seat on A wins. Raises ValueError for bad seats or list sizes.
    """
    n = PLAYERS
    if len(levels) != n or len(points_won) != n:
        raise ValueError(f"levels and points_won hold {n} entries each")
    for s in (dealer, last_trick_winner, *failed_throws) + ((friend,) if friend is not None else ()):
        if not 0 <= s < n:
            raise ValueError(f"a seat is 0..{n - 1}, not {s!r}")
    alone = friend is None or friend == dealer
    dealer_side = (dealer,) if alone else tuple(sorted((dealer, friend)))
    catchers = tuple(s for s in range(n) if s not in dealer_side)
    level = levels[dealer]
    kitty_points = card_points(kitty)
    multiplier = 0
    if last_trick_winner in catchers:
        ctx = level_context(level, trump, options.trump_top_tractors)
        multiplier = kitty_multiplier(last_lead, ctx, options)
    p = sum(points_won[s] for s in catchers) + kitty_points * multiplier
    if options.friend_early_points == "catchers" and not alone:
        p += friend_points_before_reveal
    for s in failed_throws:
        p += options.failed_throw_penalty if s in dealer_side else -options.failed_throw_penalty
    p = max(0, p)
    winner, gain = level_gains(p, options, alone)
    side = dealer_side if winner == "dealer" else catchers
    gains = tuple(gain if s in side else 0 for s in range(n))
    after = apply_levels(levels, side, gain, dealer, winner == "dealer", options)
    if options.game_end == "defend_a":
        game_over = winner == "dealer" and level == ACE
        game_winners = (dealer,) if game_over else ()
    else:
        game_winners = tuple(s for s in range(n) if after[s] == ACE)
        game_over = bool(game_winners)
    return ZpySettlement(
        dealer_side, catchers, side, kitty_points, multiplier, p, winner, gains, after,
        dealer, game_over, game_winners, alone,
    )


def hand_context(level: int, trump: str | None, options: ZhaoPengyouOptions) -> TrumpContext:
    """The card order of a 找朋友 hand: :func:`engine.order.level_context` with the
    ``trump_top_tractors`` option (zhaopengyou-spec §6-§7)."""
    return level_context(level, trump, options.trump_top_tractors)


__all__ = [
    "ACE", "COUNTER", "DEAL", "DeclareVerdict", "FriendCall", "FriendStatus", "PLAYERS",
    "ZpySettlement", "apply_levels", "deal_window", "kitty_flip", "check_declaration", "counter_strength",
    "declaration_strength", "friend_call_error", "hand_context", "kitty_multiplier",
    "level_gains", "raise_level", "settle_hand", "track_friend",
]
