"""The review 复盘 of a recorded hand: the ``expert`` search's opinion of each decision of a seat.

For a replay (docs/REPLAY.md: header + actions) and one seat, every decision that seat made
is rebuilt from that seat's view at that point — only what the seat could see then; the
hidden cards are sampled like the ``expert`` AI does — and the chosen action is compared with
the search's other candidates on the *same* sampled worlds. The decision's **loss** is the
best candidate's mean value minus the chosen action's (so never negative: the chosen action
is one of the candidates); a loss of at least the ruleset's costly threshold is **costly**
(flagged). Forced plays (one legal play, or the last cards) are listed, not searched.

What is reviewed, and in which unit, follows the replay's ruleset (:func:`rules_for`):

- **红五** (RULES.md §2–§9): bid, trump, bury and each play, valued in the seat's mean
  **game points** (:meth:`ai_plugins.builtin.expert.ExpertAI.estimates`); card points are
  those the dealer takes; costly from :data:`COSTLY_GP` game points.
- **找朋友** (RULES.md "找朋友" §4–§7, :mod:`ai_plugins.review_zpy`): the friend call, the
  bury and each play, valued in **levels** — the utility the 找朋友 search maximises
  (:meth:`ai_plugins.builtin.expert_zpy.ZpyExpert.estimates`: the levels the seat's final
  side gains, negative when the other side gains, plus one level per ``step`` of catchers'
  points past the threshold); card points are the catchers'; costly from
  :data:`ai_plugins.review_zpy.COSTLY_LEVELS` levels. Declarations and counters (亮主, 反牌)
  are not reviewed: the expert takes them by ``basic``'s heuristics, without a search.

Reproducible: every decision uses a fresh search seeded from ``seed`` and the decision's index
at a fixed sample count, so the same replay, seat, samples and seed give the same numbers.
Pure of ``game/`` (the career store caches results; ``hongwu review`` prints them).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Callable

from engine import replay as R
from engine.cards import Card
from engine.state import Bid, Bury, ChooseTrump, Play

from .base import AISettings
from .builtin.expert import MAX_CANDIDATES, ExpertAI

REVIEW_VERSION = 5
"""Bumped when the method changes (part of the cache key): 5 since expert 2.1, whose bid
estimates add the auction's bonus with two decks as 2.0's did with three
(``expert_bid.PLAY_BONUS``); 4 since expert 1.7, whose three-deck bury estimates play the lean
play-out (``expert.BURY_AUTO``)."""

DEFAULT_SAMPLES = 16
"""Sampled worlds per decision by default (``hongwu review --samples``)."""

COSTLY_GP = 1.0
"""Loss in mean game points from which a decision is flagged costly (one game point is one
band step for a defender at base score 1; RULES.md §10)."""

SUITS = ("S", "H", "C", "D")


@dataclass(frozen=True)
class ReviewRules:
    """How the hands of one ruleset are reviewed: ``game`` (the ruleset's name, ``"hongwu"`` or
    ``"zhaopengyou"``); ``unit`` (what a decision's value and loss are measured in, e.g.
    ``"game points"``); ``points`` (whose card points the estimates give: ``"dealer"`` or
    ``"catchers"``); ``costly`` (the loss from which a decision is flagged, in ``unit``);
    ``reviewed(action)`` (whether an action of the seat is one of its reviewed decisions);
    ``searcher(seat, seed, samples)`` (a fresh search with ``estimates(view, kind, cands)``);
    ``candidates(ai, view, action)`` (``(kind, candidates with the chosen first, the chosen in
    candidate form)``; one candidate: forced, not searched)."""

    game: str
    unit: str
    points: str
    costly: float
    start: Callable[[Any], Any]
    reviewed: Callable[[Any], bool]
    searcher: Callable[[int, int, int], Any]
    candidates: Callable[[Any, Any, Any], tuple[str, list[Any], Any]]


def rules_for(game: Any) -> ReviewRules:
    """The :class:`ReviewRules` of ``game``: a ruleset object (its ``is_zhaopengyou``), or a
    ruleset name (``"hongwu"``, ``"zhaopengyou"``). Raises ValueError for an unknown name."""
    name = game if isinstance(game, str) else ("zhaopengyou" if getattr(game, "is_zhaopengyou", False) else "hongwu")
    if name == "hongwu":
        return HONGWU
    if name == "zhaopengyou":
        from .review_zpy import RULES

        return RULES
    raise ValueError(f"no review for the ruleset {name!r} (hongwu or zhaopengyou)")


@dataclass(frozen=True)
class Decision:
    """One reviewed decision. ``line``: the replay line of the action (2 = first action);
    ``kind``: ``"bid"``, ``"trump"``, ``"bury"``, ``"play"`` or (找朋友) ``"call"``;
    ``trick``: 1-based trick of a play (0 before play); ``chosen``/``best``: the actions as
    text (cards joined by spaces, a suit letter, a bid amount, ``"pass"``, or a friend call
    ``"AS/2"``: the 2nd ace of spades); ``chosen_cards``/``best_cards``: card texts of plays
    and buries (empty otherwise); ``chosen_gp``/``best_gp``: the seat's mean value in the
    ruleset's unit (:attr:`Review.unit`: game points for 红五, levels for 找朋友);
    ``chosen_points``/``best_points``: mean card points of the dealer (红五) or the catchers
    (找朋友) (None for a pass); ``loss``: ``best_gp - chosen_gp`` (≥ 0); ``costly``: ``loss``
    reaches the ruleset's threshold (:attr:`Review.costly_at`);
    ``forced``: one possible action (not searched); ``candidates``: how many were compared;
    ``samples``: sampled worlds per candidate."""

    line: int
    kind: str
    trick: int
    chosen: str
    best: str
    chosen_cards: tuple[str, ...]
    best_cards: tuple[str, ...]
    chosen_gp: float
    best_gp: float
    chosen_points: float | None
    best_points: float | None
    loss: float
    costly: bool
    forced: bool
    candidates: int
    samples: int


@dataclass(frozen=True)
class Review:
    """A whole review: ``seat`` reviewed, ``samples`` per decision, ``seed``, ``version``
    (:data:`REVIEW_VERSION`), ``decisions`` in the order they were made, ``game`` (the
    ruleset's name: ``"hongwu"`` or ``"zhaopengyou"``)."""

    seat: int
    samples: int
    seed: int
    version: int
    decisions: tuple[Decision, ...]
    game: str = "hongwu"

    @property
    def unit(self) -> str:
        """What values and losses are measured in: ``"game points"`` (红五) or ``"levels"``."""
        return rules_for(self.game).unit

    @property
    def costly_at(self) -> float:
        """The loss from which a decision is flagged costly, in :attr:`unit`."""
        return rules_for(self.game).costly

    def ranked(self) -> list[Decision]:
        """Searched decisions, largest loss first (ties: earlier first)."""
        return sorted((d for d in self.decisions if not d.forced), key=lambda d: (-d.loss, d.line))

    def costly(self) -> list[Decision]:
        """The flagged decisions, largest loss first."""
        return [d for d in self.ranked() if d.costly]

    @property
    def total_loss(self) -> float:
        """Sum of the losses (in :attr:`unit`)."""
        return round(sum(d.loss for d in self.decisions), 2)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-able form (``hongwu review --json``; the cache): the fields, ``unit``,
        ``total_loss`` and ``costly_gp`` (the costly threshold, in ``unit``)."""
        return {"game": self.game, "seat": self.seat, "samples": self.samples, "seed": self.seed,
                "version": self.version, "unit": self.unit, "total_loss": self.total_loss,
                "costly_gp": self.costly_at, "decisions": [asdict(d) for d in self.decisions]}

    def dumps(self) -> str:
        """JSON text of :meth:`as_dict`."""
        return json.dumps(self.as_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Review":
        """Inverse of :meth:`as_dict` (a dict without ``game``, cached before 找朋友 reviews
        existed, is 红五's); raises KeyError/TypeError/ValueError for a malformed dict."""
        decs = []
        for x in d["decisions"]:
            x = dict(x)
            x["chosen_cards"], x["best_cards"] = tuple(x["chosen_cards"]), tuple(x["best_cards"])
            decs.append(Decision(**x))
        game = str(d.get("game", "hongwu"))
        rules_for(game)  # an unknown game: ValueError
        return cls(d["seat"], d["samples"], d["seed"], d["version"], tuple(decs), game)


def settings_key(seat: int, samples: int, seed: int) -> str:
    """The cache key of a review's settings (with the record id it names one review)."""
    return f"v{REVIEW_VERSION}:seat={seat}:samples={samples}:seed={seed}"


def _text(action: Any) -> str:
    if isinstance(action, str):
        return action
    if isinstance(action, int) or action is None:
        return str(action) if action else "pass"
    if len(action) == 2 and isinstance(action[1], int) and not isinstance(action[1], Card) \
            and isinstance(action[0], Card):
        return f"{action[0]}/{action[1]}"  # a friend call (card, nth)
    return " ".join(str(Card(c)) for c in action)


def _cards(action: Any) -> tuple[str, ...]:
    if isinstance(action, (str, int)) or action is None:
        return ()
    if len(action) == 2 and isinstance(action[1], int) and not isinstance(action[1], Card):
        return ()  # a friend call names a card, plays none
    return tuple(str(Card(c)) for c in action)


def decision_points(replay: Any, seat: int) -> int:
    """How many decisions of ``seat`` the replay holds (the progress total): its actions that
    the ruleset's review looks at (:attr:`ReviewRules.reviewed`)."""
    rules = rules_for(replay.ruleset)
    return sum(1 for a in replay.actions if getattr(a, "seat", None) == seat and rules.reviewed(a))


def _hongwu_searcher(seat: int, seed: int, samples: int) -> ExpertAI:
    return ExpertAI(AISettings(seat=seat, seed=seed, budget_s=3600.0, options={"samples": samples}))


def play_candidates(basic: Any, view: Any, chosen: tuple, limit: int) -> list[tuple]:
    """The plays a review compares for one play decision (both games): ``chosen`` (a sorted
    card tuple) first, then ``basic``'s best ``limit`` plays (``ranked_plays``) other than it;
    only ``chosen`` when the play was forced (one legal play, or the last cards in hand, as the
    search itself returns at once)."""
    ranked = [tuple(sorted(p)) for _, p in basic.ranked_plays(view, view.play_options())]
    if len(view.hand) <= len(chosen) or len(ranked) <= 1:
        return [chosen]
    return [chosen] + [p for p in ranked[:limit] if p != chosen]


def _candidates(ai: ExpertAI, view: Any, action: Any) -> tuple[str, list[Any], Any]:
    """(kind, candidates with the chosen one first, the chosen in candidate form) of a 红五
    decision."""
    if isinstance(action, Play):
        chosen = tuple(sorted(action.cards))
        return "play", play_candidates(ai.basic, view, chosen, MAX_CANDIDATES), chosen
    if isinstance(action, Bury):
        chosen = tuple(sorted(action.cards))
        cands = [chosen] + [c for c in ai._bury_candidates(view, view.bury_count) if c != chosen]
        return "bury", cands, chosen
    if isinstance(action, ChooseTrump):
        return "trump", [action.suit] + [s for s in SUITS if s != action.suit], action.suit
    if isinstance(action, Bid):
        legal = tuple(view.legal_bids())
        chosen = action.amount or 0
        cands = [chosen] + [x for x in (0, min(legal) if legal else 0) if x != chosen]
        return "bid", list(dict.fromkeys(cands)), chosen
    raise ValueError(f"cannot review {action!r}")


HONGWU = ReviewRules("hongwu", "game points", "dealer", COSTLY_GP, R.start,
                     lambda a: isinstance(a, (Bid, ChooseTrump, Bury, Play)), _hongwu_searcher, _candidates)
"""The review of 红五 hands (bid, trump, bury, plays; game points; the dealer's card points)."""


def review(replay: Any, seat: int | None = None, samples: int = DEFAULT_SAMPLES, seed: int = 0,
           progress: Callable[[int, int], None] | None = None) -> Review:
    """Review ``seat``'s decisions in ``replay`` (an :class:`engine.replay.Replay` or a 找朋友
    :class:`engine.replay_zpy.ZpyReplay`; default seat: the header's ``seat``, else 0).

    ``samples``: sampled worlds per decision (≥ 2); ``seed``: the search seed; ``progress``:
    called ``progress(done, total)`` after each decision. Raises ValueError for a bad seat or
    sample count and :class:`engine.replay.ReplayError` when the replay does not re-run."""
    if seat is None:
        seat = int(replay.header.get("seat") or 0)
    players = replay.ruleset.players
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not 0..{players - 1}")
    if samples < 2:
        raise ValueError("samples must be at least 2")
    rules = rules_for(replay.ruleset)
    game = rules.start(replay)
    total = decision_points(replay, seat)
    out: list[Decision] = []
    for line, action in enumerate(replay.actions, start=2):
        if getattr(action, "seat", None) == seat and rules.reviewed(action) and not game.is_over:
            view = game.view(seat)
            trick = len(game.tricks) + 1 if isinstance(action, Play) else 0
            ai = rules.searcher(seat, seed * 100_003 + line, samples)
            kind, cands, chosen = rules.candidates(ai, view, action)
            if len(cands) == 1:
                est = [{"gp": 0.0, "points": None, "n": 0}]
            else:
                est = ai.estimates(view, kind, cands)
            best_k = max(range(len(cands)), key=lambda k: (est[k]["gp"], k == 0))
            loss = round(max(0.0, est[best_k]["gp"] - est[0]["gp"]), 3)
            rnd = (lambda v: None if v is None else round(v, 2))
            out.append(Decision(line, kind, trick, _text(chosen), _text(cands[best_k]), _cards(chosen),
                                _cards(cands[best_k]), rnd(est[0]["gp"]), rnd(est[best_k]["gp"]),
                                rnd(est[0]["points"]), rnd(est[best_k]["points"]), loss,
                                loss >= rules.costly, len(cands) == 1, len(cands), est[0]["n"]))
            if progress is not None:
                progress(len(out), total)
        game.apply(action)
    return Review(seat, samples, seed, REVIEW_VERSION, tuple(out), rules.game)


UNIT_SHORT = {"game points": "gp", "levels": "lv"}
"""Column and figure abbreviations of the units in :func:`table_lines`."""


def table_lines(rv: Review, top: int = 5) -> list[str]:
    """The review as text: one line a decision (trick, decision, chosen, best, the values and
    the loss in the review's unit; ``!`` on costly ones), then the ``top`` costliest. Values
    are means over the sampled worlds (game points for 红五, levels for 找朋友)."""
    unit = rv.unit
    u = UNIT_SHORT.get(unit, unit)
    lines = [f"review of seat {rv.seat} ({rv.game}): {rv.samples} samples a decision, seed {rv.seed}; "
             f"costly = loss >= {rv.costly_at:g} {unit}",
             f"{'trick':>5}  {'decision':<8} {'chosen':<22} {'best':<22} {u:>6} {'best ' + u:>7} {'loss':>6}"]
    for d in rv.decisions:
        trick = str(d.trick) if d.trick else "-"
        mark = " !" if d.costly else ("  (forced)" if d.forced else "")
        gp = "" if d.forced else f"{d.chosen_gp:6.2f}"
        bgp = "" if d.forced else f"{d.best_gp:7.2f}"
        lines.append(f"{trick:>5}  {d.kind:<8} {d.chosen[:22]:<22} {d.best[:22]:<22} {gp:>6} {bgp:>7} "
                     f"{d.loss:6.2f}{mark}")
    lines.append(f"total loss {rv.total_loss:.2f} {unit}")
    worst = [d for d in rv.ranked() if d.loss > 0][:top]
    if worst:
        lines.append(f"costliest {len(worst)}:")
        for d in worst:
            where = f"trick {d.trick}" if d.trick else d.kind
            verb = {"call": "called", "bury": "buried", "bid": "bid", "trump": "named"}.get(d.kind, "played")
            lines.append(f"  {where}: {verb} {d.chosen}, better {d.best} (-{d.loss:.2f} {u})"
                         + (" costly" if d.costly else ""))
    return lines


__all__ = ["Decision", "Review", "ReviewRules", "review", "rules_for", "table_lines", "settings_key",
           "decision_points", "DEFAULT_SAMPLES", "COSTLY_GP", "REVIEW_VERSION", "HONGWU"]
