"""The table layout for any seat count: four seats as ever, five seats (找朋友) without overlaps."""
from __future__ import annotations

import itertools

import pytest

pygame = pytest.importorskip("pygame")

from engine.ruleset import hongwu  # noqa: E402
from game.layout import BOTTOM, DEFAULT_SEATS, Layout, position_of, seat_at, seat_sides  # noqa: E402

FIVE_SIZES = [(800, 480), (1280, 720), (1920, 1080), (3840, 2160)]


def test_seat_count_comes_from_the_ruleset_and_four_seats_keep_their_sides():
    assert DEFAULT_SEATS == hongwu().players
    assert seat_sides(DEFAULT_SEATS) == ("bottom", "right", "top", "left")
    assert seat_sides(5) == ("bottom", "right", "top", "top", "left")
    assert seat_sides(3) == ("bottom", "right", "left")
    for bad in (2, 6):
        with pytest.raises(ValueError, match="3 to 5 seats"):
            seat_sides(bad)


def test_positions_go_counter_clockwise_for_five_seats():
    assert [position_of(s, 0, 5) for s in range(5)] == [0, 1, 2, 3, 4]
    assert position_of(0, 3, 5) == 2 and position_of(3, 3, 5) == BOTTOM
    assert all(seat_at(position_of(s, 4, 5), 4, 5) == s for s in range(5))


def test_the_default_layout_is_the_ruleset_seat_count():
    a, b = Layout(1280, 720), Layout(1280, 720, seats=hongwu().players)
    assert a.all_rects() == b.all_rects() and a.seats == b.seats


def _seat_rects(lay: Layout, cards: int) -> dict[str, pygame.Rect]:
    """Plates, card backs, trick slots (``cards`` played cards) and the hand area by name."""
    out = {"hand": lay.hand_area}
    for pos in lay.positions:
        out[f"plate{pos}"] = lay.plates[pos]
        if pos != BOTTOM:
            out[f"backs{pos}"] = lay.backs[pos]
        rects = lay.trick_rects(pos, cards)
        out[f"trick{pos}"] = rects[0].unionall(rects)
    return out


@pytest.mark.parametrize("size", FIVE_SIZES)
@pytest.mark.parametrize("cards", [1, 8, 12])
def test_five_seats_fit_without_overlaps(size, cards):
    lay = Layout(*size, max_hand=33, seats=5)
    assert lay.positions == (0, 1, 2, 3, 4) and len(lay.tops) == 2
    named = _seat_rects(lay, cards)
    for name, r in {**named, **lay.all_rects()}.items():
        assert lay.screen.contains(r), (name, r, size)
    for (a, ra), (b, rb) in itertools.combinations(named.items(), 2):
        assert not ra.colliderect(rb), (a, ra, b, rb, size)
    # nor do the panels of the HUD cover a seat's plate, backs or played cards
    hud = {"info": lay.info_rect, "toolbar": lay.toolbar, "scores": lay.scores_rect, "tools": lay.tools_rect,
           "counter": lay.counter_rect, "action_bar": lay.action_bar, "message": lay.message_rect}
    for (a, ra), (b, rb) in itertools.product(named.items(), hud.items()):
        assert not ra.colliderect(rb), (a, ra, b, rb, size)
    # every played card stays in the trick area; the top seats play into their own lanes
    for pos in lay.positions:
        for r in lay.trick_rects(pos, cards):
            assert lay.trick_area.inflate(2, 2).contains(r), (pos, r)
    right, left = lay.tops
    assert lay.trick_centers[right][0] > lay.trick_centers[left][0]
    assert lay.plates[right].centerx > lay.plates[left].centerx


@pytest.mark.parametrize("size", FIVE_SIZES)
def test_five_seats_keep_the_minimum_sizes(size):
    lay = Layout(*size, max_hand=33, seats=5)
    assert min(lay.min_font, lay.small_font, lay.font_size) >= 14
    assert lay.button_h >= 40 and lay.toolbar.h >= 40 and lay.plate_h >= 40
    assert lay.tools_rect.h >= 40
    # a played card keeps its rank-and-suit corner readable (as for four seats: ≥ 36 px high)
    assert lay.trick_h >= 36 and lay.card_h >= 40
    if size == (800, 480):
        assert lay.plates[BOTTOM].h >= 40 and all(lay.plates[p].w >= 40 for p in lay.positions)
