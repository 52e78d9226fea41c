"""The hook specifications of Hong Wu AI plugins (pluggy project name ``"hongwu"``).

Two kinds of hooks live here:

* the **registration hook** :func:`register_ais`, implemented by a *plugin* (a module, a
  drop-in file or an object named by an entry point) to announce one or more named AIs;
* the **decision hooks** :func:`choose_bid`, :func:`choose_trump`, :func:`choose_bury` and
  :func:`choose_play`, implemented by an *AI object* (what an AI's factory returns), one per
  kind of decision the rules ask of a seat (RULES.md §2 bidding, §3 trump, §4 kitty, §7–§8 play);
  找朋友 adds :func:`choose_declaration`, :func:`choose_friend` and :func:`choose_counter` and
  reuses ``choose_bury`` and ``choose_play`` (an AI plays 找朋友 only if its ``rulesets``
  attribute names ``"zhaopengyou"``; see :data:`DEFAULT_RULESETS`).

Each seat gets its own pluggy ``PluginManager`` holding just its AI object, so the decision
hooks are ordinary ``firstresult`` pluggy hooks. An AI object may implement any subset: a
decision it does not implement (or answers with ``None``) is taken by the built-in ``basic``
AI. Decision hooks may be marked with :data:`hookimpl` or simply be methods with these names.

Every decision runs in a worker thread under a time budget (default 2 s, set by the host with
``budget_s``) and is given a private copy of the view and options
(:mod:`ai_plugins.isolation`); an AI that raises, answers something illegal or malformed, or overruns the budget
loses that decision to the ``basic`` AI and is logged (see :mod:`ai_plugins.runner`).
An AI object may also have an optional ``reasoning()`` method (not a hook): called by the runner
after each answered decision, in the same worker and budget, it may return the candidates the
AI weighed with its estimates — what the client's X-ray shows (validated and made plain by
:func:`ai_plugins.runner.plain_reasoning`; PLUGINS.md "Reasoning (optional)").
The full reference with examples is PLUGINS.md; ``tests/test_ai_docs.py`` keeps the two in step.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Sequence

import pluggy

if TYPE_CHECKING:  # pragma: no cover - typing only
    from engine.cards import Card
    from engine.state import PlayerView
    from engine.tricks import PlayOptions
    from engine.zhaopengyou import ZpyView

PROJECT = "hongwu"
"""The pluggy project name; also the stem of the entry-point group ``hongwu.ai``."""

hookspec = pluggy.HookspecMarker(PROJECT)
"""Marker for the specifications below (used only in this module)."""

hookimpl = pluggy.HookimplMarker(PROJECT)
"""Marker for plugin implementations: ``@hookimpl def register_ais(register): ...``."""


@hookspec
def register_ais(register: Callable[..., None]) -> None:
    """Announce the AIs this plugin provides; called once per plugin, when it is discovered.

    Arguments:
        register: ``register(name: str, factory: Callable[[AISettings], object],
            version: str | None = None) -> None``. Call it once per AI. ``name`` is what users
            type (``--ai NAME``): letters, digits, ``_``, ``-`` and ``.`` only, no ``:``.
            ``factory`` is called positionally, ``factory(settings)`` (a keyword-only
            ``settings`` parameter is accepted too), with one
            :class:`ai_plugins.base.AISettings` (``seat`` 0..n-1 for n seats,
            ``seed`` int, ``budget_s`` float seconds, ``options`` mapping) each time a seat is
            given to this AI (by the client once per seat for a whole game; by the arena once
            per seat and hand, so that hands stay independent) and returns the AI object whose
            methods implement the decision hooks. ``version`` is free text
            shown by ``hongwu ai list`` (default: the distribution's version for entry points,
            else ``"unknown"``).

    Returns: nothing (the return value is ignored).

    When: at start-up, while the plugin manager discovers plugins (built-ins first, then entry
    points ``hongwu.ai``, then drop-in files, then ``--ai module:object``).

    Time budget: none is enforced, but it runs at start-up: do no heavy work here (load models
    lazily in the factory or the first decision). Raising makes the plugin's AIs unavailable and
    is reported; two AIs registered under one name are a clash, reported and never resolved
    silently. The names ``basic``, ``random``, ``expert`` and ``human`` are reserved for the
    built-ins: registering one is refused (reported) and the built-in keeps it; a factory that
    cannot be called with one argument is refused with the reason.
    """


@hookspec(firstresult=True)
def choose_bid(view: PlayerView, bids: Sequence[int]) -> Optional[int]:
    """Bid or pass in the auction 叫分 (RULES.md §2).

    Arguments:
        view: the seat's :class:`engine.state.PlayerView` (``view.phase`` is ``Phase.BID``;
            ``view.hand`` the seat's 25 or 39 cards; ``view.bids`` the auction so far as
            ``((seat, amount or None), ...)``).
        bids: ``tuple[int, ...]``, the amounts this seat may bid now, ascending, multiples of 5
            (e.g. ``(65, 70, 75)``). Passing is always allowed.

    Returns: an ``int`` taken from ``bids`` to bid it, ``0`` (:data:`ai_plugins.PASS`) to pass
    (a pass is final for the hand), or ``None`` to let the built-in ``basic`` AI decide.

    When: each time the auction reaches this seat and the seat has not passed.

    Time budget: ``budget_s`` of the seat (default 2 s) per call.
    """


@hookspec(firstresult=True)
def choose_trump(view: PlayerView, suits: Sequence[str]) -> Optional[str]:
    """Name the trump suit 叫主 as the dealer, before seeing the kitty (RULES.md §3).

    Arguments:
        view: the dealer's ``PlayerView`` (``view.phase`` is ``Phase.TRUMP``; ``view.bid`` the
            winning bid; ``view.kitty`` still ``None``).
        suits: ``("S", "H", "C", "D")``: the suits that may be chosen (there is no no-trump).

    Returns: one string of ``suits``, or ``None`` to let the ``basic`` AI decide.

    When: once per hand, for the dealer only, right after the auction.

    Time budget: ``budget_s`` of the seat (default 2 s) per call.
    """


@hookspec(firstresult=True)
def choose_bury(view: PlayerView, count: int) -> Optional[Sequence[Card]]:
    """Bury the kitty 扣底: put ``count`` cards of the hand aside (RULES.md §4).

    Arguments:
        view: the dealer's ``PlayerView`` (``view.phase`` is ``Phase.BURY``; ``view.hand`` now
            includes the kitty's cards, which ``view.kitty`` also lists; ``view.trump`` and
            ``view.ctx`` are set).
        count: ``int``, how many cards to bury: 8 with two decks, 6 with three; 7 at
            找朋友 (asked of the dealer, and of each seat that counter-declares and takes the
            kitty).

    Returns: a list or tuple of exactly ``count`` cards (:class:`engine.cards.Card` or card
    text such as ``"10H"``) that the hand holds (copies counted), or ``None`` for ``basic``.
    Any cards may be buried, point cards and red fives included.

    When: once per hand, for the dealer only, after the trump is named.

    Time budget: ``budget_s`` of the seat (default 2 s) per call.
    """


@hookspec(firstresult=True)
def choose_play(view: PlayerView, options: PlayOptions) -> Optional[Sequence[Card]]:
    """Lead or follow in a trick (RULES.md §6–§9).

    Arguments:
        view: the seat's ``PlayerView`` (``view.phase`` is ``Phase.PLAY``; ``view.current_trick``
            holds ``((seat, cards), ...)`` already played to this trick, leader first).
        options: the engine's :class:`engine.tricks.PlayOptions` for this seat: ``leading``
            (bool), ``lead`` (the cards led, or ``None``), iteration yields the legal plays
            lazily as sorted card tuples, ``is_legal(cards) -> bool``, ``explain(cards) ->
            str | None`` (why a play is illegal), ``sample(rng)`` one legal play, ``units()``
            (when leading: the single-pattern leads, i.e. singles, pairs, triples, tractors).

    Returns: a list or tuple of cards (``Card`` or card text) for which ``options.is_legal``
    holds, or ``None`` to let ``basic`` play. When leading, several patterns of one suit form
    a throw 甩牌; the engine checks it, and a failed throw plays the forced component instead.

    When: each time this seat is to play a card or cards: 25 (two decks) or 39 (three decks)
    times a hand.

    Time budget: ``budget_s`` of the seat (default 2 s) per call.
    """


@hookspec(firstresult=True)
def choose_declaration(view: ZpyView, options: Sequence[Sequence[Card]]) -> Optional[Sequence[Card]]:
    """找朋友 only: declare 亮主 in a deal window, or pass (找朋友 rules, RULES.md "找朋友" §3).

    Arguments:
        view: the seat's :class:`engine.zhaopengyou.ZpyView` (``view.phase`` is
            ``ZPhase.DEAL``; ``view.hand`` the cards dealt to the seat so far;
            ``view.cards_dealt`` how many of the 155 are out; ``view.standing`` the standing
            declaration as ``(seat, cards)`` or ``None``; ``view.levels`` the five levels).
        options: the declarations this seat may make now, each a tuple of 1 to 3 identical
            cards (own level rank or jokers) that the engine has checked to be legal and
            stronger than the standing one. Never empty: a seat with nothing to declare is not
            asked.

    Returns: one tuple of ``options`` (cards or card text) to declare it, an empty list or
    tuple to pass (passing is never final: the seat is asked again after later cards), or
    ``None`` to let ``basic`` decide.

    When: after a card is dealt, in each window in which this seat holds a declaration that
    would stand, until it declares or the deal ends.

    Time budget: ``budget_s`` of the seat (default 2 s) per call.
    """


@hookspec(firstresult=True)
def choose_friend(view: ZpyView, calls: Sequence[tuple[Card, int]]) -> Optional[tuple[Card, int]]:
    """找朋友 only: the dealer calls the friend 叫朋友, "the Nth played X" (RULES.md "找朋友" §4).

    Arguments:
        view: the dealer's ``ZpyView`` (``view.phase`` is ``ZPhase.CALL_FRIEND``; ``view.trump``
            the trump suit, ``None`` for no-trump; ``view.level`` the hand's level rank 2..14).
        calls: every valid call as ``(card, nth)`` with ``nth`` 1..3.

    Returns: one ``(card, nth)`` of ``calls`` (the card as a ``Card`` or card text), or
    ``None`` for ``basic``.

    When: once per hand, for the dealer, before taking the kitty (or after the counter round
    with the option ``friend_call_time=after_bury``).

    Time budget: ``budget_s`` of the seat (default 2 s) per call.
    """


@hookspec(firstresult=True)
def choose_counter(view: ZpyView, options: Sequence[Sequence[Card]]) -> Optional[Sequence[Card]]:
    """找朋友 only: counter-declare 反牌 after the bury, or pass (RULES.md "找朋友" §5).

    Arguments:
        view: the seat's ``ZpyView`` (``view.phase`` is ``ZPhase.COUNTER``; ``view.standing``
            the declaration to beat; ``view.trump`` the current trump).
        options: the counters this seat may show now (pairs or triples of level-rank cards or
            jokers that beat the standing declaration). Never empty.

    Returns: one tuple of ``options`` to counter (the trump changes, and this seat then takes
    the kitty and buries 7 cards through :func:`choose_bury`), an empty list or tuple to pass,
    or ``None`` for ``basic``.

    When: in the counter round, each time it reaches this seat while it holds a counter.

    Time budget: ``budget_s`` of the seat (default 2 s) per call.
    """


DECISION_HOOKS: tuple[str, ...] = ("choose_bid", "choose_trump", "choose_bury", "choose_play",
                                   "choose_declaration", "choose_friend", "choose_counter")
"""Names of the decision hooks: 红五's in the order a hand asks them, then the three that only
找朋友 asks (``choose_bury`` and ``choose_play`` serve both rulesets)."""

ZPY_HOOKS: tuple[str, ...] = ("choose_declaration", "choose_friend", "choose_counter")
"""The decision hooks that only 找朋友 asks."""

DEFAULT_RULESETS: tuple[str, ...] = ("hongwu",)
"""The rulesets an AI object plays when it has no ``rulesets`` attribute: 红五 only. An AI
that also plays 找朋友 says so with ``rulesets = ("hongwu", "zhaopengyou")``; in 找朋友 any other
AI's seat is played by the built-in ``basic`` AI."""

REGISTRATION_HOOKS: tuple[str, ...] = ("register_ais",)
"""Names of the hooks called on plugins (not on AI objects)."""

ALL_HOOKS: tuple[str, ...] = REGISTRATION_HOOKS + DECISION_HOOKS
"""Every hook specified in this module (``tests/test_ai_docs.py`` checks PLUGINS.md has each)."""

__all__ = ["PROJECT", "hookspec", "hookimpl", *ALL_HOOKS, "DECISION_HOOKS", "ALL_HOOKS", "ZPY_HOOKS",
           "DEFAULT_RULESETS"]

