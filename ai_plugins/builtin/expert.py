"""The built-in ``expert`` AI: determinized Monte-Carlo search (RULES.md §2–§9).

Every decision is made by sampling the hidden cards many times (consistent with what the seat
has seen: hand sizes, played and buried cards, voids shown by others, see
:func:`.simulate.sample_world`), trying each candidate in every sample, playing the rest of the
hand out with a fast policy (:func:`.simulate.rollout_action`), and keeping the candidate with
the best mean result for the seat (game points, ties broken by the dealer final); the bid and
the trump use a learned evaluation instead (no play-outs). The same
samples are used for all candidates of a decision, so that they are compared on equal cards.

- **play**: candidates are the ``basic`` AI's best few plays (``ranked_plays``) — at most
  :data:`MAX_CANDIDATES`; a forced play is returned at once. A defender's sampled worlds lean
  the way real deals do (hidden trumps towards the dealer, few trumps and points in the kitty:
  ``sample_world(..., prior=True)``). Each candidate is played out on the lean simulator
  :mod:`.fastsim` (plain lists of card ids, about ten times cheaper than the engine; a trick
  led by a tractor or a throw is finished by the engine first; the experimental option
  ``tractors`` lets the lean play-out lead and answer tractors itself, :data:`.fastsim.TRACTORS`).
  Candidates clearly behind the first are dropped after :data:`PRUNE_AFTER` samples
  (:func:`prune_candidates`); with the experimental option ``widen`` the next plays of
  ``basic``'s ranking then take their places; with the experimental option ``public`` the lean
  play-outs judge safety from each seat's own cards and the shown voids
  (:func:`.fastsim.public_lean`). The search overrules ``basic``'s first choice only when the paired play-outs favour another by
  :data:`PLAY_CONFIDENCE` standard errors (:func:`pick`), so few samples never make it worse
  than its prior by noise alone; a timed search ends once pruning has left only that choice. The utility of a play-out is the expected game points allowing
  for the play-out's own error (:func:`.fastsim.calibrated_utility`: the dealer's points still
  to come mapped to real play's, the bands smoothed by the fitted spread, which is wide early
  in a hand and narrow at its end; ``data/playout_calibration.json``). A search timed at
  :data:`FINISH_LONG_MS` or more (option ``finish``, :data:`FINISH`) lets ``basic`` on every
  seat, each seat seeing only its own cards, play the next :data:`FINISH_TRICKS` tricks of
  each candidate's play-out (:func:`.expert_bid.basic_play_out`; the two-deck dealer's own
  searches :data:`DEALER_FINISH_TRICKS`, three, since 2.2) before the lean play-out
  settles the rest: dearer, but it keeps gaining from more samples where the lean play-out
  does not (README "Arena results"); the experimental option ``dealer_finish``
  (:data:`DEALER_FINISH`) finishes the dealer's own searches another way. Its thinking time
  is CPU time of the deciding thread (:meth:`ExpertAI._cpu_loop`), so a busy machine does not
  starve it.
- **bid**: a learned hand evaluation (:mod:`.expert_bid`: features of the dealt hand for
  each suit, a linear model of the mean and spread of the dealer's card points fitted on
  deals played out by ``basic``, ``tools/train_bid_model.py``) gives the expected game points
  as dealer at each legal bid under the band table; the rivals' bids lower the estimate (the
  defence is stronger); it bids the cheapest amount that beats passing, else passes.
- **trump**: the suit with the best predicted card points (the same model).
- **bury**: a few candidate buries (``basic``'s, and ones that empty short side suits and
  keep trumps and pairs, keeping point cards or burying them,
  :func:`.expert_bid.bury_candidates`), each played out in sampled worlds (with two decks by
  the engine's full-sight play-out, with three by the cheaper lean one, :data:`BURY_AUTO`);
  :func:`pick` chooses at the gate :data:`BURY_CONFIDENCE` (0 with two decks since 2.2),
  keeping the cheapest point-burying bury (:func:`.expert_bid.default_bury`) unless the
  sampled deals favour another.
- **找朋友** (five seats, the unknown friend): every decision goes to
  :class:`.expert_zpy.ZpyExpert`, the same search on 找朋友 worlds (:mod:`.simulate_zpy`).

Thinking time: ``think_ms`` (``AISettings.options["think_ms"]``, the arena's and the client's
``--think-ms``; default :data:`DEFAULT_THINK_MS`) per decision, capped at 80% of the seat's
budget ``budget_s`` so the runner never has to cut it off. The dealer's play decisions take
three times ``think_ms`` (option ``dealer_time``, :data:`DEALER_TIME`; at most
:data:`DEALER_CAP_S`) and the defenders' correspondingly less, so a trick's decisions together
still take four ``think_ms``: at 100 ms the dealer searches with the hybrid finish (1.9 with
two decks, README "`expert` 1.9"; 2.0 with three), and the auction adds a bonus for the
dealer's stronger play (:data:`.expert_bid.PLAY_BONUS`: three decks since 2.0, two since 2.1;
README "`expert` 2.0", "`expert` 2.1"). 2.2 (two decks): the bury's gate 0 and three ``basic``
tricks in the dealer's hybrid finishes (README "`expert` 2.2").
"""
from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from typing import Any, Callable, Sequence

from engine.cards import Card
from engine.state import Bury, ChooseTrump, Play

from ..base import PASS, AISettings
from ..hookspecs import hookimpl
from . import expert_bid
from .basic import BasicAI, hand_strength, keep_value
from .fastsim import (
    TRACTORS, calibrated_utility, calibration_for, copy_lean, fast_settle, game_voids, lean_from_game,
    lean_lead, lean_settle, public_lean, settled_utility, smooth_utility,
)
from .inference import prior_bias
from .simulate import (
    dealer_game_points, dealer_points, game_for_dealer, play_out, rollout_action,
    sample_deal_as_dealer, sample_world, utility,
)

VERSION = "2.2"

DEFAULT_THINK_MS = 500
"""Default thinking time per decision, in milliseconds."""

MAX_CANDIDATES = 6
"""Plays compared per decision (the basic AI's best ones)."""

ROLLOUT_CALIBRATION = {2: (7.4, 0.65), 3: (5.4, 0.77)}
"""Per deck count, ``(a, b)`` mapping the card points a dealer takes in the fast play-outs to
those it takes in real play (``a + b * points``): the play-outs see every hand and flatter
the dealer. Fitted on 200 (two decks) and 100 (three decks) deals with a random dealer."""

MIN_SAMPLES = 2
"""Samples taken even when the thinking time is already used up."""

CONFIDENCE = 1.0
"""How sure the search must be before it overrules ``basic``'s first choice: the paired mean
advantage over that choice, in standard errors (the same sampled worlds for both)."""

BURY_CONFIDENCE = {2: 0.0, 3: CONFIDENCE}
"""The bury's gate (:func:`pick`, standard errors) by deck count, when the option
``bury_confidence`` is not given; :data:`CONFIDENCE` for a deck count not listed. Two decks 0
since 2.2: over 1,200 buries of ``benchmarks/bury_decisions.py`` gate 0 gained +0.24 ± 0.28
dealer game points a bury over gate 1, and with the dealer's three ``basic`` tricks
(:data:`DEALER_FINISH_TRICKS`) +0.18 ± 0.15 a hand the expert dealt over 800 arena deals
(README "`expert` 2.2"). Three decks keep 1 (not measured there)."""

BURY_CANDIDATES = 12
"""Buries compared per bury decision, at most (positions have about eight, README "The bury
search's play-outs"; 1.4 compared six, all of them keeping point cards)."""

BURY_THINK_SCALE = 5.0
"""The bury (one decision a hand, the dealer's) thinks this many times ``think_ms`` (at most
:data:`BURY_BUDGET_SHARE` of the seat's budget): it compares several candidates, and the bid
and the trump, which used to search too, now take no search time at all (the learned model)."""

BURY_BUDGET_SHARE = 0.45
"""The bury's thinking time is at most this share of the seat's budget: 0.9 s of the default
2 s, so that with its last sampled deal the decision stays under a second (at half the budget
it took 1,008 ms, ``benchmarks/ai_speed.py``)."""

BURY_PLAYOUT = "auto"
"""How a bury's sampled deals are played out (option ``bury_finish``): ``"fast"`` (the
full-sight engine play-outs of :func:`.simulate.play_out`), ``"lean"`` (the lean play-out,
:func:`.fastsim.fast_settle`, its utility calibrated for a whole hand), ``"hybrid"`` (``basic``
on every seat for :attr:`ExpertAI.finish_tricks` tricks, then the lean play-out, as the play
search's ``finish=hybrid``), ``"basic"`` (``basic`` on every seat to the end, no seat seeing
another's cards, :func:`.expert_bid.basic_play_out`) or ``"auto"``: per deck count as
:data:`BURY_AUTO` says."""

BURY_AUTO = {2: "fast", 3: "lean"}
"""What ``bury_finish="auto"`` (the default) plays, per deck count (RULES.md §1): with three
decks a ``fast`` play-out costs so much that the bury's time at ``--think-ms 100`` buys about
8 sampled deals, against about 90 lean ones, and the lean search chose better buries
(``benchmarks/bury_decisions.py``, 400 three-deck buries: +0.72 ± 0.38 game points a bury,
docs/EXPERT_NOTES.md "`expert` 1.7"); with two decks the ``fast`` one did as well or better (7 fast
deals +3.78, 33 lean +3.46 over ``basic``'s bury). Another deck count: ``fast``."""

BURY_FINISHES = ("fast", "lean", "hybrid", "basic", "auto")
"""The values of the option ``bury_finish`` (:data:`BURY_PLAYOUT`)."""

WALL_FACTOR = 2.0
"""A play decision's wall time is capped at this many times the thinking time (its thinking
time is counted in CPU time, see :meth:`ExpertAI._cpu_loop`)."""

WALL_EXTRA_S = 0.35
"""... and at the thinking time plus this many seconds (so a 500 ms decision stays under
0.85 s of wall time however busy the machine is)."""

SIGMA = 0.0
"""Spread in card points that smooths the game-point bands in the search's utility
(:func:`.fastsim.smooth_utility`; 0: the plain bands plus a tenth of the dealer final,
:func:`.fastsim.settled_utility`)."""

CALIBRATE = 1.0
"""When above 0, the search's utility is :func:`.fastsim.calibrated_utility`: the lean
play-out's dealer points mapped to real play's and the bands smoothed by the fitted spread
times this factor (``data/playout_calibration.json``); 0: see :data:`SIGMA`."""

STRUCTURE = False
"""When true (option ``structure=1``), the play search's sampled worlds also respect what the
follows showed about the others' pairs and triples (:func:`.knowledge.copy_caps`: a seat that
answered a pair lead without a pair holds no pair of that suit). Off by default: measured
over 400 deals (two decks, 100 ms, seed 2027, README "Arena results") it played worse, not
better: +0.73 ± 0.17 against ``basic`` instead of +0.91 ± 0.17, paired −0.18 ± 0.17."""

INFER = "0"
"""Which play searches deal their sampled worlds with the learned prior of :mod:`.inference`
(what the auction and the plays so far showed about who holds what) instead of the fixed
defenders' prior (``simulate.DEALER_TRUMP_WEIGHT`` and the kitty's weights; the dealer's worlds
are then even deals with the voids): option ``infer``, ``0`` none, ``1`` every seat's,
``defenders`` the defenders' only. Off: over 400 two-deck deals at 100 ms (docs/EXPERT_NOTES.md
"Tried after 1.7: a learned sampling prior") ``infer=1`` lost −0.19 ± 0.18 game points a hand, most
of it in the dealer's hands."""

INFER_CHOICES = ("0", "1", "defenders")
"""The values of the option ``infer``."""

PUBLIC = False
"""When true (option ``public=1``), the play search's lean play-outs judge safety as players at
the table do, from their own cards and the voids shown (:func:`.fastsim.public_lean`), not
from every hand."""

FINISH = "auto"
"""How the play search finishes a candidate in a sampled world: ``"lean"`` (the full-sight
lean play-out of :mod:`.fastsim`, calibrated), ``"basic"`` (a ``basic`` AI on every seat, each
seeing only its own cards, :func:`.expert_bid.basic_play_out`; the plain utility,
:func:`.fastsim.settled_utility`; about twenty times dearer,
``benchmarks/basic_finish_speed.py``), ``"hybrid"`` (``basic`` on every seat for the next
:data:`FINISH_TRICKS` tricks, then the lean play-out, calibrated for the cards then left) or
``"auto"``: ``"hybrid"`` when the search is timed (no fixed ``samples``) and thinks at least
:data:`FINISH_LONG_MS`, else ``"lean"``. Measured (README "Arena results",
``benchmarks/play_decisions.py``): with two decks the ``basic`` and hybrid finishes keep
gaining from more samples where the lean ones are flat, a hybrid sample is worth a ``basic``
one at about half the cost or less, and below a few hundred milliseconds either gets too few
samples to be worth it."""

FINISH_TRICKS = 6
"""With ``finish="hybrid"``: how many tricks ``basic`` plays on every seat (the trick in
progress first) before the lean play-out finishes the hand from that trick boundary (option
``finish_tricks``). Six gave the full ``basic`` finish's decision quality (two decks, 30
samples: +0.263 a decision either way; three tricks +0.203, two +0.100, one +0.080)."""

DEALER_FINISH_TRICKS = {2: 3}
"""With the hybrid finish and no option ``finish_tricks``: the ``basic`` tricks of the
dealer's own play searches by deck count (:data:`FINISH_TRICKS` for a deck count not listed,
and for the defenders' searches). Two decks 3 since 2.2: the dealer's hybrid search then sees
about twice the worlds in its time, which scored +0.170 ± 0.196 game points a decision on
1,308 dealer decisions (``benchmarks/play_decisions.py``), and, with the bury's gate 0
(:data:`BURY_CONFIDENCE`), +0.18 ± 0.15 a hand the expert dealt over 800 arena deals at
100 ms (README "`expert` 2.2")."""

FINISH_LONG_MS = 300
"""Thinking time per decision (ms) from which ``finish="auto"`` uses the hybrid finish."""

DEALER_FINISH: str | None = None
"""How the play search finishes a candidate when the deciding seat is the dealer (option
``dealer_finish``: ``"lean"``, ``"basic"`` or ``"hybrid"`` as for :data:`FINISH`); None, the
default: as ``finish`` resolves. Experimental: the dealer's decisions weigh three times a
defender's (RULES.md §10) and the decision measure favoured the hybrid for them at 100 ms, but
400 arena deals did not (docs/EXPERT_NOTES.md "Tried after 1.6")."""

REFINE = 0
"""Challengers the play search re-examines with ``basic`` finishes after its lean search
(option ``refine``; 0: none). Those with the best lean means, besides ``basic``'s first choice,
are played out again, with that choice, in fresh sampled worlds finished by ``basic`` on every
seat (:meth:`ExpertAI._refine`), and the decision is taken on those finishes alone.
Experimental: it chose worse than finishing every candidate with ``basic`` (README "Arena
results", 1.3)."""

REFINE_LEAN_MS = 100
"""With ``refine`` on, the lean search's share of the thinking time is at most this many
milliseconds; the rest goes to the ``basic`` finishes (none when ``think_ms`` is no more)."""

REFINE_MIN_SAMPLES = 6
"""Fewer ``basic``-finished worlds than this (a thinking time just above
:data:`REFINE_LEAN_MS`) and the lean search's rows decide after all."""

TIME_BANK = 0.0
"""Option ``time_bank`` (experimental; 0, the default, is off): the share of ``think_ms`` a
timed follow searches for. What the follows leave unused is banked for the rest of the hand,
and a lead searches for ``think_ms`` plus the bank, at most :data:`LEAD_CAP` times
``think_ms`` (the bank may be overdrawn by (:data:`LEAD_CAP` − 1) × ``think_ms``, so a lead
early in the hand need not wait for it). Over a hand the seat thus thinks about ``think_ms``
a play decision, and the leads, where the search gains (docs/EXPERT_NOTES.md "Tried after 1.6"),
get more of it; a lead given :data:`FINISH_LONG_MS` or more is finished as ``finish="auto"`` would
at that time (the hybrid). The time debited is the CPU time the search used
(:meth:`ExpertAI._timed_think`)."""

LEAD_CAP = 3.0
"""With ``time_bank``: the most a lead may search, in multiples of ``think_ms``."""

DEALER_TIME = {2: 3.0, 3: 3.0}
"""The option ``dealer_time``'s default by deck count (1.0 is off). With a factor F a timed
play decision of the dealer searches for F × ``think_ms`` and each defender's for as much
less as keeps a trick's decisions together at n × ``think_ms`` (n the seats; a defender at
least a tenth of ``think_ms``): with four seats and F = 3, the dealer 300 ms and the
defenders 33 ms at 100 ms.
The dealer's game points are three times a defender's (RULES.md §10), and given
:data:`FINISH_LONG_MS` or more its search is finished as ``finish="auto"`` would at that time
(the hybrid), which gains from time where the lean search is flat. The dealer's time is capped
like any search's (:meth:`ExpertAI._cpu_loop`) and at :data:`DEALER_CAP_S`; a fixed
``samples`` count is unaffected. Two decks 3: at 100 ms +0.22 ± 0.15 game points a hand
against ``basic`` over 400 deals, −0.04 ± 0.15 against ``hw_counter`` (README "`expert` 1.9").
Three decks 3 since 2.0, with the auction's bonus of 15 card points
(:data:`.expert_bid.PLAY_BONUS`): alone it made +0.06 ± 0.18, the dealer's gain given back by
the defence; with the bonus, which gives the expert more of the hands to deal, +0.33 ± 0.23
over 1.9 (400 deals, README "`expert` 2.0")."""

DEALER_CAP_S = 0.6
"""With ``dealer_time``: the most a dealer's play decision searches (seconds) when
``dealer_time`` × ``think_ms`` is more, so that with the wall-time allowance of
:meth:`ExpertAI._cpu_loop` a decision stays within a second."""

DEALER_BANK: float | None = None
"""Option ``dealer_bank=D`` (experimental; None, the default, is off): with ``dealer_time``,
the dealer's timed play decisions keep a bank of the time its earlier decisions of the hand
left unused (a forced play uses none; a search stops once pruning has left only ``basic``'s
choice, :meth:`ExpertAI._play_rows`), and a searched decision takes its share
(:meth:`ExpertAI._role_think`) plus the bank, at most :data:`DEALER_CAP_S` (or its share if
that is more). ``D`` lets the bank be overdrawn by D times the share, so the first decisions of
a hand, whose play-outs are longest, need not wait for the savings; a decision overdrawn
searches at least a third of its share. Over a hand the dealer's decisions thus take no more
than their shares together plus D shares (each within its last sample); in real searches,
whose savings repay most of the overdraft, within a few percent of their shares (0.95 of them
with D = 2, 1.03 with D = 4, ``benchmarks/dealer_search_time.py``). D = 4 doubled the dealer's worlds
early in a hand at 100 ms and made −0.05 ± 0.19 game points a hand over 2.1 (400 deals,
docs/EXPERT_NOTES.md "Tried after 2.1"): off."""

STAGE_TIME = 0.0
"""Option ``stage_time=S`` (experimental; 0, the default, is off): a timed play decision's
search time is scaled by ``1 + S × (h / (H × STAGE_MEAN) − 1)`` (h the cards in hand, H the
ruleset's hand size; at least :data:`STAGE_MIN`, at most :data:`STAGE_MAX`), so the first
tricks, whose play-outs are longest and see the fewest sampled worlds, get more of a hand's
time and the last tricks, where hundreds of worlds fit in the time, less; over a hand the seat
still thinks about ``think_ms`` a searched decision. The finish is chosen from the unscaled
time (``finish="auto"``, ``dealer_time``); the dealer's scaled time is capped as
:data:`DEALER_CAP_S` caps it. With ``time_bank`` on, which times the decisions itself, the
option has no effect. With ``dealer_time=3`` and three decks, S = 1 made +0.10 ± 0.24
game points a hand over ``dealer_time=3`` alone (200 deals at 100 ms against ``basic``;
docs/EXPERT_NOTES.md "Tried after 1.9: thinking time that follows the hand's stage"), not
told from 0: off."""

STAGE_MEAN = 0.53
"""The mean share of the hand still held at the searched play decisions of a 红五 hand
(0.51 to 0.54 over 60 hands of ``basic`` self-play with two and three decks, dealer and
defenders alike): ``stage_time`` divides by it so that its weights average 1."""

STAGE_MIN, STAGE_MAX = 0.1, 2.5
"""Bounds of the ``stage_time`` weight."""

REASONING_TOP = 3
"""Candidates kept in ``last_reasoning`` (what X-ray shows)."""



def _action_text(action: Any) -> str:
    """A candidate as text: cards joined by spaces (``"10S 10S"``), a suit letter as is."""
    if isinstance(action, str):
        return action
    return " ".join(str(Card(c)) for c in action)


def _carried(account: tuple[Any, int, float] | None, view: Any) -> tuple[Any, int, float]:
    """A seat's time account across its play decisions of a hand (``time_bank``,
    ``dealer_bank``), ``(the hand's key, tricks complete at the last decision, seconds)``, read
    for the decision of ``view``: ``(this hand's key, tricks complete now, seconds carried)``,
    the seconds 0 when ``view`` is of a new hand (another key, or fewer tricks complete than at
    the account's last decision)."""
    key = (view.hand_no, view.dealer, view.bid, view.trump, view.ruleset.decks)
    done = len(view.tricks)
    fresh = account is None or account[0] != key or done < account[1]
    return key, done, 0.0 if fresh else account[2]


def _paired(samples: Sequence[Sequence[float | None]], k: int) -> list[float]:
    """Paired differences ``row[k] - row[0]`` over the samples where candidate ``k`` was
    played out (a pruned candidate's entries are None)."""
    return [row[k] - row[0] for row in samples if row[k] is not None]


def pick(samples: Sequence[Sequence[float | None]], confidence: float = CONFIDENCE,
         margin: float = 0.0) -> int:
    """The candidate to choose from per-sample utilities ``samples[i][k]`` (sample i,
    candidate k; candidate 0 is the default; None where a candidate was pruned): the best mean
    among those whose paired advantage over candidate 0 is at least ``confidence`` (default
    :data:`CONFIDENCE`) standard errors and at least ``margin`` (utility units, game points;
    default 0: ``benchmarks/play_decisions.py`` found any positive margin only loses,
    docs/EXPERT_NOTES.md "Decision quality"), else 0."""
    if len(samples) < 2:
        return 0
    best, best_mean = 0, 0.0
    for k in range(1, len(samples[0])):
        diffs = _paired(samples, k)
        n = len(diffs)
        if n < 2:
            continue
        mean = statistics.fmean(diffs)
        sd = statistics.stdev(diffs)
        if mean > best_mean and mean >= margin and (sd == 0 or mean / (sd / n ** 0.5) >= confidence):
            best, best_mean = k, mean
    return best


PLAY_CONFIDENCE = 0.5
"""The gate of play decisions (:func:`pick`): lower than the bury's :data:`CONFIDENCE`, since a
play decision's samples are many more and its calibrated utility (:data:`CALIBRATE`) less
noisy (README "Arena results": 140 deals, +0.21 ± 0.26 a hand over the gate of 1.0 with the
plain utility)."""

def estimate_rows(detail: Sequence[Sequence[tuple[float, float]]], k: int) -> list[dict]:
    """The per-candidate estimates of :meth:`ExpertAI.estimates` from ``detail`` (per sample,
    per candidate ``(game points for the seat, card points)``): ``[{"gp", "points", "n"}]``
    for the ``k`` candidates, means over the samples."""
    n = len(detail)
    return [{"gp": statistics.fmean(d[j][0] for d in detail),
             "points": statistics.fmean(d[j][1] for d in detail), "n": n} for j in range(k)]


PRUNE_AFTER = 8
"""Samples after which the play search first drops clearly worse candidates."""

PRUNE_Z = 1.0
"""A candidate is dropped when its paired advantage over the default is below minus this many
standard errors (or it has matched the default in every sample so far)."""

PRUNE_KEEP = 3
"""Alternatives to the default kept at most once pruning has started."""


def prune_candidates(samples: Sequence[Sequence[float | None]], active: list[bool]) -> None:
    """Mark candidates (index ≥ 1; the default 0 always stays) inactive in ``active`` when the
    samples so far show them clearly behind candidate 0 (:data:`PRUNE_Z`), equal to it in
    every sample, or not among the :data:`PRUNE_KEEP` best means of the rest."""
    means = {}
    for k in range(1, len(active)):
        if not active[k]:
            continue
        diffs = _paired(samples, k)
        if len(diffs) < 2:
            continue
        mean = statistics.fmean(diffs)
        sd = statistics.stdev(diffs)
        if sd == 0 and mean <= 0 or mean + PRUNE_Z * sd / len(diffs) ** 0.5 < 0:
            active[k] = False
        else:
            means[k] = mean
    for k in sorted(means, key=lambda k: -means[k])[PRUNE_KEEP:]:
        active[k] = False


class ExpertAI:
    """Monte-Carlo search over sampled hidden hands; see the module docstring.

    ``settings.options["think_ms"]`` (int ms) sets the time per decision; ``settings.seed``
    seeds the sampling, so a decision is reproducible when the number of samples is (that
    number depends on the machine's speed: set ``options["samples"]`` to fix it, as tests do).
    """

    rulesets = ("hongwu", "zhaopengyou")
    """Plays both rulesets: 找朋友's decisions go to :class:`.expert_zpy.ZpyExpert`."""

    play_confidence = PLAY_CONFIDENCE
    """The gate of play decisions (standard errors; see :func:`pick`; option ``confidence``)."""

    play_candidates = MAX_CANDIDATES
    """Plays compared per play decision."""

    bury_confidence: float | None = None
    """The gate of the bury (standard errors; see :func:`pick`; option ``bury_confidence``);
    None: :data:`BURY_CONFIDENCE` for the hand's deck count (:meth:`bury_gate`)."""

    def __init__(self, settings: AISettings | None = None) -> None:
        settings = settings or AISettings()
        self._settings = settings
        self._zpy: Any = None
        self.seat = settings.seat
        self.rng = random.Random(settings.seed)
        options = dict(settings.options or {})
        think_ms = int(options.get("think_ms") or DEFAULT_THINK_MS)
        self.think_s = max(0.001, min(think_ms / 1000.0, 0.8 * settings.budget_s))
        self.wall_cap_s = max(self.think_s, 0.8 * settings.budget_s)
        samples = options.get("samples")
        self.samples: int | None = int(samples) if samples else None
        self.play_confidence = float(options.get("confidence", self.play_confidence))
        self.play_candidates = max(1, int(options.get("candidates", self.play_candidates)))
        gate = options.get("bury_confidence")
        self.bury_confidence = None if gate is None else float(gate)
        self.sigma = float(options.get("sigma", SIGMA))
        self.calibrate = float(options.get("calibrate", CALIBRATE))
        self.structure = bool(float(options.get("structure", STRUCTURE)))
        self.infer = str(options.get("infer", INFER))
        if self.infer not in INFER_CHOICES:
            raise ValueError(f"expert option infer must be one of {', '.join(INFER_CHOICES)}, not {self.infer!r}")
        self.tractors = bool(float(options.get("tractors", TRACTORS)))
        """Whether the lean play-outs lead and answer tractors (option ``tractors``, default
        :data:`.fastsim.TRACTORS`; experimental): then a trick led by a tractor goes to the lean
        play-out too, only a throw is finished by the engine."""
        self.public = bool(float(options.get("public", PUBLIC)))
        """Whether the lean play-outs use the public-information policy (option ``public``,
        default :data:`PUBLIC`; :func:`.fastsim.public_lean`)."""
        finish = str(options.get("finish", FINISH))
        if finish not in ("lean", "basic", "hybrid", "auto"):
            raise ValueError(f"expert option finish must be lean, basic, hybrid or auto, not {finish!r}")
        self._finish_auto = finish == "auto"  # with time_bank, resolved again for each decision's time
        if finish == "auto":
            finish = "hybrid" if self.samples is None and self.think_s * 1000 >= FINISH_LONG_MS else "lean"
        self.finish = finish
        """How the play search finishes a candidate in a sampled world, ``"lean"`` or
        ``"basic"`` or ``"hybrid"`` (option ``finish``, default :data:`FINISH`, ``"auto"``
        resolved here)."""
        dealer_finish = options.get("dealer_finish", DEALER_FINISH)
        if dealer_finish is not None and dealer_finish not in ("lean", "basic", "hybrid"):
            raise ValueError("expert option dealer_finish must be lean, basic or hybrid, "
                             f"not {dealer_finish!r}")
        self.dealer_finish = finish if dealer_finish is None else str(dealer_finish)
        """How the play search finishes a candidate when this seat is the dealer (option
        ``dealer_finish``, default :data:`DEALER_FINISH`: as :attr:`finish`)."""
        tricks = options.get("finish_tricks")
        self._finish_tricks_set = tricks is not None
        self.finish_tricks = int(float(FINISH_TRICKS if tricks is None else tricks))
        """With ``finish="hybrid"``: tricks ``basic`` plays before the lean play-out takes over
        (option ``finish_tricks``, :data:`FINISH_TRICKS`; ValueError unless at least 1). Without
        the option the dealer's own searches play :data:`DEALER_FINISH_TRICKS` instead
        (:meth:`hybrid_tricks`)."""
        if self.finish_tricks < 1:
            raise ValueError(f"expert option finish_tricks must be at least 1, not {self.finish_tricks}")
        self.bury_finish = str(options.get("bury_finish", BURY_PLAYOUT))
        """How the bury search plays its sampled deals out (option ``bury_finish``, one of
        :data:`BURY_FINISHES`, default :data:`BURY_PLAYOUT`; ValueError otherwise)."""
        if self.bury_finish not in BURY_FINISHES:
            raise ValueError(f"expert option bury_finish must be one of {', '.join(BURY_FINISHES)}, "
                             f"not {self.bury_finish!r}")
        self.refine = int(float(options.get("refine", REFINE)))
        """Challengers re-examined with ``basic`` finishes (option ``refine``, :data:`REFINE`)."""
        refine_samples = options.get("refine_samples")
        self.refine_samples: int | None = int(refine_samples) if refine_samples else None
        """Fixed count of ``basic``-finished worlds for ``refine`` (option ``refine_samples``;
        unset: the thinking time beyond :data:`REFINE_LEAN_MS` decides)."""
        self.widen = bool(float(options.get("widen", 0)))
        """Option ``widen`` (experimental): once pruning has dropped candidates, the next plays
        of ``basic``'s ranking take their places (:meth:`_play_rows`)."""
        self.time_bank = float(options.get("time_bank", TIME_BANK))
        """Option ``time_bank`` (:data:`TIME_BANK`): a follow's share of the thinking time, 0
        for off; ValueError outside 0..1."""
        if not 0.0 <= self.time_bank <= 1.0:
            raise ValueError(f"expert option time_bank must be 0..1, not {self.time_bank}")
        self._bank: tuple[Any, int, float] | None = None
        """With ``time_bank``: (the hand's key, tricks complete at its last decision, seconds
        banked)."""
        dealer_time = options.get("dealer_time")
        self.dealer_time: float | None = None if dealer_time is None else float(dealer_time)
        """Option ``dealer_time``: the dealer's share of a trick's thinking time, in multiples
        of ``think_ms`` (None: :data:`DEALER_TIME` for the hand's deck count); ValueError
        outside 0.1..3."""
        if self.dealer_time is not None and not 0.1 <= self.dealer_time <= 3.0:
            raise ValueError(f"expert option dealer_time must be 0.1..3, not {self.dealer_time}")
        self.stage_time = float(options.get("stage_time", STAGE_TIME))
        """Option ``stage_time`` (:data:`STAGE_TIME`): how far a play decision's time follows
        the cards still in hand, 0 (off) to 1; ValueError outside 0..1."""
        if not 0.0 <= self.stage_time <= 1.0:
            raise ValueError(f"expert option stage_time must be 0..1, not {self.stage_time}")
        bank = options.get("dealer_bank", DEALER_BANK)
        self.dealer_bank: float | None = None if bank is None or str(bank) == "" else float(bank)
        """Option ``dealer_bank`` (:data:`DEALER_BANK`): the overdraft allowed, in multiples of
        the dealer's share; None for off; ValueError below 0."""
        if self.dealer_bank is not None and self.dealer_bank < 0:
            raise ValueError(f"expert option dealer_bank must be 0 or more, not {self.dealer_bank}")
        self._dealer_account: tuple[Any, int, float] | None = None
        """With ``dealer_bank``: (the hand's key, tricks complete at the dealer's last decision,
        seconds banked; negative when overdrawn)."""
        bonus = options.get("play_bonus")
        self.play_bonus: float | None = None if bonus is None else float(bonus)
        self.basic = BasicAI(AISettings(seat=settings.seat, seed=settings.seed))
        self.last_reasoning: tuple[dict, ...] | None = None
        """The candidates of the last decision with their estimates (see :meth:`reasoning`):
        what X-ray shows; recording it draws no random numbers, so decisions are unchanged."""
        self._detail: list[list[tuple[float, int]]] | None = None

    def reasoning(self) -> tuple[dict, ...] | None:
        """The optional plugin reasoning answer (PLUGINS.md "Reasoning"): the last decision's
        candidates, best estimate first, as ``{"action": str, "value": float, "note": str}``
        (``value`` the mean game points for the seat over the sampled worlds); None before
        the first searched decision."""
        return self.last_reasoning

    # -- 找朋友: its own search (ai_plugins/builtin/expert_zpy.py) --------------------------
    def zpy(self) -> Any:
        """The :class:`.expert_zpy.ZpyExpert` that takes this seat's 找朋友 decisions (made on
        first use, with the same settings; 红五 decisions never touch it)."""
        if self._zpy is None:
            from .expert_zpy import ZpyExpert

            self._zpy = ZpyExpert(self._settings)
        return self._zpy

    def choose_declaration(self, view: Any, options: Sequence) -> Any:
        """找朋友: declare or pass (:meth:`.expert_zpy.ZpyExpert.choose_declaration`)."""
        return self.zpy().choose_declaration(view, options)

    def choose_counter(self, view: Any, options: Sequence) -> Any:
        """找朋友: counter or pass (:meth:`.expert_zpy.ZpyExpert.choose_counter`)."""
        return self.zpy().choose_counter(view, options)

    def choose_friend(self, view: Any, calls: Sequence) -> Any:
        """找朋友: the friend call (:meth:`.expert_zpy.ZpyExpert.choose_friend`)."""
        return self.zpy().choose_friend(view, calls)

    # -- sampling loop ---------------------------------------------------------------------
    @staticmethod
    def _loop(step: Callable[[int], None], think_s: float, samples: int | None) -> int:
        """Call ``step(i)`` for i = 0, 1, ... until ``think_s`` seconds (wall time) are used
        up, or, when ``samples`` is not None, ``samples`` times; at least :data:`MIN_SAMPLES`
        times when timed. Returns the number of steps."""
        deadline = time.perf_counter() + think_s
        i = 0
        while True:
            if samples is not None:
                if i >= samples:
                    break
            elif i >= MIN_SAMPLES and time.perf_counter() >= deadline:
                break
            step(i)
            i += 1
        return i

    def _cpu_loop(self, step: Callable[[int], None], think_s: float, samples: int | None,
                  settled: Callable[[], bool] | None = None) -> int:
        """:meth:`_loop` for play decisions, timed in CPU time of the deciding thread
        (``time.thread_time``): ``step(i)`` runs until the thread has spent ``think_s`` seconds on it,
        or the fixed sample count is reached, at least :data:`MIN_SAMPLES` times. On a busy
        machine the search thus sees as many samples as on an idle one; the wall time is
        still capped at :data:`WALL_FACTOR` times the thinking time, at the thinking time plus
        :data:`WALL_EXTRA_S`, and at 80% of the seat's budget. ``think_s`` (seconds) and
        ``samples`` are the search's (the seat's :attr:`think_s` and :attr:`samples`, or a
        stage's share of them). ``settled`` (timed searches only): when it returns True after a
        step, more steps cannot change the decision and the loop ends. Returns the number of
        steps."""
        if samples is not None:
            return self._loop(step, think_s, samples)
        wall_end = time.perf_counter() + min(WALL_FACTOR * think_s, think_s + WALL_EXTRA_S,
                                             self.wall_cap_s)
        cpu_end = time.thread_time() + think_s
        i = 0
        while i < MIN_SAMPLES or (time.thread_time() < cpu_end and time.perf_counter() < wall_end):
            step(i)
            i += 1
            if settled is not None and i >= MIN_SAMPLES and settled():
                break
        return i

    def _outcomes(self, world: Any, actions: Sequence[Any], seat: int) -> list[float]:
        """``utility`` for ``seat`` of each action applied to a copy of ``world`` and played out."""
        row = []
        detail = []
        for action in actions:
            g = world.clone()
            g.apply(action)
            play_out(g, self.rng)
            row.append(utility(g, seat))
            detail.append((float(g.settlement.game_points[seat]), dealer_points(g)))
        if self._detail is not None:
            self._detail.append(detail)
        return row

    # -- play (RULES.md §7–§9) ---------------------------------------------------------------
    def choose_play(self, view: Any, options: Any) -> tuple[Card, ...]:
        """The candidate with the best mean utility over sampled worlds."""
        if getattr(view.ruleset, "is_zhaopengyou", False):
            return self.zpy().choose_play(view, options)
        ranked = self.basic.ranked_plays(view, options)
        cands = [p for _, p in ranked[:self.play_candidates]]
        if len(cands) <= 1 or len(view.hand) <= len(cands[0]):
            if self._banking(view):  # a forced play: the dealer's whole share is saved
                self._bank_think(view, self._role_think(view))
            return cands[0] if cands else tuple(options.sample(self.rng))
        extra = [p for _, p in ranked[self.play_candidates:]] if self.widen else []
        if self.time_bank > 0 and self.samples is None:
            rows, cands = self._timed_think(view, options.leading, cands, extra)
        elif (self._dealer_factor(view) != 1.0 or self.stage_time > 0) and self.samples is None:
            think = self._role_think(view)
            kind = self._finish_for(think)
            think = self._stage_think(view, think)
            if self._banking(view):
                think = self._bank_think(view, think)
                t0 = time.thread_time()
                rows = self._play_rows(view, cands, extra=extra, think_s=think, finish_kind=kind)
                self._bank_debit(time.thread_time() - t0)
            else:
                rows = self._play_rows(view, cands, extra=extra, think_s=think, finish_kind=kind)
        else:
            rows, cands = self._search(view, cands, extra)
        choice = pick(rows, self.play_confidence)
        self._note(cands, rows, choice)
        return cands[choice]

    def _finish_for(self, think: float) -> str | None:
        """The finish of a search given ``think`` seconds when the option ``finish`` is
        ``"auto"``: ``"hybrid"`` from :data:`FINISH_LONG_MS`, else ``"lean"``; None (the
        seat's own :attr:`finish`) otherwise."""
        if not self._finish_auto:
            return None
        return "hybrid" if think * 1000 >= FINISH_LONG_MS else "lean"

    def _dealer_factor(self, view: Any) -> float:
        """The ``dealer_time`` factor for this hand: the option, else :data:`DEALER_TIME` for
        ``view.ruleset.decks`` (1.0 for a deck count it does not list)."""
        if self.dealer_time is not None:
            return self.dealer_time
        return DEALER_TIME.get(view.ruleset.decks, 1.0)

    def _role_think(self, view: Any) -> float:
        """Seconds this play decision searches with the option ``dealer_time``
        (:data:`DEALER_TIME`): ``dealer_time`` × ``think_ms`` for the dealer (above
        ``think_ms`` at most :data:`DEALER_CAP_S`); a defender gives up an (n − 1)th of what
        the dealer gains (n = ``view.ruleset.players``), at least a tenth of ``think_ms``."""
        n = view.ruleset.players
        factor = self._dealer_factor(view)
        if factor < 1.0:
            dealer = factor * self.think_s
        else:
            dealer = max(self.think_s, min(factor * self.think_s, DEALER_CAP_S))
        if view.seat == view.dealer:
            return dealer
        return max(0.1 * self.think_s, self.think_s - (dealer - self.think_s) / (n - 1))

    def _banking(self, view: Any) -> bool:
        """True when this play decision is the dealer's and the option ``dealer_bank`` is on
        (timed searches with ``dealer_time``, :data:`DEALER_BANK`)."""
        return (self.dealer_bank is not None and self.samples is None and self.time_bank <= 0
                and view.seat == view.dealer and self._dealer_factor(view) != 1.0)

    def _bank_think(self, view: Any, share: float) -> float:
        """Seconds the dealer's decision may search with ``dealer_bank``: ``share`` (its
        :meth:`_role_think`) plus the hand's bank, at most :data:`DEALER_CAP_S` (or ``share``
        if more), at least a third of ``share``; credits ``share`` to the bank, which
        :meth:`_bank_debit` then charges with the time used. A new hand (its key, or fewer
        tricks complete than at the last decision) starts from an empty bank."""
        key, done, bank = _carried(self._dealer_account, view)
        self._dealer_account = (key, done, bank + share)
        think = share + bank + self.dealer_bank * share
        return min(max(share, DEALER_CAP_S), max(share / 3.0, think))

    def _bank_debit(self, used: float) -> None:
        """Charge ``used`` seconds (CPU time of the decision's search) to the dealer's bank."""
        key, done, bank = self._dealer_account
        self._dealer_account = (key, done, bank - used)

    def _stage_think(self, view: Any, think: float) -> float:
        """``think`` (seconds) scaled by the option ``stage_time`` (:data:`STAGE_TIME`) for
        the cards ``view.hand`` still holds: more early in the hand, less late; at most
        :data:`DEALER_CAP_S` (or ``think`` if that is more). ``think`` unchanged when the
        option is off."""
        if self.stage_time <= 0:
            return think
        share = len(view.hand) / view.ruleset.hand_size
        weight = 1.0 + self.stage_time * (share / STAGE_MEAN - 1.0)
        weight = min(STAGE_MAX, max(STAGE_MIN, weight))
        return min(think * weight, max(think, DEALER_CAP_S))

    def _timed_think(self, view: Any, leading: bool, cands: list[tuple[Card, ...]],
                     extra: Sequence[tuple[Card, ...]]) -> tuple[list[list[float | None]], list[tuple[Card, ...]]]:
        """The lean search of :meth:`_play_rows` with the option ``time_bank``
        (:data:`TIME_BANK`): a follow thinks ``time_bank`` × ``think_ms``, a lead ``think_ms``
        plus what this hand's follows left (the bank may be overdrawn by
        (:data:`LEAD_CAP` − 1) × ``think_ms``, so the first lead need not wait), at most
        :data:`LEAD_CAP` × ``think_ms``; the CPU time used is debited from the bank, each
        decision credits ``think_ms``. Returns ``(rows, cands)`` as :meth:`_search`."""
        key, done, carried = _carried(self._bank, view)
        banked = carried + self.think_s  # this decision's credit added
        if leading:  # the bank may go down to -(LEAD_CAP - 1) x think_ms, never further
            think = min(LEAD_CAP * self.think_s,
                        max(self.think_s, banked + (LEAD_CAP - 1.0) * self.think_s))
        else:
            think = max(0.001, self.time_bank * self.think_s)
        kind = self._finish_for(think)
        t0 = time.thread_time()
        rows = self._play_rows(view, cands, extra=extra, think_s=think, finish_kind=kind)
        self._bank = (key, done, banked - (time.thread_time() - t0))
        return rows, cands

    def _search(self, view: Any, cands: list[tuple[Card, ...]], extra: Sequence[tuple[Card, ...]] = ()
                ) -> tuple[list[list[float | None]], list[tuple[Card, ...]]]:
        """The play search of one decision: ``(rows, cands)``, per-sample utilities of the
        candidates it compared last (``basic``'s first choice first) for :func:`pick`. The lean
        search (:meth:`_play_rows`), then, with the option ``refine`` and thinking time beyond
        :data:`REFINE_LEAN_MS` (or ``refine_samples`` set), :meth:`_refine`."""
        refining = self.refine > 0 and bool(self.refine_samples or self.think_s * 1000 > REFINE_LEAN_MS)
        if not refining:
            return self._play_rows(view, cands, extra=extra), cands
        rows = self._play_rows(view, cands, extra=extra,
                               think_s=min(self.think_s, REFINE_LEAN_MS / 1000.0))
        return self._refine(view, cands, rows)

    def _refine(self, view: Any, cands: list[tuple[Card, ...]], rows: Sequence[Sequence[float | None]]
                ) -> tuple[list[list[float | None]], list[tuple[Card, ...]]]:
        """The option ``refine``: ``basic``'s first choice and the :attr:`refine` challengers
        with the best lean means (``rows``, per sample per candidate) played out in fresh
        sampled worlds, each finished by ``basic`` on every seat; returns ``(rows, cands)`` of
        those finishes (the first choice first). The count of worlds is ``refine_samples``
        when set, else what the thinking time left allows (CPU time, at least
        :data:`MIN_SAMPLES`); with fewer than :data:`REFINE_MIN_SAMPLES` of them, ``(rows,
        cands)`` as given."""
        means = {k: statistics.fmean(v) for k in range(1, len(cands))
                 if (v := [r[k] for r in rows if r[k] is not None])}
        top = sorted(means, key=lambda k: -means[k])[:self.refine]
        sub = [cands[0]] + [cands[k] for k in top]
        out: list[list[float | None]] = []
        me = view.seat
        bias = self._world_bias(view)

        def step(_: int) -> None:
            world = sample_world(view, self.rng, prior=True, structure=self.structure,
                                 bias=bias)
            out.append(self._basic_outcomes(world, sub, me))

        self._cpu_loop(step, max(0.001, self.think_s - REFINE_LEAN_MS / 1000.0), self.refine_samples)
        if len(out) < REFINE_MIN_SAMPLES:
            return [list(r) for r in rows], cands
        return out, sub

    def _play_rows(self, view: Any, cands: list[tuple[Card, ...]], prune: bool = True,
                   extra: Sequence[tuple[Card, ...]] = (), think_s: float | None = None,
                   finish_kind: str | None = None) -> list[list[float | None]]:
        """Per-sample utilities of each play of ``cands`` (sampled worlds of ``view``).

        With ``prune``, a candidate that is clearly behind ``cands[0]`` after
        :data:`PRUNE_AFTER` samples (and again each time the count doubles; see
        :func:`prune_candidates`) is no longer played out: its later entries are None, and the
        samples go to the candidates still in the running. Plays of ``extra`` (the option
        ``widen``: the next plays of ``basic``'s ranking) are then appended to ``cands`` (which
        grows) until as many candidates are active as at the start; their entries in the
        earlier samples are None. ``think_s`` (seconds) overrides the seat's thinking time,
        ``finish_kind`` (see :meth:`_play_outcomes`) the way the candidates are finished. A
        timed search ends early once pruning has left only ``cands[0]``: :func:`pick` compares
        a challenger only on the samples that played it, so further samples of the default
        alone cannot change the choice."""
        rows: list[list[float | None]] = []
        me = view.seat
        active = [True] * len(cands)
        breadth = len(cands)
        waiting = list(extra)
        checkpoint = [PRUNE_AFTER]
        bias = self._world_bias(view)

        def step(_: int) -> None:
            world = sample_world(view, self.rng, prior=True, structure=self.structure,
                                 bias=bias)
            rows.append(self._play_outcomes(world, cands, me, active, finish_kind))
            if prune and len(rows) >= checkpoint[0]:
                checkpoint[0] *= 2
                prune_candidates(rows, active)
                while waiting and sum(active) < breadth:
                    cands.append(waiting.pop(0))
                    active.append(True)
                    for row in rows:
                        row.append(None)

        self._cpu_loop(step, self.think_s if think_s is None else think_s, self.samples,
                       settled=lambda: sum(active) == 1 and not waiting)
        return rows

    def _world_bias(self, view: Any) -> Any:
        """The ``bias`` of :func:`.simulate.sample_world` for this decision: the learned prior
        of :func:`.inference.prior_bias` when the option ``infer`` covers the seat
        (:data:`INFER`), else None (the fixed defenders' prior)."""
        if self.infer == "0" or view.dealer is None:
            return None
        if self.infer == "defenders" and view.seat == view.dealer:
            return None
        return prior_bias(view)

    def _play_outcomes(self, world: Any, cands: Sequence[tuple[Card, ...]], me: int,
                       active: Sequence[bool] | None = None, finish_kind: str | None = None
                       ) -> list[float | None]:
        """Utility for ``me`` of each play of ``cands`` in a copy of ``world`` (None for a
        candidate not ``active``): the trick in progress is finished by the engine with
        :func:`.simulate.rollout_action` when it is a tractor (unless the option ``tractors``
        is on) or a throw, the rest of the hand by the lean play-out
        (:func:`.fastsim.fast_settle`); with ``finish`` ``"basic"``, :meth:`_basic_outcomes`,
        with ``"hybrid"``, :meth:`_hybrid_outcomes` (for the dealer's own searches
        :attr:`dealer_finish` decides instead); ``finish_kind``, when given (the option
        ``time_bank``: chosen for the decision's time), decides for every seat."""
        finish_kind = finish_kind or (self.dealer_finish if me == world.dealer else self.finish)
        if finish_kind == "basic":
            return self._basic_outcomes(world, cands, me, active)
        if finish_kind == "hybrid":
            return self._hybrid_outcomes(world, cands, me, active)
        base = None
        sx = world.ctx.SUITX
        ctx = world.ctx
        tractors = self.tractors
        rs = world.ruleset
        cal = self._calibration(world)

        def finish(play: tuple[Card, ...]) -> tuple[Any, float]:
            nonlocal base
            lead = world.current[0][1] if world.current else play
            if lean_lead(lead, ctx, tractors):  # the lean play-out takes it from here
                if base is None:
                    base = lean_from_game(world)
                    if self.public:
                        public_lean(base, game_voids(world))
                lean = copy_lean(base)
                mine = lean.suits[me]
                for c in play:
                    mine[sx[c]].remove(c)
                st = lean_settle(world, lean, list(world.current) + [(me, play)], tractors)
            else:
                g = world.clone()
                g.apply(Play(me, play))
                while g.current:  # a tractor or a throw: the engine finishes the trick
                    g.apply(rollout_action(g, self.rng))
                st = fast_settle(g, tractors, self.public)
            return st, self._utility(st, me, rs, cal)

        return self._outcome_row(cands, me, active, finish)

    def _basic_outcomes(self, world: Any, cands: Sequence[tuple[Card, ...]], me: int,
                        active: Sequence[bool] | None = None) -> list[float | None]:
        """:meth:`_play_outcomes` with every candidate finished by ``basic`` on every seat
        (option ``finish=basic``; the same play-out seed for each candidate of a world)."""
        seed = self.rng.getrandbits(32)

        def finish(play: tuple[Card, ...]) -> tuple[Any, float]:
            g = world.clone()
            g.apply(Play(me, play))
            expert_bid.basic_play_out(g, seed)
            return g.settlement, settled_utility(g.settlement, me)

        return self._outcome_row(cands, me, active, finish)

    def _hybrid_outcomes(self, world: Any, cands: Sequence[tuple[Card, ...]], me: int,
                         active: Sequence[bool] | None = None) -> list[float | None]:
        """:meth:`_play_outcomes` with ``finish="hybrid"``: ``basic`` on every seat plays the
        next :meth:`hybrid_tricks` tricks (the one in progress first), then the lean play-out
        (:func:`.fastsim.fast_settle`) settles the hand from that trick boundary, its utility
        calibrated for the cards then left (:meth:`_utility`)."""
        seed = self.rng.getrandbits(32)
        rs = world.ruleset
        tractors = self.tractors
        tricks = self.hybrid_tricks(world, me)

        def finish(play: tuple[Card, ...]) -> tuple[Any, float]:
            g = world.clone()
            g.apply(Play(me, play))
            expert_bid.basic_play_out(g, seed, tricks=tricks)
            if g.settlement is not None:
                return g.settlement, settled_utility(g.settlement, me)
            cal = self._calibration(g)
            st = fast_settle(g, tractors, self.public)
            return st, self._utility(st, me, rs, cal)

        return self._outcome_row(cands, me, active, finish)

    def hybrid_tricks(self, world: Any, me: int) -> int:
        """The ``basic`` tricks of a hybrid finish of seat ``me``'s search in ``world``: the
        option ``finish_tricks`` when given, else for the dealer :data:`DEALER_FINISH_TRICKS`
        of the deck count, else :data:`FINISH_TRICKS` (:attr:`finish_tricks`)."""
        if self._finish_tricks_set or me != world.dealer:
            return self.finish_tricks
        return DEALER_FINISH_TRICKS.get(world.ruleset.decks, self.finish_tricks)

    def bury_gate(self, view: Any) -> float:
        """The bury's gate for ``view``'s hand (standard errors, :func:`pick`): the option
        ``bury_confidence`` when given, else :data:`BURY_CONFIDENCE` for the deck count."""
        if self.bury_confidence is not None:
            return self.bury_confidence
        return BURY_CONFIDENCE.get(view.ruleset.decks, CONFIDENCE)

    def _outcome_row(self, cands: Sequence[tuple[Card, ...]], me: int, active: Sequence[bool] | None,
                     finish: Callable[[tuple[Card, ...]], tuple[Any, float]]) -> list[float | None]:
        """One sampled world's row: ``finish(play)`` -> ``(settlement, utility for me)`` for
        each play of ``cands`` that is ``active`` (all when None), None for the others. With
        :attr:`_detail` set (the review's estimates), each candidate's ``(game points for me,
        dealer's final card points + bid)`` is kept too (NaN for an inactive one)."""
        row: list[float | None] = []
        detail = []
        for k, play in enumerate(cands):
            if active is not None and not active[k]:
                row.append(None)
                detail.append((float("nan"), float("nan")))
                continue
            st, value = finish(play)
            row.append(value)
            detail.append((float(st.game_points[me]), st.dealer_final + st.bid))
        if self._detail is not None:
            self._detail.append(detail)
        return row

    def _calibration(self, game: Any) -> Any:
        """The ``cal`` argument of :meth:`_utility` for a lean play-out started from ``game``
        (play phase): ``(dealer's card points already won, (a, b, sd))``, the fitted line for
        the share of cards still in hand (:func:`.fastsim.calibration_for`); None when the
        option ``calibrate`` is 0."""
        if self.calibrate <= 0:
            return None
        rs = game.ruleset
        share = sum(len(h) for h in game.hands) / (rs.hand_size * rs.players)
        return game.points_won[game.dealer], calibration_for(rs.decks, share, self.tractors)

    def _utility(self, st: Any, seat: int, ruleset: Any, cal: Any = None) -> float:
        """How good settlement ``st`` is for ``seat`` (game points): with ``cal`` (``(dealer
        points already won, (a, b, sd))``, see :data:`CALIBRATE`) the calibrated utility of
        :func:`.fastsim.calibrated_utility`; else the smoothed bands of
        :func:`.fastsim.smooth_utility` when ``sigma`` (option) is above 0, else
        :func:`.fastsim.settled_utility` (RULES.md §10)."""
        if cal is not None:
            return calibrated_utility(st, seat, ruleset, cal[0], cal[1], self.calibrate)
        if self.sigma > 0:
            return smooth_utility(st, seat, ruleset, self.sigma)
        return settled_utility(st, seat)

    def _note(self, cands: Sequence[Any], rows: Sequence[Sequence[float]], choice: int) -> None:
        """Keep ``last_reasoning``: up to :data:`REASONING_TOP` candidates, best mean first."""
        if not rows:
            return
        means = [statistics.fmean([r[k] for r in rows if r[k] is not None] or [float("-inf")])
                 for k in range(len(cands))]
        order = sorted(range(len(cands)), key=lambda k: (k != choice, -means[k]))
        self.last_reasoning = tuple(
            {"action": _action_text(cands[k]), "value": round(means[k], 2),
             "note": f"{sum(1 for r in rows if r[k] is not None)} samples"
                     + (", chosen" if k == choice else "")}
            for k in order[:REASONING_TOP] if means[k] > float("-inf"))

    # -- estimates (the review 复盘, ai_plugins.review) ----------------------------------------
    def estimates(self, view: Any, kind: str, cands: Sequence[Any]) -> list[dict]:
        """The search's estimate of each candidate of one decision, on the same sampled worlds.

        ``kind``: ``"play"`` (``cands`` card tuples; ``view`` in the play phase), ``"bury"``
        (card tuples; the dealer's bury view), ``"trump"`` (suit letters; the trump view) or
        ``"bid"`` (amounts, 0 = pass; the auction view: an amount is valued as the seat's
        expected game points as dealer with its best suit by the learned model of
        :mod:`.expert_bid`, as :meth:`choose_bid` does, ``n`` 1; a pass is valued at what the
        bid rule asks a bid to beat, with ``points`` None).
        The sample count is ``options["samples"]`` when set (fix it for reproducible numbers).
        Returns one dict a candidate, in the order given: ``{"gp": mean game points for the
        seat, "points": mean card points the dealer takes (kitty included when it counts),
        "n": samples}``. Raises ValueError for an unknown ``kind``. Draws from this AI's
        random generator (use a fresh ``ExpertAI`` per estimate for reproducibility).
        A 找朋友 view goes to :meth:`.expert_zpy.ZpyExpert.estimates` (kinds ``"play"``,
        ``"bury"``, ``"call"``; ``"gp"`` there is its utility in levels)."""
        rs = view.ruleset
        if getattr(rs, "is_zhaopengyou", False):
            return self.zpy().estimates(view, kind, cands)
        if kind == "trump":
            out = self._dealer_outcomes(view, list(cands))
            return [{"gp": self._calibrated_gp(rs, out[s], view.bid),
                     "points": statistics.fmean(out[s]), "n": len(out[s])} for s in cands]
        if kind == "bid":  # each amount as dealer with the best suit (the learned model)
            _, values, mean, _ = expert_bid.bid_values(view, [x for x in cands if x])
            need = expert_bid.pass_value(view) + expert_bid.BID_CUSHION
            return [{"gp": values[x] if x else need, "points": mean if x else None, "n": 1}
                    for x in cands]
        self._detail = []
        try:
            if kind == "play":
                self._play_rows(view, cands, prune=False)
            elif kind == "bury":
                self._bury_rows(view, cands)
            else:
                raise ValueError(f"unknown decision kind {kind!r}")
            detail = self._detail
        finally:
            self._detail = None
        return estimate_rows(detail, len(cands))

    # -- bidding (RULES.md §2) ---------------------------------------------------------------
    def _dealer_outcomes(self, view: Any, suits: Sequence[str]) -> dict[str, list[int]]:
        """Card points the seat takes as dealer with each of ``suits`` in sampled deals."""
        rs = view.ruleset
        me = view.seat
        hand = list(view.hand)
        out: dict[str, list[int]] = {s: [] for s in suits}

        def step(_: int) -> None:
            hands, kitty = sample_deal_as_dealer(hand, rs, self.rng, me)
            base = game_for_dealer(hands, kitty, rs, me, rs.bid_min)
            for suit in suits:
                g = base.clone()
                g.apply(ChooseTrump(me, suit))
                v = g.view(me)
                g.apply(Bury(me, tuple(self.basic.choose_bury(v, v.bury_count))))
                play_out(g, self.rng)
                out[suit].append(dealer_points(g))

        self._loop(step, self.think_s, self.samples)
        return out

    def _promising_suits(self, hand: Sequence[int], k: int = 2) -> list[str]:
        return sorted("SHCD", key=lambda s: -hand_strength(hand, s))[:k]

    def choose_bid(self, view: Any, bids: Sequence[int]) -> int:
        """The cheapest legal bid whose expected game points as dealer (the learned hand
        evaluation of :mod:`.expert_bid`, reading the rivals' bids) beat passing, else
        ``PASS``."""
        if not bids:
            return PASS
        choice, rows = expert_bid.choose_bid(view, bids, bonus=self.play_bonus)
        self.last_reasoning = tuple(rows)
        return choice or PASS

    def _calibrated_gp(self, rs: Any, points: Sequence[int], bid: int) -> float:
        """Mean dealer game points of play-out card ``points`` at ``bid`` (calibrated)."""
        a, b = ROLLOUT_CALIBRATION.get(rs.decks, (0.0, 1.0))
        return statistics.fmean(dealer_game_points(rs, round(a + b * p) - bid) for p in points)

    # -- trump (RULES.md §3) -----------------------------------------------------------------
    def choose_trump(self, view: Any, suits: Sequence[str]) -> str:
        """The suit with the best predicted card points for the dealer
        (:func:`.expert_bid.choose_trump`)."""
        suit, rows = expert_bid.choose_trump(view, suits)
        self.last_reasoning = tuple(rows)
        return suit

    # -- bury (RULES.md §4) ------------------------------------------------------------------
    def _bury_candidates(self, view: Any, count: int) -> list[tuple[Card, ...]]:
        """The candidate buries, at most :data:`BURY_CANDIDATES`, the default of the search's
        gate (:func:`pick`) first: ``basic``'s bury and those of
        :func:`.expert_bid.bury_candidates` (short side suits emptied, trumps and pairs kept,
        point cards kept or buried), with the first of :func:`.expert_bid.default_bury`'s
        family (the cheapest cards, point cards first) moved to the front (RULES.md §4,
        §10)."""
        out = [tuple(sorted(self.basic.choose_bury(view, count)))]
        for cand in expert_bid.bury_candidates(view, count, keep_value):
            if cand not in out:
                out.append(cand)
        out = out[:BURY_CANDIDATES]
        first = expert_bid.default_bury(view, count, keep_value)
        if first in out:
            out.remove(first)
            out.insert(0, first)
        return out

    def choose_bury(self, view: Any, count: int) -> list[Card]:
        """The candidate bury with the best mean result in sampled play-outs."""
        if getattr(view.ruleset, "is_zhaopengyou", False):
            return self.zpy().choose_bury(view, count)
        cands = self._bury_candidates(view, count)
        if len(cands) == 1:
            return list(cands[0])
        rows = self._bury_rows(view, cands)
        choice = pick(rows, self.bury_gate(view))
        self._note(cands, rows, choice)
        return list(cands[choice])

    def _bury_rows(self, view: Any, cands: Sequence[tuple[Card, ...]]) -> list[list[float]]:
        """Per-sample utilities of each bury of ``cands`` (sampled deals as the dealer)."""
        rs = view.ruleset
        me = view.seat
        rows: list[list[float]] = []
        # the hand before the kitty was taken is the hand minus the kitty
        dealt = list((Counter(view.hand) - Counter(view.kitty or ())).elements())

        deadline = time.perf_counter() + min(self.think_s * BURY_THINK_SCALE,
                                             BURY_BUDGET_SHARE * self._settings.budget_s)

        def late() -> bool:
            return self.samples is None and time.perf_counter() >= deadline

        bury_cal = (0, calibration_for(rs.decks, 1.0, self.tractors)) if self.calibrate > 0 else None
        i = 0
        while (i < self.samples) if self.samples is not None else not late():
            i += 1
            hands, kitty = sample_deal_as_dealer(dealt, rs, self.rng, me, view.kitty)
            base = game_for_dealer(hands, kitty, rs, me, view.bid)
            base.apply(ChooseTrump(me, view.trump))
            seed = self.rng.getrandbits(32)  # the same play-out seed for every candidate
            row, detail = [], []
            for cand in cands:
                if late():  # out of time: the unfinished sample is dropped
                    return rows
                g = base.clone()
                g.apply(Bury(me, cand))
                st, value = self._bury_finish(g, seed, bury_cal)
                row.append(value)
                detail.append((float(st.game_points[me]), st.dealer_final + st.bid))
            if self._detail is not None:
                self._detail.append(detail)
            rows.append(row)
        return rows

    def _bury_finish(self, game: Any, seed: int, bury_cal: Any) -> tuple[Any, float]:
        """Play ``game`` (a sampled deal just after the dealer's bury) out as the option
        ``bury_finish`` says (:data:`BURY_PLAYOUT`; ``"auto"`` by the deck count,
        :data:`BURY_AUTO`): ``(settlement, utility for the dealer)``.
        ``seed`` seeds the play-out (the same for every candidate of a deal); ``bury_cal`` is
        the calibration of the ``fast`` play-outs (None with ``calibrate=0``)."""
        me = game.dealer
        rs = game.ruleset
        mode = self.bury_finish
        if mode == "auto":
            mode = BURY_AUTO.get(rs.decks, "fast")
        if mode == "fast":
            play_out(game, random.Random(seed))
            return game.settlement, self._utility(game.settlement, me, rs, bury_cal)
        if mode == "lean":
            st = fast_settle(game, self.tractors, self.public)
            return st, self._utility(st, me, rs, self._calibration(game))
        expert_bid.basic_play_out(game, seed, tricks=self.finish_tricks if mode == "hybrid" else None)
        if game.settlement is not None:
            return game.settlement, settled_utility(game.settlement, me)
        st = fast_settle(game, self.tractors, self.public)
        return st, self._utility(st, me, rs, self._calibration(game))


@hookimpl
def register_ais(register) -> None:
    """Register ``expert``."""
    register("expert", ExpertAI, VERSION)
