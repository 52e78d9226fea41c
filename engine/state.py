"""The hand as an explicit phase machine: deal, bid, trump, bury, play, settle.

Actions go in (:meth:`Game.apply`), events come out; :meth:`Game.view` gives what one seat may
see. A seed reproduces a hand exactly (the deal and the first bidder come from
``random.Random(seed)``). The engine never reads a clock: time-outs are actions that the client
or the server applies (``ChooseTrump(..., timed_out=True)``; RULES.md §3, §13).
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field, fields
from typing import Sequence

from engine.bidding import Auction, BidError
from engine.cards import POINTS, RED_FIVE, SUITS, Card, make_deck, parse_cards
from engine.events import (
    BidMade, CardsDealt, CardsPlayed, DealerChosen, Event, HandSettled, HandStarted, KittyBuried,
    KittyTaken, ThrowFailed, TrickWon, TrumpChosen,
)
from engine.order import EFFECTIVE_SUITS, TRUMP_INDEX, TrumpContext, context
from engine.refusals import Refusal
from engine.ruleset import RuleSet, hongwu
from engine.scoring import Settlement, settle
from engine.tricks import (
    PlayOptions, _must_follow, _throw_verdict, follow_error, split_suits, trick_winner,
)


class Phase(enum.Enum):
    """Phases of a hand, in order (RULES.md §1–§10). SETTLE: the hand is over and settled."""

    DEAL = "deal"
    BID = "bid"
    TRUMP = "trump"
    BURY = "bury"
    PLAY = "play"
    SETTLE = "settle"


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message explains why in words.
    The game state is unchanged when it is raised.

    ``IllegalAction(reason)`` takes a :class:`engine.refusals.Refusal` (or plain text, code
    ``"illegal"``); ``exc.code`` and ``exc.params`` give the stable code and its parameters
    for translation, ``exc.reason`` the Refusal itself.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(str(reason))
        if not isinstance(reason, Refusal):
            reason = Refusal("illegal", str(reason))
        self.reason = reason
        self.code = reason.code
        self.params = reason.params


# --- actions ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bid:
    """``seat`` bids ``amount`` points, or passes with ``amount=None`` (RULES.md §2)."""

    seat: int
    amount: int | None


@dataclass(frozen=True)
class ChooseTrump:
    """The dealer ``seat`` names the trump ``suit`` (``"S" "H" "C" "D"``); ``timed_out`` marks
    the automatic ♠ after the 30 s limit (RULES.md §3)."""

    seat: int
    suit: str
    timed_out: bool = False


@dataclass(frozen=True)
class Bury:
    """The dealer ``seat`` buries ``cards`` (exactly the kitty size) (RULES.md §4)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Play:
    """``seat`` plays ``cards`` (a lead or a follow) (RULES.md §7, §8)."""

    seat: int
    cards: tuple[Card, ...]


Action = Bid | ChooseTrump | Bury | Play


# --- the per-seat view ----------------------------------------------------------------------
TrickPlays = tuple[tuple[int, tuple[Card, ...]], ...]


@dataclass(frozen=True)
class FinishedTrick:
    """A finished trick: ``trick_no``, ``leader``, ``plays`` ((seat, cards), ...), ``winner``,
    ``points``."""

    trick_no: int
    leader: int
    plays: TrickPlays
    winner: int
    points: int


@dataclass(frozen=True)
class PlayerView:
    """Everything one seat may know (RULES.md; nothing hidden leaks in).

    ``seat`` (None for an observer); ``phase``; ``ruleset``; ``hand_no``; ``first_bidder``;
    ``bids`` ((seat, amount or None), ... in order); ``legal_bid_amounts``; ``dealer`` and
    ``bid`` (None before the auction ends); ``trump`` (suit letter or None); ``to_act``;
    ``hand`` (own cards in display order; empty for observers); ``hand_sizes`` (cards held per
    seat); ``kitty`` (the dealt kitty, dealer only after taking it, else None); ``buried`` (the
    buried cards, dealer only, or everyone after settlement); ``trick_no`` (1-based);
    ``trick_leader``; ``current_trick`` ((seat, cards), ... so far); ``tricks`` (finished
    :class:`FinishedTrick` list); ``points_won`` (card points per seat); ``red_fives``
    ((from_seat, to_seat), ... captured so far); ``failed_throws`` (seats, in order);
    ``settlement`` (after the hand).
    """

    seat: int | None
    phase: Phase
    ruleset: RuleSet
    hand_no: int
    first_bidder: int
    bids: tuple[tuple[int, int | None], ...]
    legal_bid_amounts: tuple[int, ...]
    dealer: int | None
    bid: int | None
    trump: str | None
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    kitty: tuple[Card, ...] | None
    buried: tuple[Card, ...] | None
    trick_no: int
    trick_leader: int | None
    current_trick: TrickPlays
    tricks: tuple[FinishedTrick, ...]
    points_won: tuple[int, ...]
    red_fives: tuple[tuple[int, int], ...]
    failed_throws: tuple[int, ...]
    settlement: Settlement | None

    @property
    def ctx(self) -> TrumpContext | None:
        """The card order once trump is chosen, else None."""
        return context(self.trump) if self.trump else None

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.seat is not None and self.to_act == self.seat

    @property
    def last_trick(self) -> FinishedTrick | None:
        """The most recent finished trick (上一轮), or None."""
        return self.tricks[-1] if self.tricks else None

    @property
    def bury_count(self) -> int:
        """How many cards the dealer buries (the kitty size; RULES.md §4)."""
        return self.ruleset.kitty_size

    @property
    def lead(self) -> tuple[Card, ...] | None:
        """The cards led in the current trick, or None when nobody has played to it yet."""
        return self.current_trick[0][1] if self.current_trick else None

    def is_defender(self, seat: int) -> bool:
        """True when ``seat`` is a defender (闲家); False for the dealer or before there is one."""
        return self.dealer is not None and seat != self.dealer

    def legal_bids(self) -> tuple[int, ...]:
        """Bid amounts this seat may make now (passing is always allowed); () if not its turn."""
        return self.legal_bid_amounts

    def play_options(self) -> PlayOptions:
        """The plays open to this seat in the current trick (RULES.md §7, §8).
        Raises ValueError outside the play phase."""
        if self.phase is not Phase.PLAY or self.trump is None:
            raise ValueError("there are play options only in the play phase")
        return PlayOptions(self.hand, self.lead, self.ctx)

    def played_cards(self) -> tuple[Card, ...]:
        """Every card played so far this hand, finished tricks and the current one."""
        out: list[Card] = []
        for t in self.tricks:
            for _, cards in t.plays:
                out.extend(cards)
        for _, cards in self.current_trick:
            out.extend(cards)
        return tuple(out)


_CONTEXTS: dict[str | None, TrumpContext] = {s: context(s) for s in SUITS}
_PLAY_PHASE, _BID_PHASE = Phase.PLAY, Phase.BID  # (an enum member lookup costs a call)
_new_object = object.__new__


# Events and finished tricks are frozen dataclasses; the few made on every card or trick are
# built without their generated ``__init__`` (which sets each field through object.__setattr__):
# the same objects in every way (fields, equality, hash, repr, pickling), made in half the time.
def _cards_played(seat: int, cards: tuple[Card, ...], trick_no: int, lead: bool) -> CardsPlayed:
    """``CardsPlayed(seat, cards, trick_no, lead)`` (one per card play)."""
    event = _new_object(CardsPlayed)
    d = event.__dict__
    d["seat"] = seat
    d["cards"] = cards
    d["trick_no"] = trick_no
    d["lead"] = lead
    return event


def _trick_won(seat: int, points: int, trick_no: int, plays: TrickPlays, ruff: bool,
               red_fives: tuple[tuple[int, int], ...]) -> TrickWon:
    """``TrickWon(seat, points, trick_no, plays, ruff, red_fives)`` (one per trick)."""
    event = _new_object(TrickWon)
    d = event.__dict__
    d["seat"] = seat
    d["points"] = points
    d["trick_no"] = trick_no
    d["plays"] = plays
    d["ruff"] = ruff
    d["red_fives"] = red_fives
    return event


def _throw_failed(seat: int, attempted: tuple[Card, ...], forced: tuple[Card, ...], blocker: int) -> ThrowFailed:
    """``ThrowFailed(seat, attempted, forced, blocker)`` (most random leads are failed throws)."""
    event = _new_object(ThrowFailed)
    d = event.__dict__
    d["seat"] = seat
    d["attempted"] = attempted
    d["forced"] = forced
    d["blocker"] = blocker
    return event


def _finished_trick(trick_no: int, leader: int, plays: TrickPlays, winner: int, points: int) -> FinishedTrick:
    """``FinishedTrick(trick_no, leader, plays, winner, points)`` (one per trick)."""
    trick = _new_object(FinishedTrick)
    d = trick.__dict__
    d["trick_no"] = trick_no
    d["leader"] = leader
    d["plays"] = plays
    d["winner"] = winner
    d["points"] = points
    return trick


for _cls, _names in (
    (CardsPlayed, ["seat", "cards", "trick_no", "lead"]),
    (TrickWon, ["seat", "points", "trick_no", "plays", "ruff", "red_fives"]),
    (ThrowFailed, ["seat", "attempted", "forced", "blocker"]),
    (FinishedTrick, ["trick_no", "leader", "plays", "winner", "points"]),
):  # the makers above set exactly these fields: a change to a class must be made there too
    if [f.name for f in fields(_cls)] != _names or hasattr(_cls, "__post_init__"):  # pragma: no cover
        raise ImportError(f"{_cls.__name__} changed: update its maker in engine.state")
del _cls, _names


def _shuffle(deck: list, rng: random.Random) -> None:
    """Shuffle ``deck`` in place: Fisher–Yates from the top, each index drawn with
    ``getrandbits`` of the bound's bit length and redrawn while too large. This is what
    ``rng.shuffle(deck)`` does in CPython 3.10–3.13 (so seeds keep their deals), written out
    so that a seed's deal no longer depends on how a Python release implements ``shuffle``,
    and without a method call per card (RULES.md §1: a seed reproduces a hand)."""
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def _neutral_key(c: Card) -> tuple:
    return (c.suit is None, SUITS.index(c.suit) if c.suit else 0, c.rank)


# --- one play of a trick, shared with the 找朋友 hand (engine.zhaopengyou) ---------------------
def remove_cards(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """A new list: ``hand`` without ``cards`` (one copy each). Raises IllegalAction
    (``not_held``) naming the first card the hand does not hold (another copy of)."""
    left = list(hand)
    for c in cards:
        try:
            left.remove(c)
        except ValueError:
            raise IllegalAction(Refusal(
                "not_held", f"you do not hold {'another ' if c in hand else ''}{c}", card=str(c))) from None
    return left


def take_play(seat: int, cards: tuple[Card, ...], hand: list[Card], current: list,
              suit_ix: list, ctx: TrumpContext, n: int,
              failed_throws: list[int]) -> tuple[tuple[Card, ...], list[Card], list[Event]]:
    """Check one play of the trick in progress and take its cards from ``hand``, for every
    ruleset (RULES.md §7 leading, §8 following; the 找朋友 part reuses them).

    ``current``: the trick so far, ``[(seat, cards), ...]`` (empty: ``seat`` leads);
    ``suit_ix[s]``: seat ``s``'s hand split by effective suit (five tuples, see
    :func:`engine.tricks.split_suits`), updated here for ``seat``; ``n`` seats; a failed throw
    appends ``seat`` to ``failed_throws``. Returns ``(cards played (sorted), the hand left,
    events)``: the events hold a ThrowFailed when a throw was cut down to its forced part.
    Raises IllegalAction with the reason when the play is not allowed."""
    suitx = ctx.SUITX
    suits = suit_ix[seat]
    events: list[Event] = []
    if not current:  # leading (RULES.md §7): a throw is judged against the others' cards of its suit
        if not cards:
            raise IllegalAction(Refusal("empty_lead", "choose at least one card to lead"))
        left = remove_cards(hand, cards)
        if len(cards) > 1:
            sx = suitx[cards[0]]
            counts: dict[Card, int] = {}
            for c in cards:
                if suitx[c] != sx:
                    raise IllegalAction(Refusal("mixed_lead", "a lead must be cards of one suit (or all trumps)"))
                counts[c] = counts.get(c, 0) + 1
            others = [suit_ix[(seat + i) % n][sx] for i in range(1, n)]
            forced, blocker = _throw_verdict(cards, counts, others, ctx)
            if forced is not None:
                forced_cards = tuple(forced.cards)
                events.append(_throw_failed(seat, tuple(cards), forced_cards, (seat + 1 + blocker) % n))
                failed_throws.append(seat)
                cards = forced_cards
                left = remove_cards(hand, cards)
    else:  # following (RULES.md §8)
        lead = current[0][1]
        if len(lead) == 1 and len(cards) == 1:  # a single led, a single played
            card = cards[0]
            if card not in hand:
                raise IllegalAction(Refusal("not_held", f"you do not hold {card}", card=str(card)))
            s = suitx[lead[0]]
            if suitx[card] != s and suits[s]:  # a card of the led suit is held
                raise IllegalAction(_must_follow(EFFECTIVE_SUITS[s]))
        else:  # follow_error checks that the cards are held
            reason = follow_error(lead, hand, cards, ctx)
            if reason:
                raise IllegalAction(reason)
        left = hand
        for c in cards:
            left.remove(c)
    for c in cards:  # keep the suit split in step with the hand
        sx = suitx[c]
        part = list(suits[sx])
        part.remove(c)
        suits[sx] = tuple(part)
    return (tuple(sorted(cards)) if len(cards) > 1 else tuple(cards)), left, events


def trick_outcome(plays: TrickPlays, ctx: TrumpContext) -> tuple[int, int, list[Card], bool]:
    """``(index of the winning play, card points, every card played, ruff)`` for a complete
    trick ``plays`` (``((seat, cards), ...)``, the lead first; RULES.md §9 and §10's points;
    ``ruff``: a side-suit lead won by a trump)."""
    suitx = ctx.SUITX
    if len(plays[0][1]) == 1:  # singles: the highest of the led suit, or the highest trump (§9)
        cards = [p[0] for _, p in plays]
        vals = ctx.VAL
        w, bs, bv = 0, suitx[cards[0]], vals[cards[0]]
        for i in range(1, len(cards)):
            c = cards[i]
            s = suitx[c]
            if s == bs:
                if vals[c] > bv:
                    w, bv = i, vals[c]
            elif s == TRUMP_INDEX:  # a ruff (the winner so far is not a trump)
                w, bs, bv = i, s, vals[c]
    else:
        w = trick_winner([p for _, p in plays], ctx)
        cards = [c for _, p in plays for c in p]
    points = sum(map(POINTS.__getitem__, cards))
    ruff = suitx[plays[0][1][0]] != TRUMP_INDEX and suitx[plays[w][1][0]] == TRUMP_INDEX
    return w, points, cards, ruff


# --- the game -------------------------------------------------------------------------------
@dataclass
class Game:
    """One hand of 红五三打一 as a phase machine. Build with :meth:`new`.

    Public read-only attributes: ``ruleset``, ``seed``, ``hand_no``, ``phase``, ``first_bidder``,
    ``dealer``, ``bid``, ``trump``, ``events`` (the full, unfiltered log), ``settlement``.
    Mutate only through :meth:`apply`.
    """

    ruleset: RuleSet
    seed: int | None
    hand_no: int
    first_bidder: int
    hands: list[list[Card]]
    kitty: tuple[Card, ...]
    phase: Phase = Phase.DEAL
    auction: Auction | None = None
    dealer: int | None = None
    bid: int | None = None
    trump: str | None = None
    buried: tuple[Card, ...] = ()
    trick_no: int = 1
    leader: int | None = None
    current: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    tricks: list[FinishedTrick] = field(default_factory=list)
    points_won: list[int] = field(default_factory=list)
    red_fives: list[tuple[int, int]] = field(default_factory=list)
    failed_throws: list[int] = field(default_factory=list)
    settlement: Settlement | None = None
    events: list[Event] = field(default_factory=list)

    # Private, not dataclass fields (no annotation): in the play phase, each seat's hand split
    # by effective suit (a list of five tuples per seat, see engine.tricks.split_suits), kept in
    # step with ``hands`` by _play; None until first needed (built from ``hands``). _suit_memo:
    # per seat, the PlayOptions sampler's memo of those tuples (see PlayOptions._memo).
    _suit_ix = None
    _suit_memo = None

    # -- construction -------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        ruleset: RuleSet | None = None,
        seed: int | None = None,
        first_bidder: int | None = None,
        hand_no: int = 1,
    ) -> "Game":
        """Shuffle with ``random.Random(seed)``, deal (RULES.md §1) and open the auction with
        ``first_bidder`` (default: a random seat from the same generator). The deal events are
        in ``game.events``; the game is then in :attr:`Phase.BID`."""
        ruleset = ruleset or hongwu()
        rng = random.Random(seed)
        deck = make_deck(ruleset.decks)
        _shuffle(deck, rng)  # rng.shuffle(deck), the same deal
        if first_bidder is None:
            first_bidder = rng.randrange(ruleset.players)
        elif not 0 <= first_bidder < ruleset.players:
            raise ValueError(f"first_bidder must be a seat 0..{ruleset.players - 1}")
        n, k = ruleset.players, ruleset.hand_size
        hands = [sorted(deck[i * k:(i + 1) * k]) for i in range(n)]
        kitty = tuple(sorted(deck[n * k:]))
        return cls._open_auction(ruleset, seed, hand_no, first_bidder, hands, kitty)

    @classmethod
    def _open_auction(
        cls, ruleset: RuleSet, seed: int | None, hand_no: int, first_bidder: int,
        hands: list[list[Card]], kitty: tuple[Card, ...],
    ) -> "Game":
        """The dealt game, its deal events logged, waiting for ``first_bidder`` to bid."""
        game = cls(ruleset, seed, hand_no, first_bidder, hands, kitty)
        game.points_won = [0] * ruleset.players
        game.events.append(HandStarted(hand_no, seed, ruleset.decks, first_bidder))
        for s, hand in enumerate(hands):
            game.events.append(CardsDealt(s, tuple(hand), len(hand)))
        game.auction = Auction(ruleset, first_bidder)
        game.phase = Phase.BID
        return game

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[Sequence[Card | str]],
        kitty: Sequence[Card | str],
        ruleset: RuleSet | None = None,
        first_bidder: int = 0,
    ) -> "Game":
        """A hand from a given deal (tests, replays, puzzles); otherwise as :meth:`new`.
        Raises ValueError when the deal does not match the ruleset's sizes or decks."""
        ruleset = ruleset or hongwu()
        hs = [sorted(parse_cards(h)) for h in hands]
        kt = tuple(sorted(parse_cards(kitty)))
        if len(hs) != ruleset.players or any(len(h) != ruleset.hand_size for h in hs) or len(kt) != ruleset.kitty_size:
            raise ValueError("the deal does not match the ruleset's hand and kitty sizes")
        from engine.cards import check_fits

        check_fits([c for h in hs for c in h] + list(kt), ruleset.decks)
        return cls._open_auction(ruleset, None, 1, first_bidder, hs, kt)

    @classmethod
    def after_auction(
        cls,
        hands: Sequence[Sequence[Card | str]],
        kitty: Sequence[Card | str],
        ruleset: RuleSet | None,
        dealer: int,
        bid: int,
    ) -> "Game":
        """A hand from a given deal whose auction is over: ``dealer`` won it at ``bid`` and
        names the trump next (for search and what-if analysis: any bid in the ruleset's range).
        Raises ValueError for a bid outside ``bid_min..bid_max`` or a bad deal."""
        ruleset = ruleset or hongwu()
        if not ruleset.bid_min <= bid <= ruleset.bid_max:
            raise ValueError(f"a bid must be {ruleset.bid_min}..{ruleset.bid_max}, not {bid}")
        game = cls.from_deal(hands, kitty, ruleset, first_bidder=dealer)
        passes = (None,) * (ruleset.players - 1)
        game.auction = Auction(ruleset, dealer, (bid,) + passes)
        game.dealer, game.bid, game.phase = dealer, bid, Phase.TRUMP
        game.events.append(BidMade(dealer, bid))
        for i in range(1, ruleset.players):
            game.events.append(BidMade((dealer + i) % ruleset.players, None))
        game.events.append(DealerChosen(dealer, bid))
        return game

    @classmethod
    def from_view(
        cls,
        view: PlayerView,
        hands: Sequence[Sequence[Card]],
        buried: Sequence[Card] = (),
    ) -> "Game":
        """A play-phase game consistent with ``view`` whose hidden hands are ``hands`` (one
        card list per seat; ``hands[view.seat]`` must be the view's own hand), for search
        and analysis (determinization). ``buried`` fills in the kitty when the viewer is not
        the dealer. Raises ValueError outside the play phase or when the hand sizes do not
        match ``view.hand_sizes``."""
        if view.phase is not Phase.PLAY:
            raise ValueError("from_view needs a view of the play phase")
        if [len(h) for h in hands] != list(view.hand_sizes):
            raise ValueError("the hands do not match the view's hand sizes")
        if view.seat is not None and sorted(hands[view.seat]) != sorted(view.hand):
            raise ValueError("the viewer's own hand must be kept")
        rs = view.ruleset
        auction = Auction(rs, view.first_bidder, tuple(a for _, a in view.bids))
        game = cls(
            rs, None, view.hand_no, view.first_bidder, [sorted(h) for h in hands], (),
            Phase.PLAY, auction, view.dealer, view.bid, view.trump,
            tuple(view.buried if view.buried is not None else buried), view.trick_no,
            view.trick_leader, list(view.current_trick), list(view.tricks),
            list(view.points_won), list(view.red_fives), list(view.failed_throws),
        )
        return game

    def clone(self) -> "Game":
        """An independent copy (for search); events are shared up to now, then diverge."""
        g = Game(
            self.ruleset, self.seed, self.hand_no, self.first_bidder,
            [list(h) for h in self.hands], self.kitty, self.phase, self.auction, self.dealer,
            self.bid, self.trump, self.buried, self.trick_no, self.leader, list(self.current),
            list(self.tricks), list(self.points_won), list(self.red_fives),
            list(self.failed_throws), self.settlement, list(self.events),
        )
        if self._suit_ix is not None:
            g._suit_ix = [list(suits) for suits in self._suit_ix]
            g._suit_memo = [list(memo) for memo in self._suit_memo]
        return g

    # -- queries ------------------------------------------------------------------------
    @property
    def ctx(self) -> TrumpContext | None:
        """The card order once trump is chosen."""
        ctx = _CONTEXTS.get(self.trump)
        if ctx is None and self.trump:
            ctx = context(self.trump)  # not a suit letter: context() says so
        return ctx

    def _suits_of(self, seat: int) -> list[tuple[Card, ...]]:
        """``seat``'s hand split by effective suit (play phase; see :attr:`_suit_ix`)."""
        ix = self._suit_ix
        if ix is None:
            ctx = self.ctx
            ix = self._suit_ix = [list(split_suits(hand, ctx)) for hand in self.hands]
            self._suit_memo = [[None] * 5 for _ in self.hands]
        return ix[seat]

    @property
    def to_act(self) -> int | None:
        """The seat that must act now, or None when the hand is over."""
        phase = self.phase
        if phase is _PLAY_PHASE:
            return (self.leader + len(self.current)) % self.ruleset.players
        if phase is _BID_PHASE:
            return self.auction.to_act
        if phase is Phase.TRUMP or phase is Phase.BURY:
            return self.dealer
        return None

    @property
    def is_over(self) -> bool:
        """True once the hand is settled."""
        return self.phase is Phase.SETTLE

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds (unfiltered: for the host and tests, not for players)."""
        return tuple(self.hands[seat])

    def play_options(self, seat: int | None = None) -> PlayOptions:
        """What ``seat`` (default: the seat to act) may play now. ValueError outside play."""
        if self.phase is not _PLAY_PHASE:
            raise ValueError("there are play options only in the play phase")
        current = self.current
        if seat is None:
            seat = (self.leader + len(current)) % self.ruleset.players
        ix = self._suit_ix
        suits = ix[seat] if ix is not None else self._suits_of(seat)
        return PlayOptions._prepared(
            self.hands[seat], current[0][1] if current else None, _CONTEXTS[self.trump], tuple(suits),
            self._suit_memo[seat],
        )

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (``None``: an observer, public information only)."""
        rs = self.ruleset
        dealer_sees = seat is not None and seat == self.dealer
        settled = self.phase is Phase.SETTLE
        hand: tuple[Card, ...] = ()
        if seat is not None:
            hand = self.ctx.sort_hand(self.hands[seat]) if self.trump else tuple(
                sorted(self.hands[seat], key=_neutral_key)
            )
        bids = tuple(self._bid_seats()) if self.auction is not None else ()
        took = self.phase in (Phase.BURY, Phase.PLAY, Phase.SETTLE)
        return PlayerView(
            seat=seat,
            phase=self.phase,
            ruleset=rs,
            hand_no=self.hand_no,
            first_bidder=self.first_bidder,
            bids=bids,
            legal_bid_amounts=(
                self.auction.options() if self.phase is Phase.BID and seat == self.to_act else ()
            ),
            dealer=self.dealer,
            bid=self.bid,
            trump=self.trump,
            to_act=self.to_act,
            hand=hand,
            hand_sizes=tuple(len(h) for h in self.hands),
            kitty=self.kitty if (dealer_sees and took) else None,
            buried=self.buried if ((dealer_sees and self.phase in (Phase.PLAY, Phase.SETTLE)) or settled) else None,
            trick_no=self.trick_no,
            trick_leader=self.leader,
            current_trick=tuple(self.current),
            tricks=tuple(self.tricks),
            points_won=tuple(self.points_won),
            red_fives=tuple(self.red_fives),
            failed_throws=tuple(self.failed_throws),
            settlement=self.settlement,
        )

    def _bid_seats(self) -> list[tuple[int, int | None]]:
        out, seat, passed = [], self.first_bidder, set()
        n = self.ruleset.players
        for amount in self.auction.actions:
            out.append((seat, amount))
            if amount is None:
                passed.add(seat)
            for step in range(1, n + 1):
                s = (seat + step) % n
                if s not in passed:
                    seat = s
                    break
        return out

    # -- actions ------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` and return the events it caused (also appended to ``events``).

        Raises :class:`IllegalAction` (state unchanged) when the action is not allowed now:
        wrong phase, not the seat's turn, or against the rules (the message says which rule).
        """
        if type(action) is Play and self.phase is _PLAY_PHASE:  # the common case, first
            seat = action.seat
            if seat != (self.leader + len(self.current)) % self.ruleset.players or type(seat) is not int:
                self._refuse_seat(seat)
            events = self._play(action)
            self.events.extend(events)
            return events
        seat = getattr(action, "seat", None)
        to_act = self.to_act
        if seat != to_act or type(seat) is not int:
            self._refuse_seat(seat)
        phase, handler = self._HANDLERS.get(type(action), (None, None))
        if phase is not self.phase:
            raise IllegalAction(Refusal(
                "wrong_phase", f"{type(action).__name__} is not possible in the {self.phase.value} phase",
                action=type(action).__name__, phase=self.phase.value))
        events = handler(self, action)
        self.events.extend(events)
        return events

    def _refuse_seat(self, seat: object) -> None:
        """Raise the IllegalAction for an action by a seat that may not act now."""
        if self.phase is Phase.SETTLE:
            raise IllegalAction(Refusal("hand_over", "the hand is over"))
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.ruleset.players:
            raise IllegalAction(Refusal("no_seat", f"there is no seat {seat!r}", seat=seat))
        if seat != self.to_act:
            raise IllegalAction(Refusal(
                "not_your_turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s", seat=seat,
                to_act=self.to_act))

    def _bid(self, action: Bid) -> list[Event]:
        try:
            self.auction = self.auction.apply(action.amount)
        except BidError as exc:
            raise IllegalAction(Refusal(
                "bad_bid", str(exc), amount=action.amount, options=list(self.auction.options()))) from None
        events: list[Event] = [BidMade(action.seat, action.amount)]
        if self.auction.done:
            self.dealer, self.bid = self.auction.dealer, self.auction.bid
            self.phase = Phase.TRUMP
            events.append(DealerChosen(self.dealer, self.bid))
        return events

    def _trump(self, action: ChooseTrump) -> list[Event]:
        if action.suit not in SUITS:
            raise IllegalAction(Refusal(
                "bad_suit", f"the trump suit must be one of ♠ ♥ ♣ ♦ (S H C D), not {action.suit!r}",
                suit=str(action.suit)))
        self.trump = action.suit
        self.hands[self.dealer] = sorted(self.hands[self.dealer] + list(self.kitty))
        self.phase = Phase.BURY
        return [
            TrumpChosen(action.seat, action.suit, bool(action.timed_out)),
            KittyTaken(self.dealer, self.kitty, len(self.kitty)),
        ]

    def _bury(self, action: Bury) -> list[Event]:
        cards = action.cards
        if not (isinstance(cards, tuple) and all(type(c) is Card for c in cards)):
            try:
                cards = parse_cards(cards)
            except ValueError as exc:
                raise IllegalAction(Refusal("bad_cards", str(exc))) from None
        k = self.ruleset.kitty_size
        if len(cards) != k:
            raise IllegalAction(Refusal("bury_count", f"bury exactly {k} cards, not {len(cards)}", count=k, given=len(cards)))
        hand = self._remove(self.hands[self.dealer], cards)
        self.hands[self.dealer] = hand
        self.buried = tuple(sorted(cards))
        self._suit_ix = None  # split afresh from the hands when play starts
        self.phase = Phase.PLAY
        self.leader = self.dealer
        return [KittyBuried(self.dealer, self.buried, k)]

    _remove = staticmethod(remove_cards)

    def _play(self, action: Play) -> list[Event]:
        cards = action.cards
        for c in cards:
            if type(c) is not Card:  # card text or ids: parse them all
                try:
                    cards = parse_cards(cards)
                except ValueError as exc:
                    raise IllegalAction(Refusal("bad_cards", str(exc))) from None
                break
        seat, n = action.seat, self.ruleset.players
        if self._suit_ix is None:
            self._suits_of(seat)
        current = self.current
        cards, left, events = take_play(seat, cards, self.hands[seat], current, self._suit_ix,
                                        _CONTEXTS[self.trump], n, self.failed_throws)
        self.hands[seat] = left
        current.append((seat, cards))
        events.append(_cards_played(seat, cards, self.trick_no, len(current) == 1))
        if len(current) == n:
            events.extend(self._finish_trick())
        return events

    def _finish_trick(self) -> list[Event]:
        dealer = self.dealer
        plays = tuple(self.current)
        w, points, cards, ruff = trick_outcome(plays, _CONTEXTS[self.trump])
        winner = plays[w][0]
        captures = ()
        if RED_FIVE in cards:  # red fives captured across sides (RULES.md §10)
            captures = tuple(
                (s, winner)
                for s, p in plays
                for c in p
                if c == RED_FIVE and (s == dealer) != (winner == dealer)
            )
        self.points_won[winner] += points
        self.red_fives.extend(captures)
        self.tricks.append(_finished_trick(self.trick_no, self.leader, plays, winner, points))
        events: list[Event] = [_trick_won(winner, points, self.trick_no, plays, ruff, captures)]
        self.current = []
        self.leader = winner
        self.trick_no += 1
        if not any(self.hands):
            self.settlement = settle(
                self.ruleset, dealer, self.bid, self.points_won, self.buried, winner,
                self.red_fives, self.failed_throws,
            )
            self.phase = Phase.SETTLE
            events.append(HandSettled(self.settlement))
        return events


Game._HANDLERS = {
    Bid: (Phase.BID, Game._bid),
    ChooseTrump: (Phase.TRUMP, Game._trump),
    Bury: (Phase.BURY, Game._bury),
    Play: (Phase.PLAY, Game._play),
}


def first_legal_action(view: PlayerView) -> Action:
    """A legal action for ``view``'s seat when it is to act: pass, ♠ as trump, bury the first
    cards of the hand, or the first legal play the engine lists. The simplest stand-in player
    (used where no AI is available). Raises ValueError when the seat is not to act."""
    if view.seat is None or view.to_act != view.seat:
        raise ValueError("the seat is not to act")
    if view.phase is Phase.BID:
        return Bid(view.seat, None)
    if view.phase is Phase.TRUMP:
        return ChooseTrump(view.seat, "S")
    if view.phase is Phase.BURY:
        return Bury(view.seat, tuple(view.hand[: view.bury_count]))
    return Play(view.seat, tuple(next(iter(view.play_options()))))


def match_seed(seed: int | None, hand_no: int) -> int | None:
    """The seed of hand ``hand_no`` (1-based) of a match started with ``seed`` (None: random),
    so a match seed reproduces every hand."""
    if seed is None:
        return None
    return random.Random(seed * 1_000_003 + hand_no).getrandbits(48)
