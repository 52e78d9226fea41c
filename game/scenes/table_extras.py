"""Table conveniences players of 升级 apps expect: the dealer's look at the buried cards
(查看底牌), smart selection of pairs and tractors when following, and hand sorting options.

Rules knowledge stays in the engine: patterns and tractor adjacency come from
:mod:`engine.patterns`, effective suits and display order from the view's
:class:`~engine.order.TrumpContext`.  :class:`TablePrefs` holds the player's choices (saved in
:class:`game.settings.Settings`); the scene keeps one in ``scene.prefs``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import pygame

from game.i18n import _
from game.settings import SUIT_ORDERS
from game.text import SUIT_SYMBOL
from game.widgets import TEXT, draw_panel, draw_text


BURIED_EDGE = (250, 206, 90)


@dataclass
class TablePrefs:
    """The player's table choices: ``smart_select`` (a tap raises the whole pair or tractor
    the lead calls for), ``trumps_left`` (trumps at the left end of the hand instead of the
    right) and ``suit_order`` (one of :data:`SUIT_ORDERS`: side suits left to right)."""

    smart_select: bool = True
    trumps_left: bool = False
    suit_order: str = SUIT_ORDERS[0]


def suit_order_label(order: str) -> str:
    """``"♠♥♣♦"`` for ``"SHCD"``."""
    return "".join(SUIT_SYMBOL[s] for s in order)


def prefs_from(settings: Any) -> TablePrefs:
    """The :class:`TablePrefs` stored in a :class:`game.settings.Settings` (defaults for
    anything missing or invalid)."""
    order = getattr(settings, "suit_order", SUIT_ORDERS[0])
    return TablePrefs(bool(getattr(settings, "smart_select", True)), bool(getattr(settings, "trumps_left", False)),
                      order if order in SUIT_ORDERS else SUIT_ORDERS[0])


def apply_prefs(scene: Any, prefs: TablePrefs) -> None:
    """Give ``scene`` (a :class:`~game.scenes.table_scene.TableScene`) these preferences:
    the hand is laid out again at once."""
    scene.prefs = prefs
    scene._sync_hand()
    scene.invalidate()


#: Settings-screen key prefix -> Settings field (see :func:`table_rows`)
TABLE_KEYS = {"smart": "smart_select", "trumps": "trumps_left", "suits": "suit_order"}


def table_rows(settings: Any) -> list[tuple[str, list]]:
    """The Settings screen's rows for the table preferences: smart selection on/off, trumps
    left/right, the suit order (``(label, [Choice])`` as :meth:`FormScreen.rows` wants)."""
    from game.scenes.menu import Choice

    p = prefs_from(settings)
    return [
        (_("Smart selection"), [Choice("smart:on", _("On"), p.smart_select),
                                Choice("smart:off", _("Off"), not p.smart_select)]),
        (_("Trumps in hand"), [Choice("trumps:left", _("On the left"), p.trumps_left),
                               Choice("trumps:right", _("On the right"), not p.trumps_left)]),
        (_("Suit order"), [Choice(f"suits:{o}", suit_order_label(o), p.suit_order == o) for o in SUIT_ORDERS]),
    ]


# -- hand order ---------------------------------------------------------------------------------
def fixed_trump_rank(card: Any) -> int | None:
    """Before the trump suit is chosen: how strong ``card`` is among the cards that are trumps
    whatever the suit (RULES.md §5), 0 = weakest — a 2: 0, a 3: 1, the small joker: 2, the big
    joker: 3, the red five (♥5): 4 — or None for any other card."""
    if card.suit == "H" and card.rank == 5:
        return 4
    if card.suit is None:  # a joker: rank 15 small, 16 big
        return 2 if card.rank == 15 else 3
    return {2: 0, 3: 1}.get(card.rank)


def arrange(cards: Sequence, ctx: Any, prefs: TablePrefs) -> tuple:
    """``cards`` in display order: side suits grouped in ``prefs.suit_order``, trumps at the
    left or right end; inside a group the engine's display order (``ctx.sort_key``).  Before
    trump is known (``ctx`` None) the cards that are trumps whatever the suit — the red five,
    the jokers, the 3s and the 2s (RULES.md §5; which 3s stay trumps waits for the suit) —
    form the trump group, weakest first (2s, 3s, small joker, big joker, red five; a rank's
    suits in ``prefs.suit_order``), and the other cards their suits, ranks ascending."""
    order = prefs.suit_order if prefs.suit_order in SUIT_ORDERS else SUIT_ORDERS[0]
    trump_group = -1 if prefs.trumps_left else 9

    def key(c) -> tuple:
        if ctx is None:
            fixed = fixed_trump_rank(c)
            if fixed is not None:
                return (trump_group, fixed, order.index(c.suit) if c.suit else 0, int(c))
            return (order.index(c.suit), c.rank, 0, int(c))
        eff = ctx.suit_of(c)
        group = trump_group if eff == "trump" else order.index(eff)
        return (group, ctx.sort_key(c))

    return tuple(sorted(cards, key=key))


# -- smart selection -----------------------------------------------------------------------------
def smart_group(hand: Sequence, index: int, view: Any) -> set[int]:
    """Indices into ``hand`` to raise along with card ``index`` when following a pair, triple
    or tractor lead: the tractor of the lead's length containing the card (or, failing that, a
    tractor of pairs of that length, then its triple or pair).  Empty when the lead calls for
    nothing more (a single or throw lead, another suit, no twin, not following)."""
    from engine.patterns import PAIR, TRACTOR, TRIPLE, classify, counts_of, runs

    ctx = getattr(view, "ctx", None)
    trick = getattr(view, "current_trick", None)
    if ctx is None or not trick or not getattr(view, "my_turn", False) or not 0 <= index < len(hand):
        return set()
    lead = classify(trick[0][1], ctx)
    if lead.kind not in (PAIR, TRIPLE, TRACTOR) or len(lead.components) != 1:
        return set()
    comp = lead.components[0]
    card = hand[index]
    if ctx.suit_of(card) != lead.suit:
        return set()
    counts = counts_of(int(c) for c in hand if ctx.suit_of(c) == lead.suit)
    tries = [(comp.group, comp.length), (2, comp.length), (comp.group, 1), (2, 1)]
    ranks: list[int] = []
    group = 0
    for g, n in tries:
        if n == 1:
            if counts.get(int(card), 0) >= g:
                ranks, group = [int(card)], g
                break
            continue
        for run in runs(counts, g, ctx):
            if int(card) in run and len(run) >= n:
                pos = run.index(int(card))
                start = min(max(0, pos - n + 1), len(run) - n)
                ranks, group = run[start:start + n], g
                break
        if ranks:
            break
    if not ranks or group * len(ranks) < 2:
        return set()
    out = {index}
    for r in ranks:
        have = sum(1 for i in out if int(hand[i]) == r)
        for i, c in enumerate(hand):
            if have >= group:
                break
            if int(c) == r and i not in out:
                out.add(i)
                have += 1
    return out


def smart_raise(scene: Any, index: int) -> None:
    """After card ``index`` was raised by a tap: raise the rest of its pair or tractor when
    ``scene.prefs.smart_select`` is on and the result is no more cards than were led."""
    hand = scene.hand
    if not scene.prefs.smart_select or index not in hand.selected:
        return
    extra = smart_group(hand.cards, index, scene.view) - hand.selected
    trick = scene.view.current_trick
    if extra and len(hand.selected) + len(extra) <= len(trick[0][1]):
        hand.selected |= extra


# -- the buried cards (查看底牌) -----------------------------------------------------------------
def can_show_buried(view: Any) -> bool:
    """True when the local seat is the dealer and the view holds the cards it buried (the
    engine gives them to the dealer only, during play)."""
    return (getattr(view, "seat", None) is not None and view.seat == getattr(view, "dealer", None)
            and bool(getattr(view, "buried", None)) and view.phase.value == "play")


def toggle_buried(scene: Any, on: bool | None = None) -> bool:
    """Show/hide the buried cards over the table (the last trick view closes); returns the new
    state (always False when :func:`can_show_buried` is not)."""
    scene.show_buried = ((not scene.show_buried) if on is None else bool(on)) and can_show_buried(scene.view)
    if scene.show_buried:
        scene.show_last = False
    scene.invalidate()
    return scene.show_buried


def on_buried_key(scene: Any, ev: Any, now: float) -> None:
    """The K key: tap to toggle the buried cards, or hold to look while held."""
    from game.input import HOLD_S

    down = getattr(scene, "_buried_down", None)
    if ev.type == pygame.KEYUP:
        scene._buried_down = None
        if down is not None and now - down >= HOLD_S and scene.show_buried:
            toggle_buried(scene, False)
        return
    if getattr(ev, "repeat", False) or down is not None:
        return
    if scene.show_buried:
        toggle_buried(scene, False)
    elif toggle_buried(scene, True):
        scene._buried_down = now


def draw_buried(surf: pygame.Surface, scene: Any) -> None:
    """The buried cards in a box in the middle of the trick area (where the last trick shows)."""
    v = scene.view
    lay = scene.layout
    box = scene.last_trick_box()
    m = lay.margin
    draw_panel(surf, box, color=(6, 26, 18, 235), border=BURIED_EDGE, radius=12)
    from engine.cards import card_points

    cards = tuple(v.buried or ())
    title = _("Buried cards: {p} points").format(p=card_points(cards))
    t = draw_text(surf, title, lay.small_font, BURIED_EDGE, (box.centerx, box.y + m // 2), anchor="midtop",
                  bold=True, max_width=box.w - 2 * m)
    inner = pygame.Rect(box.x + m, t.bottom + m // 2, box.w - 2 * m, box.bottom - m - t.bottom - m // 2)
    if not cards:
        draw_text(surf, "—", lay.font_size, TEXT, inner.center, anchor="center")
        return
    ch = max(24, min(lay.trick_h, inner.h))
    cw = round(ch * 0.7)
    n = len(cards)
    step = min(cw + 4, (inner.w - cw) // max(1, n - 1)) if n > 1 else 0
    x0 = inner.centerx - (cw + step * (n - 1)) // 2
    y = inner.centery - ch // 2
    for i, c in enumerate(cards):
        surf.blit(scene.renderer.face(c, cw, ch), (x0 + i * step, y))
