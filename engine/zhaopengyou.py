"""One hand of 找朋友 (Finding Friends) as an explicit phase machine, and its per-seat views.

Five seats, three decks (RULES.md "找朋友"; the rules themselves, declaration strength, the
friend count and the settlement, live in :mod:`engine.zhaopengyou_rules` and are only called
from here). Phases, each with the seat to act:

``DEAL``        cards are dealt one at a time; after each card a window polls the seats for a
                declaration 亮主 (contest or first mode; redeals; kitty flip) — §3
``CALL_FRIEND`` the dealer calls "the Nth played X" 叫朋友 — §4 (before the kitty, or after the
                counter round with ``friend_call_time="after_bury"``)
``BURY``        the dealer (or, after a counter, the counterer) holds the kitty and buries 7 — §5
``COUNTER``     the counter round 反牌, polled from the dealer's 下家 — §5
``PLAY``        five plays a trick; the friend is revealed at the Nth copy — §7, §4
``SETTLE``      settled by :func:`engine.zhaopengyou_rules.settle_hand` — §8–§10

Actions: :class:`Declare`, :class:`Pass`, :class:`CallFriend`, and 红五's
:class:`engine.state.Bury` and :class:`engine.state.Play`. :meth:`ZpyHand.apply` raises
:class:`engine.state.IllegalAction` (state unchanged) for anything the rules refuse.

A seat is polled in a declaration window only when it holds a declaration that the rules
would accept now (``legal`` and ``overrides``); every other seat passes at once, which is what
it could only do anyway. Views of other seats do not say who is being polled, and
:class:`engine.events.Passed` is anonymous to them, so nobody learns who holds level cards.

A hand never reaches back into its match: :class:`engine.match.ZpyMatch` builds each hand from
the last settlement.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Iterator, Sequence

from engine import zhaopengyou_rules as zr
from engine.cards import ALL_CARDS, SMALL_JOKER, Card, make_deck, parse_cards
from engine.events import (
    CardDealt, DealFinished, Declared, Event, FriendCalled, FriendRevealed,
    HandSettled, HandStarted, KittyBuried, KittyFlipped, KittyTaken, Passed, Redealt,
)
from engine.order import NO_TRUMP, level_context
from engine.refusals import Refusal
from engine.ruleset import RuleSet, zhaopengyou
from engine.state import (
    Bury, FinishedTrick, IllegalAction, Play, _cards_played, _finished_trick, _shuffle, _trick_won,
    remove_cards, take_play, trick_outcome,
)
from engine.tricks import PlayOptions, split_suits
from engine.zhaopengyou_view import (  # the hand's vocabulary, re-exported from here
    LEVEL_NAMES, CallFriend, Declare, Pass, ZPhase, ZpyAction, ZpyView, legal_friend_calls,
)

__all__ = ["LEVEL_NAMES", "CallFriend", "Declare", "Pass", "ZPhase", "ZpyAction", "ZpyHand", "ZpyView",
           "first_legal_action", "legal_friend_calls", "result_line"]


_new_object = object.__new__
_window = lru_cache(maxsize=None)(zr.deal_window)  # the seats of one window, in poll order (§3)


def _card_dealt(seat: int, card: Card, card_no: int) -> CardDealt:
    """``CardDealt(seat, (card,), 1, card_no)`` built without the dataclass ``__init__`` (155
    a deal; the same object in every way, as engine.state does for its per-card events)."""
    event = _new_object(CardDealt)
    d = event.__dict__
    d["seat"] = seat
    d["cards"] = (card,)
    d["count"] = 1
    d["card_no"] = card_no
    return event


if [f.name for f in fields(CardDealt)] != ["seat", "cards", "count", "card_no"]:  # pragma: no cover
    raise ImportError("CardDealt changed: update _card_dealt in engine.zhaopengyou")


def _candidates(hand: Sequence[Card], rank: int, sizes: Sequence[int]) -> list[tuple[Card, ...]]:
    """Groups of identical cards of ``rank`` (one suit) or jokers in ``hand``, of the given
    sizes: what a seat could show (the rules then judge each)."""
    counts = Counter(c for c in hand if c.rank == rank or c >= SMALL_JOKER)
    out = []
    for c in sorted(counts):
        for k in sizes:
            if counts[c] >= k:
                out.append((c,) * k)
    return out


# --- the hand -----------------------------------------------------------------------------
@dataclass
class ZpyHand:
    """One hand of 找朋友. Build with :meth:`new` (or :meth:`from_stack` in tests).

    Read-only public attributes: ``ruleset``, ``seed``, ``hand_no``, ``levels``, ``eligible``,
    ``first_card``, ``phase``, ``dealer``, ``level``, ``trump``, ``friend_call``, ``friend``,
    ``alone``, ``events`` (the full, unfiltered log), ``settlement``. Mutate only through
    :meth:`apply`.
    """

    ruleset: RuleSet
    seed: int | None
    hand_no: int
    levels: tuple[int, ...]
    eligible: tuple[int, ...]
    first_card: int
    rng: random.Random
    stack: list[Card]
    phase: ZPhase = ZPhase.DEAL
    deal_no: int = 1
    dealt: int = 0
    hands: list[list[Card]] = field(default_factory=list)
    kitty: tuple[Card, ...] = ()
    declarations: list[tuple[int, tuple[Card, ...], str]] = field(default_factory=list)
    standing: tuple[int, tuple[Card, ...]] | None = None
    dealer: int | None = None
    level: int | None = None
    trump: str | None = None
    trump_known: bool = False
    kitty_flip: tuple[Card, ...] | None = None
    friend_call: tuple[Card, int] | None = None
    friend: int | None = None
    alone: bool = False
    friend_resolved: bool = False
    friend_points_before: int = 0
    burier: int | None = None
    buried: tuple[Card, ...] = ()
    counter_done: bool = False
    trick_no: int = 1
    leader: int | None = None
    current: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    tricks: list[FinishedTrick] = field(default_factory=list)
    plays: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    points_won: list[int] = field(default_factory=list)
    failed_throws: list[int] = field(default_factory=list)
    last_lead: tuple[Card, ...] = ()
    settlement: object | None = None
    events: list[Event] = field(default_factory=list)
    # polling state: the seat to act in DEAL / COUNTER, the seats still to poll in the
    # current window (DEAL), whether someone declared in it, and the counter round's passes
    _to_act: int | None = None
    _win: tuple[int, ...] = ()  # DEAL: the open window's seats in poll order
    _pos: int = 0  # DEAL: the next seat of ``_win`` to poll (the window is closed at its end)
    _window_declared: bool = False
    _last_declarer: int | None = None
    _passes: int = 0
    _ctx: object = None
    _standing_trump: str | None = None  # the trump the standing declaration sets (None: no-trump)
    _suit_ix: list | None = None  # PLAY: per seat, the hand split by effective suit
    _suit_memo: list | None = None  # PLAY: per seat, the sampler's memo (PlayOptions._memo)
    _can: list = field(default_factory=list)  # DEAL: per seat, can it declare now (None: unknown)
    _rel: list = field(default_factory=list)  # DEAL: per seat, {level card or joker: copies held}
    _relevant: list[int] = field(default_factory=list)  # per seat: level cards + jokers held (DEAL)
    _decl_cache: dict = field(default_factory=dict)  # per seat: (key, declarations) (DEAL)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, ruleset: RuleSet | None = None, seed: int | None = None, *, hand_no: int = 1,
            levels: Sequence[int] | None = None, eligible: Sequence[int] | None = None,
            first_card: int | None = None) -> "ZpyHand":
        """Shuffle with ``random.Random(seed)`` and start dealing (找朋友 spec §1, §3).

        ``levels``: five level ranks 2..14 (default all 2); ``eligible``: seats with the
        declaring right (default all); ``first_card``: the seat dealt the first card (default:
        drawn from the same generator, before the shuffle). Returns the hand waiting for the
        first polled seat (or already past the deal when nobody could declare).
        Raises ValueError for bad levels, seats or a ruleset that is not 找朋友's.
        """
        ruleset = ruleset or zhaopengyou()
        n = ruleset.players
        rng = random.Random(seed)
        if first_card is None:
            first_card = rng.randrange(n)
        hand = cls._make(ruleset, seed, hand_no, levels, eligible, first_card, rng, None)
        return hand

    @classmethod
    def from_stack(cls, stack: Sequence[Card | str], ruleset: RuleSet | None = None, *,
                   hand_no: int = 1, levels: Sequence[int] | None = None,
                   eligible: Sequence[int] | None = None, first_card: int = 0,
                   seed: int | None = None) -> "ZpyHand":
        """A hand dealt from a given shuffled ``stack`` (162 cards: card k+1 goes to seat
        ``first_card + k``, the last 7 are the kitty), for tests and replays; a redeal then
        shuffles with ``random.Random(seed)``. Raises ValueError for a stack of another size
        or with more copies than three decks hold."""
        ruleset = ruleset or zhaopengyou()
        cards = list(parse_cards(stack))
        if sorted(cards) != sorted(make_deck(ruleset.decks)):
            raise ValueError(f"the stack must be exactly {ruleset.decks} full decks")
        return cls._make(ruleset, seed, hand_no, levels, eligible, first_card, random.Random(seed), cards)

    @classmethod
    def _make(cls, ruleset, seed, hand_no, levels, eligible, first_card, rng, stack) -> "ZpyHand":
        n = ruleset.players
        if ruleset.name != "zhaopengyou":
            raise ValueError("a ZpyHand needs the zhaopengyou ruleset")
        levels = tuple(levels) if levels is not None else (2,) * n
        if len(levels) != n or any(type(v) is not int or not 2 <= v <= 14 for v in levels):
            raise ValueError(f"levels must be {n} level ranks 2..14")
        eligible = tuple(sorted(set(eligible))) if eligible is not None else tuple(range(n))
        if not eligible or any(not 0 <= s < n for s in eligible):
            raise ValueError(f"eligible must be seats 0..{n - 1}, at least one")
        if not 0 <= first_card < n:
            raise ValueError(f"first_card must be a seat 0..{n - 1}")
        if stack is None:
            stack = make_deck(ruleset.decks)
            _shuffle(stack, rng)
        hand = cls(ruleset, seed, hand_no, levels, eligible, first_card, rng, stack)
        hand.points_won = [0] * n
        hand.hands = [[] for _ in range(n)]
        hand._relevant = [0] * n
        hand._rel = [{} for _ in range(n)]
        hand._can = [False] * n
        hand.events.append(HandStarted(hand_no, seed, ruleset.decks, first_card))
        hand._run_deal()
        return hand

    def clone(self) -> "ZpyHand":
        """An independent copy (for search): same state, its own lists; the events so far are
        copied, later ones diverge."""
        from dataclasses import replace

        h = replace(self)
        h.rng = random.Random()
        h.rng.setstate(self.rng.getstate())
        h.stack = list(self.stack)
        h.hands = [list(x) for x in self.hands]
        for name in ("declarations", "current", "tricks", "plays", "points_won", "failed_throws",
                     "events", "_can", "_relevant"):
            setattr(h, name, list(getattr(self, name)))
        h._rel = [dict(r) for r in self._rel]
        h._decl_cache = dict(self._decl_cache)
        if self._suit_ix is not None:
            h._suit_ix = [list(x) for x in self._suit_ix]
            h._suit_memo = [list(m) for m in self._suit_memo]
        return h

    @classmethod
    def from_view(cls, view: ZpyView, hands: Sequence[Sequence[Card]],
                  kitty: Sequence[Card] = ()) -> "ZpyHand":
        """A play-phase hand consistent with ``view`` whose hidden hands are ``hands`` (one
        card list per seat; ``hands[view.seat]`` must be the view's own hand), for search
        (determinization). ``kitty`` fills in the buried cards when the viewer did not bury
        them. The friend, the call and the points so far come from the view. Raises ValueError
        outside the play phase or when the hand sizes do not match ``view.hand_sizes``."""
        if view.phase is not ZPhase.PLAY:
            raise ValueError("from_view needs a view of the play phase")
        if [len(h) for h in hands] != list(view.hand_sizes):
            raise ValueError("the hands do not match the view's hand sizes")
        if view.seat is not None and sorted(hands[view.seat]) != sorted(view.hand):
            raise ValueError("the viewer's own hand must be kept")
        rs = view.ruleset
        n = rs.players
        h = cls(rs, None, view.hand_no, tuple(view.levels), tuple(view.eligible), view.first_card,
                random.Random(0), [])
        h.phase = ZPhase.PLAY
        h.deal_no, h.dealt = view.deal_no, n * rs.hand_size
        h.hands = [list(x) for x in hands]
        buried = view.buried if view.buried is not None else tuple(kitty)
        h.kitty = h.buried = tuple(sorted(buried))
        h.declarations = list(view.declarations)
        h.standing = view.standing
        h.dealer, h.level, h.trump, h.trump_known = view.dealer, view.level, view.trump, True
        h.kitty_flip = view.kitty_flip
        h.friend_call = view.friend_call
        h.friend, h.alone = view.friend, view.alone
        h.friend_resolved = view.friend is not None or view.alone
        h.burier = view.burier
        h.counter_done = True
        h.trick_no, h.leader = view.trick_no, view.trick_leader
        h.current = list(view.current_trick)
        h.tricks = list(view.tricks)
        h.plays = [p for t in view.tricks for p in t.plays] + list(view.current_trick)
        h.points_won = list(view.points_won)
        h.failed_throws = list(view.failed_throws)
        lead_trick = view.current_trick or (view.tricks[-1].plays if view.tricks else ())
        h.last_lead = tuple(lead_trick[0][1]) if lead_trick else ()
        if h.friend is not None:  # his points from tricks finished before the trick of the reveal
            at = zr.track_friend(zr.FriendCall(*h.friend_call), h.dealer, h.plays).revealed_at
            k = at // n if at is not None else len(h.tricks)
            h.friend_points_before = sum(t.points for t in h.tricks[:k] if t.winner == h.friend)
        h._set_ctx()
        h._suit_ix = [list(split_suits(x, h._ctx)) for x in h.hands]
        h._suit_memo = [[None] * 5 for _ in h.hands]
        return h

    # -- queries ------------------------------------------------------------------------
    @property
    def options(self):
        """The ruleset's 找朋友 options (``ZhaoPengyouOptions``)."""
        return self.ruleset.options

    @property
    def deal_size(self) -> int:
        """Cards dealt to the seats (155); the rest of the stack is the kitty."""
        return self.ruleset.players * self.ruleset.hand_size

    @property
    def ctx(self):
        """The card order once the deal has ended (None before)."""
        return self._ctx

    @property
    def to_act(self) -> int | None:
        """The seat that must act now, or None once the hand is settled."""
        phase = self.phase
        if phase is ZPhase.PLAY:
            return (self.leader + len(self.current)) % self.ruleset.players
        if phase is ZPhase.DEAL or phase is ZPhase.COUNTER:
            return self._to_act
        if phase is ZPhase.CALL_FRIEND:
            return self.dealer
        if phase is ZPhase.BURY:
            return self.burier
        return None

    @property
    def is_over(self) -> bool:
        """True once the hand is settled."""
        return self.phase is ZPhase.SETTLE

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds (unfiltered: for hosts and tests)."""
        return tuple(self.hands[seat])

    def card_count(self) -> int:
        """Cards in hands, kitty (dealt or buried), undealt stack and tricks: always 162."""
        held = sum(len(h) for h in self.hands)
        played = sum(len(c) for _, c in self.plays)
        if self.phase is ZPhase.DEAL:
            return held + len(self.stack) - self.dealt
        kitty = 0 if self.phase is ZPhase.BURY else len(self.kitty)  # in the burier's hand
        return held + kitty + played

    def declarations_for(self, seat: int) -> list[tuple[Card, ...]]:
        """The card groups ``seat`` may declare (DEAL) or counter with (COUNTER) now: each
        judged by :func:`engine.zhaopengyou_rules.check_declaration` as legal and overriding."""
        if self.phase is ZPhase.DEAL:
            if seat not in self.eligible or self._relevant[seat] == 0:
                return []
            if self.standing is not None and self.options.declaration_mode == "first":
                return []
            key = (self._relevant[seat], len(self.declarations))
            cached = self._decl_cache.get(seat)
            if cached is not None and cached[0] == key:
                return list(cached[1])
            if cached is not None and cached[0][0] == key[0] and self.options.self_overbid:
                # same cards, a stronger declaration stands: only what overrode before can now
                # (without self_overbid a seat's own standing hid options that may return)
                candidates = cached[1]
            else:
                rel = self._rel[seat]  # the seat's level cards and jokers, all held
                candidates = [(c,) * k for c in sorted(rel) for k in range(1, min(3, rel[c]) + 1)]
            standing, options, levels, eligible = self._standing_arg(), self.options, self.levels, self.eligible
            out = []
            for cards in candidates:
                v = zr.check_declaration("deal", seat, cards, standing=standing, options=options,
                                         levels=levels, eligible=eligible)
                if v.overrides:
                    out.append(cards)
            self._decl_cache[seat] = (key, tuple(out))
            return out
        if self.phase is ZPhase.COUNTER:
            standing_seat = self.standing[0] if self.standing else self.dealer
            if self.options.counter_declare == "off" or seat == standing_seat:
                return []
            out = []
            for cards in _candidates(self.hands[seat], self.level, (2, 3)):
                v = zr.check_declaration("counter", seat, cards, standing=self._standing_arg(),
                                         options=self.options, level=self.level,
                                         eligible=self.eligible, hand=self.hands[seat])
                if v.overrides:
                    out.append(cards)
            return out
        return []

    def _standing_arg(self):
        """The standing declaration as the rules functions take it: ``(seat, cards)``; None
        before any in the deal; ``(dealer, ())`` after a kitty flip (§5)."""
        if self.standing is None:
            return (self.dealer, ()) if self.dealer is not None else None
        return self.standing

    def legal_actions(self, seat: int | None = None) -> Iterator[ZpyAction]:
        """Every action ``seat`` (default: the seat to act) may take now, lazily: passes and
        declarations (DEAL, COUNTER), calls (CALL_FRIEND), every distinct bury (BURY: a
        multiset of 7 held cards; there are many), every legal play (PLAY). Nothing for a seat
        that is not to act."""
        if seat is None:
            seat = self.to_act
        if seat is None or seat != self.to_act:
            return iter(())
        phase = self.phase
        if phase is ZPhase.DEAL or phase is ZPhase.COUNTER:
            return iter([Pass(seat)] + [Declare(seat, c) for c in self.declarations_for(seat)])
        if phase is ZPhase.CALL_FRIEND:
            return iter([CallFriend(seat, c, k) for c, k in legal_friend_calls(self.trump, self.level, self.options)])
        if phase is ZPhase.BURY:
            from engine.tricks import _multiset_combos

            counts = dict(Counter(self.hands[seat]))
            return (Bury(seat, tuple(ALL_CARDS[c] for c in combo))
                    for combo in _multiset_combos(counts, self.ruleset.kitty_size))
        return (Play(seat, p) for p in self.play_options(seat))

    def play_options(self, seat: int | None = None) -> PlayOptions:
        """What ``seat`` (default: the seat to act) may play now; ValueError outside play."""
        if self.phase is not ZPhase.PLAY:
            raise ValueError("there are play options only in the play phase")
        current = self.current
        if seat is None:
            seat = (self.leader + len(current)) % self.ruleset.players
        return PlayOptions._prepared(self.hands[seat], current[0][1] if current else None, self._ctx,
                                     tuple(self._suit_ix[seat]), self._suit_memo[seat])

    def view(self, seat: int | None) -> ZpyView:
        """What ``seat`` may see (None: an observer, public information only)."""
        phase = self.phase
        hand: tuple[Card, ...] = ()
        if seat is not None:
            hand = self._ctx.sort_hand(self.hands[seat]) if self._ctx is not None else tuple(sorted(self.hands[seat]))
        to_act = self.to_act
        if phase in (ZPhase.DEAL, ZPhase.COUNTER) and to_act != seat:
            to_act = None
        legal = ()
        if seat is not None and seat == self.to_act and phase in (ZPhase.DEAL, ZPhase.COUNTER):
            legal = tuple(self.declarations_for(seat))
        settled = phase is ZPhase.SETTLE
        holds_kitty = phase is ZPhase.BURY and seat is not None and seat == self.burier
        sees_buried = settled or (seat is not None and seat == self.burier and phase is not ZPhase.BURY
                                  and bool(self.buried))
        return ZpyView(
            seat=seat, phase=phase, ruleset=self.ruleset, hand_no=self.hand_no, levels=self.levels,
            eligible=self.eligible, first_card=self.first_card, deal_no=self.deal_no,
            cards_dealt=self.dealt, to_act=to_act, hand=hand,
            hand_sizes=tuple(len(h) for h in self.hands),
            declarations=tuple(self.declarations), standing=self.standing, legal_declarations=legal,
            dealer=self.dealer, level=self.level, trump=self.trump, trump_known=self.trump_known,
            kitty_flip=self.kitty_flip, friend_call=self.friend_call,
            friend=self.friend if self.friend_resolved and not self.alone else None,
            alone=self.alone if self.friend_resolved else False,
            kitty=self.kitty if holds_kitty else None,
            buried=self.buried if sees_buried else None,
            burier=self.burier,
            trick_no=self.trick_no, trick_leader=self.leader, current_trick=tuple(self.current),
            tricks=tuple(self.tricks), points_won=tuple(self.points_won),
            failed_throws=tuple(self.failed_throws), settlement=self.settlement,
        )

    # -- the deal (§3) ------------------------------------------------------------------
    def _run_deal(self) -> None:
        """Deal and poll until a seat that can declare is to act, or the deal is over.
        ``_win`` is the open window (its seats in poll order) and ``_pos`` the next seat of it
        to poll; ``_can[s]`` whether seat s holds a declaration that would stand (None: to be
        worked out again, after it got a level card or joker, or after any declaration)."""
        n = self.ruleset.players
        events = self.events
        stack, hands, relevant, levels, can = self.stack, self.hands, self._relevant, self.levels, self._can
        rels = self._rel
        deal_size, first = self.deal_size, self.first_card
        win, pos = self._win, self._pos
        while True:
            while pos < len(win):  # the open window
                s = win[pos]
                v = can[s]
                if v is None:
                    v = can[s] = bool(self.declarations_for(s))
                if v:
                    self._to_act = s
                    self._win, self._pos = win, pos
                    return
                pos += 1
            # the window is closed: deal the next card, or repeat / end after the last card
            dealt = self.dealt
            if dealt < deal_size:
                seat = (first + dealt) % n
                card = stack[dealt]
                self.dealt = dealt = dealt + 1
                hands[seat].append(card)
                events.append(_card_dealt(seat, card, dealt))
                if card >= SMALL_JOKER or card.rank == levels[seat]:
                    relevant[seat] += 1
                    rel = rels[seat]
                    rel[card] = rel.get(card, 0) + 1
                    can[seat] = None
                if None in can or True in can:  # else every seat can only pass
                    win, pos = _window(seat, n), 0
                self._window_declared = False
                continue
            if self._window_declared:
                win, pos = _window((self._last_declarer + 1) % n, n), 0
                self._window_declared = False
                continue
            self._win, self._pos = win, pos
            self._to_act = None
            self._end_deal()
            return

    def _end_deal(self) -> None:
        n = self.ruleset.players
        self.kitty = tuple(self.stack[self.deal_size:])
        if self.standing is not None:
            seat, cards = self.standing
            self.dealer = seat
            self.level = self.levels[seat]
            self.trump = self._standing_trump
            self.events.append(DealFinished(seat, self.level, self.trump, True))
        elif self.options.no_declaration == "redeal" and self.deal_no <= self.options.max_redeals:
            self.deal_no += 1
            self.events.append(Redealt(self.deal_no))
            self.stack = make_deck(self.ruleset.decks)
            _shuffle(self.stack, self.rng)
            self.dealt = 0
            self.hands = [[] for _ in range(n)]
            self._relevant[:] = [0] * n
            self._rel = [{} for _ in range(n)]
            self._can[:] = [False] * n
            self._decl_cache = {}
            self.kitty = ()
            self._run_deal()
            return
        else:  # kitty flip: the rules name the dealer and the trump (§3)
            dealer, trump = zr.kitty_flip(self.kitty, self.first_card, self.eligible, self.levels)
            self.dealer = dealer
            self.level = self.levels[dealer]
            self.trump = trump
            self.kitty_flip = self.kitty
            self.standing = None
            self.events.append(KittyFlipped(dealer, self.kitty, trump))
            self.events.append(DealFinished(dealer, self.level, trump, False))
        self.trump_known = True
        self._set_ctx()
        if self.options.friend_call_time == "before_kitty":
            self.phase = ZPhase.CALL_FRIEND
        else:
            self._start_bury(self.dealer)

    def _set_ctx(self) -> None:
        self._ctx = level_context(self.level, self.trump, self.options.trump_top_tractors)

    def _declare(self, action: Declare) -> list[Event]:
        cards = _parse(action.cards)
        seat = action.seat
        phase = "deal" if self.phase is ZPhase.DEAL else "counter"
        if phase == "deal":
            v = zr.check_declaration("deal", seat, cards, standing=self._standing_arg(), options=self.options,
                                     levels=self.levels, eligible=self.eligible, hand=self.hands[seat])
        else:
            if self.options.counter_declare == "off":
                raise IllegalAction(Refusal("no_counter", "countering is off at this table"))
            v = zr.check_declaration("counter", seat, cards, standing=self._standing_arg(), options=self.options,
                                     level=self.level, eligible=self.eligible, hand=self.hands[seat])
        if not v.overrides:
            raise IllegalAction(Refusal("bad_declaration", v.reason or "that declaration is not allowed now",
                                        cards=[str(c) for c in cards]))
        self.standing = (seat, tuple(cards))
        self.declarations.append((seat, tuple(cards), phase))
        trump = None if v.trump == NO_TRUMP else v.trump  # the rules say what it makes trump
        self._standing_trump = trump
        level = self.levels[seat] if phase == "deal" else self.level
        ev = Declared(seat, tuple(cards), phase, trump, level)
        start = len(self.events)
        self.events.append(ev)
        if phase == "deal":
            self._can[:] = [None] * self.ruleset.players  # the standing declaration changed
            self._window_declared = True
            self._last_declarer = seat
            self._pos += 1
            self._run_deal()
        else:
            self.trump = trump
            self._set_ctx()
            self._passes = 0
            self._start_bury(seat)
        return self.events[start:]

    def _pass(self, action: Pass) -> list[Event]:
        start = len(self.events)
        if self.phase is ZPhase.DEAL:
            self.events.append(Passed(action.seat, "deal"))
            self._pos += 1
            self._run_deal()
        else:
            self.events.append(Passed(action.seat, "counter"))
            self._passes += 1
            self._next_counter((action.seat + 1) % self.ruleset.players)
        return self.events[start:]

    # -- the friend call (§4) -----------------------------------------------------------
    def _call(self, action: CallFriend) -> list[Event]:
        card = action.card
        try:
            card = Card.parse(card) if not isinstance(card, Card) else card
        except ValueError as exc:
            raise IllegalAction(Refusal("bad_cards", str(exc))) from None
        nth = action.nth
        if type(nth) is not int:
            raise IllegalAction(Refusal("bad_call", f"N must be 1, 2 or 3, not {nth!r}"))
        why = zr.friend_call_error(zr.FriendCall(card, nth), self.trump, self.level, self.options)
        if why:
            raise IllegalAction(Refusal("bad_call", str(why), card=str(card), nth=nth))
        self.friend_call = (card, nth)
        events: list[Event] = [FriendCalled(action.seat, card, nth)]
        self.events.extend(events)
        if self.options.friend_call_time == "before_kitty":
            start = len(self.events)
            self._start_bury(self.dealer)
            events += self.events[start:]
        else:
            self._start_play()
        return events

    # -- kitty and counter round (§5) ---------------------------------------------------
    def _start_bury(self, seat: int) -> None:
        self.burier = seat
        self.phase = ZPhase.BURY
        self.hands[seat].extend(self.kitty)
        self.events.append(KittyTaken(seat, self.kitty, len(self.kitty)))

    def _bury(self, action: Bury) -> list[Event]:
        cards = _parse(action.cards)
        k = self.ruleset.kitty_size
        if len(cards) != k:
            raise IllegalAction(Refusal("bury_count", f"bury exactly {k} cards, not {len(cards)}", count=k,
                                        given=len(cards)))
        seat = action.seat
        self.hands[seat] = remove_cards(self.hands[seat], cards)
        self.kitty = self.buried = tuple(sorted(cards))
        start = len(self.events)
        self.events.append(KittyBuried(seat, self.buried, k))
        if self.options.counter_declare == "off":
            self._after_counter()
        else:
            self.phase = ZPhase.COUNTER
            self._next_counter((seat + 1) % self.ruleset.players)
        return self.events[start:]

    def _next_counter(self, seat: int) -> None:
        """Poll from ``seat`` (the standing declarer is skipped); seats that hold no
        overriding counter pass at once; four passes in a row end the round."""
        n = self.ruleset.players
        standing_seat = self.standing[0] if self.standing else self.dealer
        while self._passes < n - 1:
            if seat == standing_seat:
                seat = (seat + 1) % n
                continue
            self._to_act = seat
            if self.declarations_for(seat):
                return
            self._passes += 1
            seat = (seat + 1) % n
        self._to_act = None
        self._after_counter()

    def _after_counter(self) -> None:
        self.counter_done = True
        if self.options.friend_call_time == "before_kitty":
            self._start_play()
        else:
            self.phase = ZPhase.CALL_FRIEND

    # -- play (§7, §4) ------------------------------------------------------------------
    def _start_play(self) -> None:
        self.phase = ZPhase.PLAY
        self.leader = self.dealer
        ctx = self._ctx
        # per seat: the hand split by effective suit (kept in step with ``hands`` by _play)
        # and the PlayOptions sampler's memo of those tuples (as engine.state.Game does)
        self._suit_ix = [list(split_suits(h, ctx)) for h in self.hands]
        self._suit_memo = [[None] * 5 for _ in self.hands]

    def _play(self, action: Play) -> list[Event]:
        cards = _parse(action.cards)
        seat, n = action.seat, self.ruleset.players
        current = self.current
        cards, left, events = take_play(seat, cards, self.hands[seat], current, self._suit_ix,
                                        self._ctx, n, self.failed_throws)
        self.hands[seat] = left
        current.append((seat, cards))
        self.plays.append((seat, cards))
        lead = len(current) == 1
        if lead:
            self.last_lead = cards
        events.append(_cards_played(seat, cards, self.trick_no, lead))
        if not self.friend_resolved and self.friend_call[0] in cards:
            status = zr.track_friend(zr.FriendCall(*self.friend_call), self.dealer, self.plays)
            if status.friend is not None or status.alone:
                self._resolve_friend(status, events)
        if len(current) == n:
            events.extend(self._finish_trick())
        self.events.extend(events)
        return events

    def _resolve_friend(self, status, events: list[Event]) -> None:
        self.friend_resolved = True
        self.alone = bool(status.alone)
        self.friend = None if self.alone else status.friend
        if self.friend is not None:
            self.friend_points_before = self.points_won[self.friend]
        events.append(FriendRevealed(self.dealer if self.alone else self.friend, self.alone, self.trick_no))

    def _finish_trick(self) -> list[Event]:
        plays = tuple(self.current)
        w, points, _cards, ruff = trick_outcome(plays, self._ctx)
        winner = plays[w][0]
        self.points_won[winner] += points
        self.tricks.append(_finished_trick(self.trick_no, self.leader, plays, winner, points))
        events: list[Event] = [_trick_won(winner, points, self.trick_no, plays, ruff, ())]
        self.current = []
        self.leader = winner
        self.trick_no += 1
        if not any(self.hands):
            if not self.friend_resolved:
                status = zr.track_friend(zr.FriendCall(*self.friend_call), self.dealer, self.plays, final=True)
                self._resolve_friend(status, events)
            self.settlement = self._settle(winner)
            self.phase = ZPhase.SETTLE
            events.append(HandSettled(self.settlement))
        return events

    def _settle(self, last_winner: int):
        return zr.settle_hand(
            dealer=self.dealer, friend=self.friend, levels=self.levels, trump=self.trump,
            points_won=tuple(self.points_won), kitty=self.kitty, last_trick_winner=last_winner,
            last_lead=self.last_lead, failed_throws=tuple(self.failed_throws),
            friend_points_before_reveal=self.friend_points_before if self.friend is not None else 0,
            options=self.options,
        )

    # -- dispatch -----------------------------------------------------------------------
    def apply(self, action: ZpyAction) -> list[Event]:
        """Apply ``action``; returns the events it caused (also appended to ``events``).
        Raises :class:`IllegalAction` (state unchanged) when it is not allowed now."""
        if type(action) is Play and self.phase is _PLAY:  # the common case first
            seat = action.seat
            if type(seat) is int and seat == (self.leader + len(self.current)) % self.ruleset.players:
                return self._play(action)
        if self.phase is ZPhase.SETTLE:
            raise IllegalAction(Refusal("hand_over", "the hand is over"))
        seat = getattr(action, "seat", None)
        n = self.ruleset.players
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction(Refusal("no_seat", f"there is no seat {seat!r}", seat=seat))
        if seat != self.to_act:
            raise IllegalAction(Refusal("not_your_turn", "it is not this seat's turn", seat=seat,
                                        to_act=self.to_act))
        allowed = _ALLOWED.get(type(action), ())
        if self.phase not in allowed:
            raise IllegalAction(Refusal(
                "wrong_phase", f"{type(action).__name__} is not possible in the {self.phase.value} phase",
                action=type(action).__name__, phase=self.phase.value))
        return _HANDLERS[type(action)](self, action)


_PLAY = ZPhase.PLAY
_ALLOWED = {
    Declare: (ZPhase.DEAL, ZPhase.COUNTER),
    Pass: (ZPhase.DEAL, ZPhase.COUNTER),
    CallFriend: (ZPhase.CALL_FRIEND,),
    Bury: (ZPhase.BURY,),
    Play: (ZPhase.PLAY,),
}
_HANDLERS = {
    Declare: ZpyHand._declare,
    Pass: ZpyHand._pass,
    CallFriend: ZpyHand._call,
    Bury: ZpyHand._bury,
    Play: ZpyHand._play,
}


def _parse(cards) -> tuple[Card, ...]:
    if type(cards) is tuple:
        for c in cards:
            if type(c) is not Card:
                break
        else:
            return cards
    try:
        return parse_cards(cards)
    except (ValueError, TypeError) as exc:
        raise IllegalAction(Refusal("bad_cards", str(exc))) from None


def first_legal_action(hand: ZpyHand) -> ZpyAction:
    """The simplest legal action for the seat to act: pass, the first legal call, bury the
    first 7 cards, the first legal play. ValueError when the hand is over."""
    seat = hand.to_act
    if seat is None:
        raise ValueError("the hand is over")
    if hand.phase is ZPhase.BURY:
        return Bury(seat, tuple(hand.hands[seat][: hand.ruleset.kitty_size]))
    return next(hand.legal_actions(seat))


def result_line(hand: ZpyHand) -> str:
    """One line for a settled hand (``hongwu play --ruleset zhaopengyou``): hand number,
    dealer, friend (and the call), trump, level, the catchers' points P and the levels after,
    e.g. ``hand 1: dealer 4, friend 3 (1st AS), trump D, level 2, catchers 100, levels after
    2 2 2 3 3``. ValueError if the hand is not settled."""
    st = hand.settlement
    if st is None:
        raise ValueError("the hand is not settled")
    card, nth = hand.friend_call
    call = f"{('1st', '2nd', '3rd')[nth - 1]} {card}"
    friend = f"alone ({call})" if hand.friend is None else f"{hand.friend} ({call})"
    trump = hand.trump if hand.trump else "none"
    levels = " ".join(LEVEL_NAMES[v] for v in st.levels)
    end = ""
    if st.game_over:
        end = f", game over: seat {', '.join(map(str, st.game_winners))} won"
    return (f"hand {hand.hand_no}: dealer {hand.dealer}, friend {friend}, trump {trump}, "
            f"level {LEVEL_NAMES[hand.level]}, catchers {st.catcher_points}, "
            f"{st.winner} win, levels after {levels}{end}")
