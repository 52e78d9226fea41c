"""net.protocol and net.codec: the frozen per-version description, validation, PROTOCOL.md
coverage, and engine <-> wire round trips on whole hands."""
from __future__ import annotations

import json
import random
import re
from dataclasses import fields
from pathlib import Path

import pytest

import net
from engine.events import EVENT_TYPES
from engine.ruleset import hongwu
from engine.state import Game, Phase, PlayerView
from net import codec, protocol
from net.ai import FirstLegal
from net.protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError, check_type

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(net.__file__).resolve().parent / "fixtures"
DOC = (ROOT / "PROTOCOL.md").read_text("utf-8")


def test_method_table_matches_the_frozen_fixture_of_this_version():
    path = FIXTURES / f"protocol_v{PROTOCOL_VERSION}.json"
    assert path.exists(), (
        f"protocol version {PROTOCOL_VERSION} has no frozen fixture: run "
        f"'python -m net.protocol > {path.relative_to(ROOT)}' once the version is final")
    frozen = json.loads(path.read_text("utf-8"))
    current = json.loads(json.dumps(protocol.describe()))
    assert current == frozen, (
        "the wire protocol (methods, params, results, notifications, events, values or error "
        "codes) changed without a PROTOCOL_VERSION bump: bump net.protocol.PROTOCOL_VERSION, "
        "freeze the new fixture and update PROTOCOL.md (only a new optional field of the "
        "Error map may be added within a version: then regenerate this version's fixture, "
        "PROTOCOL.md section 12)")


def test_error_fields_added_within_a_version_are_optional():
    """PROTOCOL.md section 12: error data may gain fields without a version bump, so every
    Error field after the original three must be optional (old clients never rely on it)."""
    error = protocol.STRUCTS["Error"]
    assert list(error)[:3] == ["code", "name", "message"]
    assert all(error[k].required for k in ("code", "name", "message"))
    assert all(not f.required for k, f in error.items() if k not in ("code", "name", "message"))
    assert "refusal" in error and "`refusal`" in DOC


def test_protocol_md_lists_every_engine_refusal_code():
    """Every code of the engine's table (engine/refusals.py) is in PROTOCOL.md section 8."""
    import engine.refusals

    codes = re.findall(r"^\| ``(\w+)`` \|", engine.refusals.__doc__, re.M)
    assert len(codes) >= 20
    section = DOC.split("### Coded refusals", 1)[1].split("\n## ", 1)[0]
    for code in codes:
        assert re.search(rf"^\| `{code}` \|", section, re.M), f"refusal {code} undocumented"


def test_refusals_round_trip_through_the_wire_form():
    """Engine Refusal -> Refusal map in an Error -> engine Refusal again."""
    from engine.refusals import Refusal

    r = Refusal("bad_bid", "a bid of 68 is not allowed", amount=68, options=(65, 70))
    wire = codec.refusal_out(r)
    check_type(wire, "Refusal")
    assert wire == {"code": "bad_bid", "params": {"amount": 68, "options": [65, 70]}}
    err = ProtocolError(ErrorCode.ILLEGAL_ACTION, str(r), refusal=wire).to_wire()
    check_type(err, "Error")
    back = codec.refusal_in(err["refusal"], err["message"])
    assert isinstance(back, Refusal) and back == r and back.code == "bad_bid"
    assert back.params == {"amount": 68, "options": [65, 70]}
    assert codec.refusal_out("plain text") is None
    assert codec.refusal_in(None, "x") is None and codec.refusal_in({"code": 5}, "x") is None
    assert "refusal" not in ProtocolError(ErrorCode.NO_HAND).to_wire()


def test_every_earlier_version_keeps_its_fixture():
    for v in range(1, PROTOCOL_VERSION + 1):
        doc = json.loads((FIXTURES / f"protocol_v{v}.json").read_text("utf-8"))
        assert doc["protocol"] == v


def test_protocol_md_documents_every_method_notification_event_and_error():
    for name in protocol.METHODS:
        assert f"### `{name}`" in DOC, f"method {name} has no section in PROTOCOL.md"
    for name in protocol.NOTIFICATIONS:
        assert f"| `{name}` |" in DOC, f"notification {name} missing from PROTOCOL.md"
    for kind, schema in protocol.EVENTS.items():
        row = next((line for line in DOC.splitlines() if line.startswith(f"| `{kind}` |")), None)
        assert row is not None, f"event {kind} missing from PROTOCOL.md"
        for fld in schema:
            assert f"`{fld}`" in row, f"event {kind} field {fld} missing from PROTOCOL.md"
    for code in ErrorCode:
        assert re.search(rf"^\| {int(code)} \| `{code.name}` \|", DOC, re.M), code
    for struct in ("Table", "Seat", "Timers", "Turn", "View", "Settlement", "Snapshot",
                   "ZpyView", "ZpySettlement", "Match", "Declaration"):
        section = DOC.split(f"### `{struct}`", 1)
        assert len(section) == 2, struct
        body = section[1].split("###", 1)[0]
        for fld in protocol.STRUCTS[struct]:
            assert f"`{fld}`" in body, f"{struct}.{fld} undocumented"
    for method in protocol.METHODS.values():
        body = DOC.split(f"### `{method.name}`", 1)[1].split("\n### ", 1)[0]
        for param in method.params:
            assert f"`{param}`" in body or f'"{param}"' in body, (method.name, param)


def test_engine_events_and_views_are_fully_mapped():
    """A new engine field must be added to the protocol (with a version bump) or withheld."""
    for kind, cls in EVENT_TYPES.items():
        assert kind in protocol.EVENTS, f"engine event {kind} has no wire form"
        engine_fields = {f.name for f in fields(cls)}
        wire = set(protocol.EVENTS[kind]) | codec.WITHHELD_EVENT_FIELDS.get(kind, set())
        assert engine_fields == wire, (kind, engine_fields ^ wire)
    view_fields = {f.name for f in fields(PlayerView)} - {"ruleset"}
    assert view_fields <= set(protocol.STRUCTS["View"]), view_fields - set(protocol.STRUCTS["View"])


@pytest.mark.parametrize("doc", [5, [], [0], [0, 1, "x"], [3, 1, "x", {}], [0, "1", "x", {}],
                                 [1, 1.5, None, None], [2, 5, {}], [2, "x", 5]])
def test_parse_message_rejects_non_messages(doc):
    with pytest.raises(ProtocolError) as e:
        protocol.parse_message(doc)
    assert e.value.code == ErrorCode.BAD_MESSAGE and e.value.fatal


def test_params_as_arrays_are_accepted_for_msgpack_rpc_libraries():
    req = protocol.parse_message([0, 3, "ready", [{"ready": True}]])
    assert protocol.validate_request(req) == {"ready": True}
    assert protocol.validate_request(protocol.parse_message([0, 3, "ping", []])) == {}


@pytest.mark.parametrize("value, expr, ok", [
    (["10H", "BJ", "SJ", "2S"], "[card]", True), (["1H"], "[card]", False),
    (["10h"], "[card]", False), ([0, ["AS"]], "Play", True), ([0, "AS"], "Play", False),
    ([1, None], "BidEntry", True), ([1, True], "BidEntry", False), (True, "int", False),
    (None, "int|nil", True), (2.5, "float", True), (3, "float", True), ("X", "suit", False),
])
def test_type_expressions(value, expr, ok):
    if ok:
        check_type(value, expr)
    else:
        with pytest.raises(ValueError):
            check_type(value, expr)


def _play_hand(decks: int, seed: int):
    """Yield (game, new events) through a whole hand played by first-legal moves."""
    g = Game.new(hongwu(decks), seed)
    yield g, list(g.events)
    rng = random.Random(seed)
    while g.phase is not Phase.SETTLE:
        seat = g.to_act
        view = g.view(seat)
        if g.phase is Phase.PLAY and rng.random() < 0.5:
            from engine.state import Play
            action = Play(seat, view.play_options().sample(rng))
        else:
            action = FirstLegal(seat).act(view)
        yield g, g.apply(action)


@pytest.mark.parametrize("decks, seed", [(2, 1), (2, 2), (3, 3)])
def test_codec_round_trips_every_event_and_view_for_every_seat(decks, seed):
    for g, events in _play_hand(decks, seed):
        for seat in (None, 0, 1, 2, 3):
            for ev in events:
                seen = ev.for_seat(seat)
                wire = codec.event_out(seen)
                check_type(wire, "Event")
                back = codec.event_in(wire)
                if ev.kind == "hand_started":
                    assert "seed" not in wire and back.hand_no == seen.hand_no
                else:
                    assert back == seen
            view = g.view(seat)
            wire = codec.view_out(view)
            check_type(wire, "View")
            assert codec.view_in(wire) == view


def test_actions_round_trip():
    from engine.cards import parse_cards
    from engine.state import Bid, Bury, ChooseTrump, Play

    for action in (Bid(1, 65), Bid(2, None), ChooseTrump(0, "D"),
                   Bury(3, parse_cards("10H BJ SJ 2S 2S 3C 4D 5H")), Play(0, parse_cards("AS AS"))):
        method, params = codec.action_out(action)
        req = protocol.parse_message(protocol.request(1, method, params))
        assert codec.action_in(method, protocol.validate_request(req), action.seat) == action


def test_server_handles_exactly_the_methods_of_the_table():
    from net.server import Session

    handlers = {name[4:] for name in dir(Session) if name.startswith("rpc_")}
    assert handlers == set(protocol.METHODS)
