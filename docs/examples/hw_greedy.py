# file: hw_greedy.py
"""hw_greedy: a quick heuristic 红五 AI written from RULES.md and PLUGINS.md alone.

It shares no code with the built-in AIs, so the arena can measure them against an
independent style of play (issue #11). Two and three decks.

- bid: counts its hand's strength for its best trump suit (trumps, with extra weight for the
  red fives, jokers, 参谋 and 2s, plus side aces) and bids up to an amount that grows with it;
- trump: the suit that gives that count its highest value;
- bury: empties its shortest side suits (kings and tens included, they would be lost anyway),
  then its lowest side cards; never a trump unless it must;
- lead: side aces and high side pairs or tractors first; the dealer then draws trumps from the
  top while it holds many; otherwise a low card of its shortest side suit;
- follow: feeds points to a defender partner who is winning; ruffs or overtakes tricks worth
  10 points or more with the cheapest play that wins; else throws its cheapest cards. The red
  five and the jokers are kept for tricks worth 20 or more, and a red five is never played into
  a trick it does not win, unless the rules force it (RULES.md §10: a captured red five costs 20).

Try it: ``hongwu arena --plugin-dir docs/examples --ai hw_greedy --ai basic --hands 100``.
"""
import itertools

from ai_plugins import PASS, hookimpl
from engine.cards import Card, card_points
from engine.order import context
from engine.tricks import trick_winner

__version__ = "0.1"

RED_FIVE = Card("5H")
JOKERS = (Card("BJ"), Card("SJ"))
SIDE = ("S", "H", "C", "D")
MAX_PLAYS = 1500  # legal plays looked at per decision (they are generated lazily)


def strength(hand, suit):
    """The hand's strength with `suit` as trump: about one per trump, more for the top ones.

    hand: the dealt cards; suit: a suit letter. Returns a float (RULES.md §5 for the order).
    """
    ctx = context(suit)
    score = 0.0
    for card in hand:
        if ctx.is_trump(card):
            score += 1.0
            if card == RED_FIVE:
                score += 2.0
            elif card in JOKERS:
                score += 1.5 if card.rank == 16 else 1.2
            elif card.rank == 3:
                score += 0.8
            elif card.rank == 2:
                score += 0.5
            elif card.rank == 14:
                score += 0.4
        elif card.rank == 14:
            score += 0.8
        elif card.rank == 13:
            score += 0.2
    side = [c for c in hand if not ctx.is_trump(c)]
    for s in SIDE:
        held = [c for c in side if c.suit == s]
        if not held:
            score += 0.6  # a void to ruff with
        elif len(held) == 1:
            score += 0.3
        pairs = {c for c in held if held.count(c) >= 2}
        score += 0.3 * sum(1 for c in pairs if c.rank >= 11)
    return score


def best_suit(hand):
    """The trump suit giving `hand` its highest strength (ties: ♠ ♥ ♣ ♦ order)."""
    return max(SIDE, key=lambda s: (strength(hand, s), -SIDE.index(s)))


class HwGreedyAI:
    """One seat of the greedy player (a factory: ``HwGreedyAI(settings)``)."""

    def __init__(self, settings):
        self.seat = settings.seat

    # -- auction, trump, kitty ------------------------------------------------------------
    def choose_bid(self, view, bids):
        """Bid the cheapest amount while it stays under the hand's limit, else pass (§2)."""
        if not bids:
            return PASS
        hand = view.hand
        per_card = len(hand) / 25.0  # three decks: 39 cards, the count scales with the hand
        score = strength(hand, best_suit(hand)) / per_card
        # Measured with this AI as dealer at the minimum bid against basic defenders: a count
        # of 20 takes about 79 card points of 200 (three decks: about 90 of 300), and each
        # point of count is worth about 4 card points (three decks: about 9). Bid up to a
        # margin under that.
        scale = view.ruleset.total_points / 200.0
        limit = view.ruleset.bid_min + (score - 18.5) * 4.0 * scale * scale
        if bids[0] <= limit:
            return bids[0]
        return PASS

    def choose_trump(self, view, suits):
        """The suit with the strongest count (§3)."""
        return best_suit(view.hand)

    def choose_bury(self, view, count):
        """Empty the shortest side suits, then the lowest side cards (§4)."""
        ctx = view.ctx
        hand = list(view.hand)
        side = {s: [c for c in hand if not ctx.is_trump(c) and c.suit == s] for s in SIDE}
        chosen = []
        for s in sorted(SIDE, key=lambda s: len(side[s])):
            cards = side[s]
            if not cards or any(c.rank == 14 for c in cards):
                continue
            if len(chosen) + len(cards) <= count:
                chosen.extend(cards)
                side[s] = []
        left = sorted(
            (c for s in SIDE for c in side[s]),
            key=lambda c: (c.rank == 14, hand.count(c) >= 2, c.rank - 3 * bool(c.points)),
        )
        for card in left:
            if len(chosen) == count:
                break
            chosen.append(card)
        if len(chosen) < count:  # more trumps than we can keep: the weakest, no red five
            trumps = sorted((c for c in hand if ctx.is_trump(c)), key=lambda c: (c.points > 0, ctx.rank(c)))
            pool = list(trumps)
            for card in chosen:
                if card in pool:
                    pool.remove(card)
            chosen.extend(pool[: count - len(chosen)])
        return chosen

    # -- play -------------------------------------------------------------------------------
    def choose_play(self, view, options):
        """Lead strong, feed a winning partner, take point tricks cheaply (§6–§9)."""
        if options.leading:
            return self._lead(view, options)
        return self._follow(view, options)

    def _keep(self, ctx, card):
        """How much we want to keep `card` (higher: keep)."""
        value = ctx.rank(card)
        if ctx.is_trump(card):
            value += 20
            if card == RED_FIVE:
                value += 40
            elif card in JOKERS:
                value += 25
        return value

    def _lead(self, view, options):
        ctx = view.ctx
        hand = list(view.hand)
        units = list(options.units())
        side_units = [u for u in units if not ctx.is_trump(u[0])]
        # side aces (and pairs, tractors topped by an ace or king): they usually win
        strong = [u for u in side_units if max(ctx.rank(c) for c in u) == 14 or (len(u) >= 2 and max(ctx.rank(c) for c in u) >= 13)]
        if strong:
            return max(strong, key=lambda u: (len(u), card_points(u)))
        trumps = [c for c in hand if ctx.is_trump(c)]
        dealer = view.seat == view.dealer
        if dealer and len(trumps) * 2 >= len(hand):
            trump_units = [u for u in units if ctx.is_trump(u[0])]
            multi = [u for u in trump_units if len(u) >= 2]
            if multi:
                return max(multi, key=lambda u: (len(u), ctx.rank(u[0])))
            # the highest trump that is not the red five (keep it for a big trick)
            singles = [u for u in trump_units if len(u) == 1 and u[0] != RED_FIVE]
            if singles:
                return max(singles, key=lambda u: ctx.rank(u[0]))
        if side_units:
            length = {s: sum(1 for c in hand if not ctx.is_trump(c) and c.suit == s) for s in SIDE}
            singles = [u for u in side_units if len(u) == 1]
            pool = singles or side_units
            return min(pool, key=lambda u: (length[u[0].suit], card_points(u), ctx.rank(u[0])))
        pool = [u for u in units if RED_FIVE not in u] or units
        return min(pool, key=lambda u: (len(u), card_points(u), ctx.rank(u[0])))

    def _follow(self, view, options):
        ctx = view.ctx
        table = [cards for _, cards in view.current_trick]
        seats = [s for s, _ in view.current_trick]
        players = view.ruleset.players
        last = len(table) == players - 1
        winner_seat = seats[trick_winner(table, ctx)]
        me_def = view.is_defender(self.seat)
        partner_winning = me_def and view.is_defender(winner_seat)
        dealer_to_come = view.dealer not in seats and view.dealer != self.seat
        at_stake = card_points(c for cards in table for c in cards)
        plays = list(itertools.islice(options, MAX_PLAYS))
        cheap = self._cheapest(view, options)
        if cheap is not None and cheap not in plays:
            plays.append(cheap)

        def keep(play):
            return sum(self._keep(ctx, c) for c in play)

        def wins(play):
            return trick_winner(table + [play], ctx) == len(table)

        def bad_five(play):  # a red five that goes to the wrong side
            return RED_FIVE in play

        if partner_winning:
            safe = last or not dealer_to_come or self._holds(ctx, table[seats.index(winner_seat)])
            if safe:
                # feed points; prefer side points, never a red five that might be lost
                return max(plays, key=lambda p: (not bad_five(p) or wins(p), card_points(p), -keep(p)))
            return min(plays, key=lambda p: (bad_five(p), card_points(p), keep(p)))
        winners = [p for p in plays if wins(p)]
        if winners:
            best = min(winners, key=lambda p: (self._big(p) and at_stake < 20, keep(p) - 3 * card_points(p)))
            worth = at_stake >= 10 or (last and at_stake > 0) or any(RED_FIVE in t for t in table)
            if self._big(best) and at_stake < 20 and not last and not any(RED_FIVE in t for t in table):
                worth = worth and at_stake >= 20
            if worth or (last and not any(ctx.is_trump(c) for c in best)):
                return best
        return min(plays, key=lambda p: (bad_five(p), card_points(p), keep(p)))

    def _big(self, play):
        return any(c == RED_FIVE or c in JOKERS for c in play)

    def _holds(self, ctx, cards):
        """Whether a winning play looks safe against the dealer still to come."""
        top = max(cards, key=ctx.rank)
        if ctx.is_trump(top):
            return ctx.rank(top) >= 24  # jokers and the red five
        return ctx.rank(top) == 14

    def _cheapest(self, view, options):
        """The cheapest legal play built directly: led-suit cards first, then the cheapest rest.

        Useful when the lazy list of legal plays is too long to look at whole (a void seat
        answering a throw). Returns a tuple or None when that construction is not legal.
        """
        ctx = view.ctx
        lead = options.lead
        n = len(lead)
        suit = ctx.suit_of(lead[0])
        hand = list(view.hand)
        same = sorted((c for c in hand if ctx.suit_of(c) == suit), key=lambda c: (c.points > 0, ctx.rank(c)))
        others = sorted(
            (c for c in hand if ctx.suit_of(c) != suit),
            key=lambda c: (c == RED_FIVE, c.points > 0, ctx.is_trump(c), self._keep(ctx, c)),
        )
        play = (same[:n] + others)[:n]
        if len(play) == n and options.is_legal(play):
            return tuple(sorted(play))
        return None


@hookimpl
def register_ais(register):
    register("hw_greedy", HwGreedyAI, __version__)
