# file: hw_counter.py
"""hw_counter: a card-counting 红五 AI written from RULES.md and PLUGINS.md alone.

It shares no code with the built-in AIs (nor with the other examples), so the arena can
measure them against an independent style of play (issue #11). Two and three decks.

What it counts, from its view only (``view.tricks``, ``view.current_trick``, its hand and,
as dealer, ``view.buried``):

- the cards still out: every copy of the packs minus what it holds, what was played and what
  it buried (for the dealer these are exactly the defenders' hands; a defender's also hold
  the kitty);
- who is void in what: a seat that answered a lead with a card of another effective suit holds
  no more of that suit.

How it uses them:

- a lead (a single, a pair, a tractor, or a whole suit thrown) is a *master* when no card
  still out can beat it; masters are led first, unless a known void opponent may ruff them;
- the dealer draws trumps while the defenders still hold any, starting with its red fives
  (led alone they cannot lose, RULES.md §9), then cashes its side masters;
- a defender leads the suit a partner is void in (and the dealer is not), with a point card,
  so that the partner ruffs it: the partner's void is the signal it reads from the play;
- following, it feeds points only to a partner whose win is safe against the seats still to
  play, and takes tricks with plays that cannot be beaten any more when it can.

Bids: a count of trumps and top cards for the best suit, a little bolder than ``hw_greedy``.

Try it: ``hongwu arena --plugin-dir docs/examples --ai hw_counter --ai basic --hands 100``.
"""
import itertools
from collections import Counter

from ai_plugins import PASS, hookimpl
from engine.cards import Card, card_points, make_deck
from engine.order import context
from engine.patterns import classify
from engine.tricks import trick_winner

__version__ = "0.1"

TRUMP = "trump"
SUITS = ("S", "H", "C", "D")
RED_FIVE = Card("5H")
BIG = {Card("5H"), Card("BJ"), Card("SJ")}
LOOK = 1500  # at most this many legal plays are generated per decision


# -- counting -------------------------------------------------------------------------------
def out_cards(view):
    """Counter of the cards this seat cannot see: in other hands (or, for a defender, the kitty).

    Pack minus own hand minus every card played (finished and current trick) minus, for the
    dealer, the buried cards. RULES.md §1 for the packs.
    """
    out = Counter(make_deck(view.ruleset.decks))
    out.subtract(view.hand)
    for trick in view.tricks:
        for _, cards in trick.plays:
            out.subtract(cards)
    for _, cards in view.current_trick:
        out.subtract(cards)
    if view.buried:
        out.subtract(view.buried)
    return Counter({c: n for c, n in out.items() if n > 0})


def voids(view):
    """dict seat -> set of effective suits that seat is known to hold no more of (§8)."""
    ctx = view.ctx
    known = {s: set() for s in range(view.ruleset.players)}
    tricks = [t.plays for t in view.tricks] + ([view.current_trick] if view.current_trick else [])
    for plays in tricks:
        led = ctx.suit_of(plays[0][1][0])
        for seat, cards in plays[1:]:
            if any(ctx.suit_of(c) != led for c in cards):
                known[seat].add(led)
    return known


def beaten_by_out(ctx, out, card, group):
    """Whether a group (single 1, pair 2, triple 3) of `card` can be beaten by cards still out."""
    suit = ctx.suit_of(card)
    rank = ctx.rank(card)
    return any(n >= group and ctx.suit_of(c) == suit and ctx.rank(c) > rank for c, n in out.items())


def is_master(ctx, out, cards):
    """Whether a lead of `cards` (one effective suit) cannot be beaten by any card still out.

    Each component must be unbeatable: singles by a higher single, pairs and triples by a
    higher group of the same size, tractors by as many higher groups (a rough test). §7, §9.
    """
    pattern = classify(list(cards), ctx)
    if pattern.kind == "invalid":
        return False
    for comp in pattern.components:
        if comp.shape == "tractor":
            higher = {c for c, n in out.items()
                      if n >= comp.group and ctx.suit_of(c) == pattern.suit and ctx.rank(c) > ctx.rank(comp.top)}
            if len(higher) >= comp.length:
                return False
        elif beaten_by_out(ctx, out, comp.top, comp.group):
            return False
    return True


def trump_strength(hand, suit):
    """A count of the hand for trump `suit`: trumps, the top ones weighing more, side aces (§5)."""
    ctx = context(suit)
    total = 0.0
    for card in hand:
        if ctx.is_trump(card):
            r = ctx.rank(card)
            total += 1.0 + (1.8 if card == RED_FIVE else 0.7 * max(0, r - 20) / 2 if r > 20 else 0.2 * (r >= 13))
        elif card.rank == 14:
            total += 1.0
    for s in SUITS:
        if not any(c.suit == s and not ctx.is_trump(c) for c in hand):
            total += 0.5
    return total


class HwCounterAI:
    """One seat of the counting player (a factory: ``HwCounterAI(settings)``)."""

    def __init__(self, settings):
        self.seat = settings.seat

    # -- auction, trump, kitty --------------------------------------------------------------
    def choose_bid(self, view, bids):
        """Bid the cheapest amount up to a limit set by the hand's count, else pass (§2)."""
        if not bids:
            return PASS
        hand = view.hand
        count = max(trump_strength(hand, s) for s in SUITS) * 25.0 / len(hand)
        scale = view.ruleset.total_points / 200.0
        limit = view.ruleset.bid_min + (count - 18.0) * 5.0 * scale * scale
        return bids[0] if bids[0] <= limit else PASS

    def choose_trump(self, view, suits):
        """The suit with the best count (§3)."""
        return max(suits, key=lambda s: trump_strength(view.hand, s))

    def choose_bury(self, view, count):
        """Bury to make voids, keep masters and pairs; lone kings and tens go too (§4)."""
        ctx = view.ctx
        hand = list(view.hand)
        held = Counter(hand)
        side = {s: [c for c in hand if ctx.suit_of(c) == s] for s in SUITS}

        def keep_value(card):
            v = ctx.rank(card)
            if held[card] >= 2:
                v += 8
            if card.rank == 14:
                v += 10
            if card.points:  # a lone king or ten is lost to the defenders more often than not
                v -= 4
            return v

        order = []
        # suits short enough to empty, shortest first, unless they hold an ace or a pair
        for s in sorted(SUITS, key=lambda s: (len(side[s]), sum(keep_value(c) for c in side[s]))):
            cards = side[s]
            if cards and len(order) + len(cards) <= count and not any(keep_value(c) >= 22 for c in cards):
                order.extend(cards)
        rest = sorted((c for c in hand if not ctx.is_trump(c)), key=keep_value)
        pool = Counter(hand)
        pool.subtract(order)
        for card in rest:
            if len(order) >= count:
                break
            if pool[card] > 0:
                order.append(card)
                pool[card] -= 1
        if len(order) < count:
            trumps = sorted((c for c in hand if ctx.is_trump(c)), key=lambda c: (c in BIG, c.points > 0, ctx.rank(c)))
            for card in trumps:
                if len(order) >= count:
                    break
                if pool[card] > 0:
                    order.append(card)
                    pool[card] -= 1
        return order[:count]

    # -- play ---------------------------------------------------------------------------------
    def choose_play(self, view, options):
        """Lead masters, signal through voids, feed safe partners, take tricks safely (§6–§9)."""
        out = out_cards(view)
        void = voids(view)
        if options.leading:
            return self._lead(view, options, out, void)
        return self._follow(view, options, out, void)

    def _opponents(self, view):
        if view.seat == view.dealer:
            return [s for s in range(view.ruleset.players) if s != view.seat]
        return [view.dealer]

    def _ruff_risk(self, view, out, void, suit):
        """Whether an opponent known void in side `suit` may ruff it."""
        if suit == TRUMP:
            return False
        trumps_out = any(view.ctx.is_trump(c) for c in out)
        return trumps_out and any(suit in void[s] and TRUMP not in void[s] for s in self._opponents(view))

    def _lead(self, view, options, out, void):
        ctx = view.ctx
        hand = list(view.hand)
        units = list(options.units())
        dealer = view.seat == view.dealer
        trumps_out = sum(n for c, n in out.items() if ctx.is_trump(c))
        side_masters = [u for u in units if not ctx.is_trump(u[0]) and is_master(ctx, out, u)
                        and not self._ruff_risk(view, out, void, ctx.suit_of(u[0]))]
        if side_masters:  # cash them before the defenders run out of the suit
            return max(side_masters, key=lambda u: (len(u), card_points(u), ctx.rank(u[0])))
        throw = self._master_throw(view, options, out, void)
        if throw:
            return throw
        if dealer and trumps_out and not all(TRUMP in void[s] for s in self._opponents(view)):
            mine = [c for c in hand if ctx.is_trump(c)]
            if len(mine) * 2 >= len(hand) or len(mine) > trumps_out:
                # draw the defenders' trumps from the top: groups first, then the highest single
                # (a red five led alone cannot lose, §9)
                trump_units = [u for u in units if ctx.is_trump(u[0])]
                groups = [u for u in trump_units if len(u) >= 2]
                if groups:
                    return max(groups, key=lambda u: (len(u), ctx.rank(u[0])))
                return max(trump_units, key=lambda u: ctx.rank(u[0]))
        if not dealer:
            # a red five led alone cannot lose (equal cards: the first played wins, §9), the
            # partners see it is a master and feed it points, and it is no longer at risk
            fives = [u for u in units if u[0] == RED_FIVE]
            if fives:
                return max(fives, key=len)
            lead = self._signal_lead(view, units, void)
            if lead:
                return lead
        return self._low_lead(view, units, out, void)

    def _master_throw(self, view, options, out, void):
        """A whole side suit (or its unbeatable top) led at once, when it cannot be beaten."""
        ctx = view.ctx
        best = None
        for s in SUITS:
            cards = sorted((c for c in view.hand if ctx.suit_of(c) == s), key=ctx.rank, reverse=True)
            if len(cards) < 2 or self._ruff_risk(view, out, void, s):
                continue
            while len(cards) >= 2 and not is_master(ctx, out, cards):
                cards = cards[:-1]
            if len(cards) >= 2 and is_master(ctx, out, cards) and classify(cards, ctx).kind == "throw":
                if options.is_legal(cards) and (best is None or len(cards) > len(best)):
                    best = cards
        return tuple(best) if best else None

    def _signal_lead(self, view, units, void):
        """A defender's lead into a partner's void (and not the dealer's): a point card if any."""
        ctx = view.ctx
        partners = [s for s in range(view.ruleset.players) if s not in (view.seat, view.dealer)]
        for s in SUITS:
            if s in void[view.dealer]:
                continue
            if any(s in void[p] and TRUMP not in void[p] for p in partners):
                singles = [u for u in units if len(u) == 1 and ctx.suit_of(u[0]) == s]
                if singles:
                    return max(singles, key=lambda u: (u[0].points, -ctx.rank(u[0])))
        return None

    def _low_lead(self, view, units, out, void):
        ctx = view.ctx
        hand = list(view.hand)
        length = Counter(ctx.suit_of(c) for c in hand)

        def risk(u):
            suit = ctx.suit_of(u[0])
            return (self._ruff_risk(view, out, void, suit), suit == TRUMP, u[0] in BIG)

        singles = [u for u in units if len(u) == 1]
        pool = singles or units
        if view.seat == view.dealer:
            # the dealer leads its shortest side suit, to ruff it later
            return min(pool, key=lambda u: (risk(u), u[0].points > 0, length[ctx.suit_of(u[0])], ctx.rank(u[0])))
        # a defender leads short suits to make a void of its own
        return min(pool, key=lambda u: (risk(u), u[0].points > 0, length[ctx.suit_of(u[0])], ctx.rank(u[0])))

    def _follow(self, view, options, out, void):
        ctx = view.ctx
        table = [cards for _, cards in view.current_trick]
        seats = [s for s, _ in view.current_trick]
        players = view.ruleset.players
        later = [(seats[0] + i) % players for i in range(len(table) + 1, players)]
        win_idx = trick_winner(table, ctx)
        win_seat = seats[win_idx]
        me_def = view.is_defender(self.seat)
        same_side = (lambda a, b: view.is_defender(a) == view.is_defender(b))
        at_stake = card_points(c for cards in table for c in cards)
        plays = list(itertools.islice(options, LOOK))
        built = self._cheap_build(view, options)
        if built and built not in plays:
            plays.append(built)

        def value(play):
            v = 0
            for c in play:
                v += ctx.rank(c) + (25 if ctx.is_trump(c) else 0) + (40 if c in BIG else 0)
            return v

        def safe_after(play, seat):
            """Whether `play`, winning now for `seat`, survives the seats still to play."""
            enemies = [s for s in later if not same_side(s, seat)]
            if not enemies:
                return True
            led = ctx.suit_of(table[0][0])
            wins_in = ctx.suit_of(max(play, key=ctx.rank))
            group = len(play) if len(set(play)) == 1 else 1
            top = max(play, key=ctx.rank)
            for e in enemies:
                if wins_in == led:
                    if led not in void[e] and beaten_by_out(ctx, out, top, group):
                        return False
                    if led != TRUMP and led in void[e] and TRUMP not in void[e] and any(ctx.is_trump(c) for c in out):
                        return False
                else:  # a ruff: only an enemy void in the led suit may overtrump
                    if led in void[e] and TRUMP not in void[e] and beaten_by_out(ctx, out, top, group):
                        return False
            return True

        if me_def and same_side(win_seat, self.seat) and safe_after(table[win_idx], win_seat):
            return max(plays, key=lambda p: (RED_FIVE not in p, card_points(p), -value(p)))
        winners = [p for p in plays if trick_winner(table + [p], ctx) == len(table)]
        safe = [p for p in winners if safe_after(p, self.seat)]
        if safe:
            best = min(safe, key=lambda p: (value(p) - 2 * card_points(p)))
            pts = at_stake + card_points(best)
            uses_big = any(c in BIG for c in best)
            takes_lead = me_def and win_seat == view.dealer and not uses_big  # take the lead off the dealer
            if pts >= 10 or (pts > 0 and not uses_big) or takes_lead or (not uses_big and not any(ctx.is_trump(c) for c in best)):
                if not uses_big or pts >= 15 or any(RED_FIVE in t for t in table):
                    return best
            # a defender's red five is safest spent winning a trick: held to the end it may be
            # forced under the dealer's own (RULES.md §10: a captured red five costs 20)
            fives = [p for p in safe if RED_FIVE in p]
            if me_def and fives and at_stake >= 5:
                return min(fives, key=value)
        if winners and not me_def and at_stake >= 5:
            cheap_win = [p for p in winners if RED_FIVE not in p]
            if cheap_win:
                return min(cheap_win, key=value)
        # lose cheaply: no points, no red five, low cards from short suits first
        return min(plays, key=lambda p: (RED_FIVE in p, card_points(p), value(p)))

    def _cheap_build(self, view, options):
        """The cheapest follow built directly (led suit first, then the cheapest others), if legal."""
        ctx = view.ctx
        lead = options.lead
        suit = ctx.suit_of(lead[0])
        hand = list(view.hand)
        key = lambda c: (c == RED_FIVE, c.points > 0, ctx.is_trump(c), c in BIG, ctx.rank(c))
        same = sorted((c for c in hand if ctx.suit_of(c) == suit), key=key)
        rest = sorted((c for c in hand if ctx.suit_of(c) != suit), key=key)
        play = (same + rest)[: len(lead)] if len(same) < len(lead) else same[: len(lead)]
        if options.is_legal(play):
            return tuple(sorted(play))
        return None


@hookimpl
def register_ais(register):
    register("hw_counter", HwCounterAI, __version__)
