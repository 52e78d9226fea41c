"""Display text for cards, suits, seats and engine sentences, in the UI language."""
from __future__ import annotations

import logging
import re

from game.i18n import N_, _, translate_reason
from game.layout import BOTTOM, LEFT, RIGHT, TOP, position_of

log = logging.getLogger(__name__)

SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_NAMES = {"S": N_("Spades"), "H": N_("Hearts"), "C": N_("Clubs"), "D": N_("Diamonds")}
RANKS = {11: "J", 12: "Q", 13: "K", 14: "A"}
POSITION_NAMES = {BOTTOM: N_("You"), RIGHT: N_("Right"), TOP: N_("Across"), LEFT: N_("Left")}
#: the positions of a five-seat table (找朋友), counter-clockwise from the local seat: 下家, the
#: two seats at the top (right one first), 上家
FIVE_POSITION_NAMES = (N_("You"), N_("Right"), N_("Top right"), N_("Top left"), N_("Left"))


def suit_label(suit: str | None) -> str:
    """``"♥ Hearts"`` / ``"♥ 红桃"``; ``"—"`` for None."""
    if not suit:
        return "—"
    return f"{SUIT_SYMBOL.get(suit, suit)} {_(SUIT_NAMES.get(suit, suit))}"


def card_label(card) -> str:
    """Short text for one card: ``"♥5"``, ``"♠10"``, ``"大王"``/``"Big joker"``."""
    if card.suit is None:
        return _("Big joker") if card.rank >= 16 else _("Small joker")
    return SUIT_SYMBOL[card.suit] + RANKS.get(card.rank, str(card.rank))


def cards_label(cards) -> str:
    """Space-separated :func:`card_label` of each card."""
    return " ".join(card_label(c) for c in cards)


def seat_name(seat: int, local_seat: int | None, names=None) -> str:
    """How a seat is called on screen.

    Seen from a player: ``"You"``, ``"Right (basic)"``...; for an observer: ``"Seat 2 (basic)"``.
    ``names`` (optional) are the table's display names, one per seat; their number says how
    many seats the table has (four when not given; five: :data:`FIVE_POSITION_NAMES`).
    """
    extra = names[seat] if names and seat < len(names) else ""
    extra = ai_name(extra) if extra and extra != "human" else ""
    if local_seat is None:
        base = _("Seat {n}").format(n=seat)
    else:
        seats = len(names) if names and len(names) == len(FIVE_POSITION_NAMES) else len(POSITION_NAMES)
        pos = position_of(seat, local_seat, seats)
        if pos == BOTTOM:
            return _("You")
        base = _(FIVE_POSITION_NAMES[pos] if seats == len(FIVE_POSITION_NAMES) else POSITION_NAMES[pos])
    return f"{base} ({extra})" if extra and extra != "human" else base


#: the built-in AIs' names as shown (a plugin's own name is shown as it registered)
AI_NAMES = {"basic": N_("basic"), "expert": N_("expert"), "random": N_("random"),
            "first": N_("first"), "human": N_("human")}
#: markers a LAN table (net.remote_table) appends to a seat's name
NAME_MARKS = {" [auto]": N_(" [auto]"), " [offline]": N_(" [offline]")}


def ai_name(name: str) -> str:
    """A seat or AI name for display: a built-in AI's name and the LAN markers (`` [auto]``,
    `` [offline]``) in the UI language; ``seat N`` placeholders too; other names as given."""
    name = str(name or "")
    mark = ""
    for eng, msg in NAME_MARKS.items():
        if name.endswith(eng):
            name, mark = name[: -len(eng)], _(msg)
            break
    if name in AI_NAMES:
        name = _(AI_NAMES[name])
    else:
        m = re.fullmatch(r"seat (\d+)", name)
        if m:
            name = _("Seat {n}").format(n=m.group(1))
    return name + mark


_AUTO_REASONS = {"timeout": N_("time ran out"), "request": N_("asked for"), "disconnect": N_("disconnected"),
                 "reconnect": N_("reconnected"), "action": N_("played again"),
                 "fill": N_("seat filled")}
_LAN_LINES = {"connection lost; reconnecting...": N_("connection lost; reconnecting..."),
              "reconnected": N_("reconnected"),
              "could not reconnect to the host": N_("could not reconnect to the host")}


def lan_notice(line: str) -> str:
    """A notice line of a LAN table (``net.remote_table.RemoteTable.notices``) in the UI
    language; a line of unknown form (a chat line) is shown as it is."""
    line = str(line)
    if line in _LAN_LINES:
        return _(_LAN_LINES[line])
    m = re.fullmatch(r"auto-play (on|off) for (.*) \((\w+)\)", line)
    if m:
        on, who, why = m.groups()
        who = _("you") if who == "you" else ai_name(who)
        msg = N_("auto-play on for {who} ({reason})") if on == "on" else N_("auto-play off for {who} ({reason})")
        return _(msg).format(who=who, reason=_(_AUTO_REASONS[why]) if why in _AUTO_REASONS else why)
    m = re.fullmatch(r"reconnect refused: (.*)", line)
    if m:
        return _("reconnect refused: {reason}").format(reason=m.group(1))
    m = re.fullmatch(r"disconnected from the host: (.*)", line)
    if m:
        reason = m.group(1)
        return _("disconnected from the host: {reason}").format(
            reason=_("connection lost") if reason == "connection lost" else reason)
    return line


# -- engine refusals (engine/refusals.py codes) -------------------------------------------------
# A refusal is translated from its stable code and parameters (``Refusal.code``/``.params``,
# also on ``IllegalAction``), never by parsing the English.  Text without a known code (an
# older or remote engine) is shown as it is: the engine's English, so nothing is lost.
REFUSALS: dict[str, str] = {
    "wrong_count": N_("play exactly {count} card(s), as many as were led"),
    "not_held": N_("not enough {card} in your hand"),
    "follow_suit": N_("you must follow suit: {suit} was led and you hold {suit}"),
    "follow_trump": N_("you must follow suit: trumps were led and you hold trumps"),
    "play_all_suit": N_("you must play all your {suit} cards ({count}) before other cards"),
    "tractor_owed": N_("{shape} was led and you hold a {suit} tractor like it"),
    "pairs_owed": N_("{shape} was led: you hold {suit} pairs and must play {pairs} of them"),
    "groups_owed": N_("{shape} was led: you must play {triples} {suit} triple(s) and {pairs} pair(s)"),
    "triple_owed": N_("a triple was led and you hold a {suit} triple"),
    "pair_owed": N_("a pair was led and you hold a {suit} pair"),
    "structure_owed": N_("your play does not give the structure the lead requires"),
    "empty_lead": N_("choose at least one card to lead"),
    "mixed_lead": N_("a lead must be cards of one suit (or all trumps)"),
    "hand_over": N_("the hand is over"),
    "no_seat": N_("there is no seat {seat}"),
    "not_your_turn": N_("it is not your turn"),
    "wrong_phase": N_("that is not possible at this point of the hand"),
    "bad_bid": N_("a bid of {amount} is not allowed now; the legal bids are {options} (or pass)"),
    "bad_suit": N_("the trump suit must be one of ♠ ♥ ♣ ♦"),
    "bury_count": N_("bury exactly {count} cards, not {given}"),
    "bad_cards": N_("those are not cards of this game"),
}
"""Refusal code -> message id (English; ``{name}`` fields from the refusal's params)."""

_THROW_PAIR = N_("the throw includes a pair and you hold a {suit} pair to match it")
_BID_ONLY_PASS = N_("a bid of {amount} is not allowed now; you can only pass")


def _suit_param(value) -> str:
    if value == "trump":
        return _("trumps")
    return SUIT_SYMBOL.get(str(value), str(value))


def _card_param(value) -> str:
    try:
        from engine.cards import parse_cards

        return cards_label(parse_cards(str(value)))
    except Exception:
        return str(value)


def _shape_param(group, length) -> str:
    group, length = int(group or 2), int(length or 1)
    if length <= 1:
        return _("a triple") if group == 3 else _("a pair")
    if group == 3:
        return _("a tractor of {n} triples").format(n=length)
    return _("a tractor of {n} pairs").format(n=length)


def refusal_text(code: str, params: dict | None = None) -> str | None:
    """The refusal ``code`` with ``params`` in the UI language (lower case, no full stop), or
    None for a code this client does not know."""
    params = dict(params or {})
    if code == "follow_suit" and params.get("suit") == "trump":
        code = "follow_trump"
    msgid = REFUSALS.get(code)
    if msgid is None:
        return None
    fields = {k: v for k, v in params.items()}
    if "suit" in params:
        fields["suit"] = _suit_param(params["suit"])
    if "card" in params:
        fields["card"] = _card_param(params["card"])
    if code in ("tractor_owed", "pairs_owed", "groups_owed"):
        fields["shape"] = _shape_param(params.get("group", 3 if code == "groups_owed" else 2), params.get("length", 2))
    if code == "pair_owed" and params.get("throw"):
        msgid = _THROW_PAIR
    if code == "bad_bid":
        opts = list(params.get("options") or ())
        if not opts:
            msgid = _BID_ONLY_PASS
        fields["options"] = ", ".join(str(o) for o in opts)
    try:
        return _(msgid).format(**fields)
    except (KeyError, IndexError, ValueError):  # a catalog entry with a bad field
        log.warning("cannot format refusal %s with %r", code, params)
        return None


def reason_text(reason) -> str:
    """An engine refusal in the UI language, capitalised for display.

    ``reason`` is a :class:`engine.refusals.Refusal` (a ``str`` with ``code``/``params``), an
    ``IllegalAction``, or plain text; text without a known code is shown as given (after an
    exact catalog lookup)."""
    code = getattr(reason, "code", None)
    text = None
    if code:
        text = refusal_text(code, getattr(reason, "params", None))
    if text is None:
        text = translate_reason(str(reason))
    return text[:1].upper() + text[1:] if text else text
