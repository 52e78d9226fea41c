"""Catalogs: compiled, complete, and engine sentences rendered in Chinese."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from game import i18n
from game.text import card_label, reason_text, seat_name

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def test_mo_files_up_to_date_and_catalog_complete():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "compile_catalogs.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "extract_messages.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_minimal_msgfmt_roundtrip(tmp_path):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import compile_catalogs as cc
    finally:
        sys.path.pop(0)
    po = tmp_path / "x.po"
    po.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "Pass"\nmsgstr "不叫"\n\n#, fuzzy\nmsgid "Fuzzy"\nmsgstr "模糊"\n\n'
                  'msgid "multi"\nmsgstr ""\n"a"\n"b"\n', encoding="utf-8")
    cc.compile_file(po)
    import gettext

    with open(po.with_suffix(".mo"), "rb") as fh:
        t = gettext.GNUTranslations(fh)
    assert t.gettext("Pass") == "不叫"
    assert t.gettext("Fuzzy") == "Fuzzy"
    assert t.gettext("multi") == "ab"


def test_switch_language():
    assert i18n.set_language("zh") == "zh"
    assert i18n._("Pass") == "不叫"
    assert seat_name(1, 0) == "下家" and seat_name(3, 0) == "上家" and seat_name(2, 0) == "对家"
    assert i18n.set_language("en") == "en"
    assert i18n._("Pass") == "Pass"
    assert i18n.set_language("xx") == "en"


def test_default_language_from_environment(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert i18n.default_language() == "zh"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert i18n.default_language() == "en"


def test_engine_refusals_are_translated():
    """Real engine sentences (not copies) come out in Chinese with no English left."""
    from engine.cards import parse_cards
    from engine.order import context
    from engine.tricks import PlayOptions

    ctx = context("S")
    hand = parse_cards("4H 4H 6H 9D 10D KC")
    cases = [
        PlayOptions(hand, None, ctx).explain(parse_cards("4H 9D")),
        PlayOptions(hand, None, ctx).explain(parse_cards("AH")),
        PlayOptions(hand, parse_cards("7H 7H"), ctx).explain(parse_cards("4H")),
        PlayOptions(hand, parse_cards("7H 7H"), ctx).explain(parse_cards("4H 6H")),
        PlayOptions(hand, parse_cards("7H"), ctx).explain(parse_cards("9D")),
        PlayOptions(hand, parse_cards("7H 7H 8H"), ctx).explain(parse_cards("6H 9D 10D")),
    ]
    i18n.set_language("zh")
    for reason in cases:
        assert reason, "the engine should refuse these plays"
        shown = reason_text(reason)
        assert shown != reason
        assert not any(w in shown for w in ("you", "led", "play", "hold")), (reason, shown)
    i18n.set_language("en")
    assert reason_text(cases[0]) == cases[0][0].upper() + cases[0][1:]


def test_card_labels():
    from engine.cards import parse_cards

    i18n.set_language("zh")
    assert [card_label(c) for c in parse_cards("BJ SJ 10H AS")] == ["大王", "小王", "♥10", "♠A"]
    i18n.set_language("en")
    assert card_label(parse_cards("BJ")[0]) == "Big joker"


def test_trump_follow_refusal_reads_well_in_both_languages():
    from engine.cards import parse_cards
    from engine.order import context
    from engine.tricks import follow_error
    from game import i18n
    from game.text import reason_text

    r = follow_error(parse_cards("5H"), parse_cards("2C AD"), parse_cards("AD"), context("S"))
    assert r.code == "follow_suit" and r.params["suit"] == "trump"
    try:
        i18n.set_language("en")
        assert "trumps were led" in reason_text(r)
        i18n.set_language("zh")
        assert "主牌" in reason_text(r)
    finally:
        i18n.set_language("en")
