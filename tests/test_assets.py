"""Bundled assets: the CJK font subset, the sound effects, their licences and helpers.

Headless: SDL uses its dummy video and audio drivers.  Nothing here needs the network,
fontTools or the system's Noto fonts; the generator scripts in ``tools/`` are imported only
for their stdlib-only parts (character lists, sound synthesis).
"""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import importlib.util  # noqa: E402
import sys  # noqa: E402
import wave  # noqa: E402
from array import array  # noqa: E402
from pathlib import Path  # noqa: E402
from types import ModuleType  # noqa: E402
from typing import Any  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

import assets  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLE_STRINGS = (
    "红五三打一 庄家 闲家 叫分",
    "♠♥♣♦ 10 J Q K A 大王 小王",
    "甩牌失败：必须跟同花色。扣底 ×2（红五）",
    "第1轮 得分 35/80 ←→ ①②③④",
)
MUST_HAVE = "红五庄闲叫分主副王底牌甩毙垫拖拉机亮♠♥♣♦♤♡♧♢×←→↑↓·…—“”、。，：！？（）【】"


def _load_tool(name: str) -> ModuleType:
    """Import ``tools/<name>.py`` by path (``tools`` is not a package)."""
    path = REPO_ROOT / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_hongwu_tools_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# ----------------------------------------------------------------------------------- fonts

@pytest.fixture(scope="module", params=[False, True], ids=["regular", "bold"])
def font(request: pytest.FixtureRequest) -> pygame.font.Font:
    pygame.font.init()
    return pygame.font.Font(str(assets.font_path(bold=request.param)), 24)


def _pixels(font: pygame.font.Font, text: str) -> tuple[tuple[int, int], bytes]:
    surface = font.render(text, False, (255, 255, 255), (0, 0, 0))
    return surface.get_size(), pygame.image.tobytes(surface, "RGB")


def _is_tofu_factory(font: pygame.font.Font):
    """Return ``is_tofu(char)``: True when ``char`` renders exactly like ``.notdef``.

    pygame-ce's ``Font.metrics`` reports the ``.notdef`` glyph's metrics for a missing
    character instead of None, so the test compares metrics and pixels with those of a
    private-use code point, which the subset never contains.
    """
    notdef_metrics = font.metrics("\ue000")[0]
    notdef_pixels = _pixels(font, "\ue000")

    def is_tofu(char: str) -> bool:
        metrics = font.metrics(char)[0]
        if metrics is None:
            return True
        return metrics == notdef_metrics and _pixels(font, char) == notdef_pixels

    return is_tofu


def _missing(font: pygame.font.Font, chars) -> list[str]:
    is_tofu = _is_tofu_factory(font)
    return sorted(c for c in set(chars) if not c.isspace() and is_tofu(c))


def test_font_files_exist_and_are_small() -> None:
    for bold in (False, True):
        path = assets.font_path(bold)
        assert path.is_file()
        assert path.read_bytes()[:4] == b"OTTO", "expected a CFF OpenType file"
        assert path.stat().st_size < 2.5 * 1024 * 1024


def test_font_loads_and_renders_chinese(font: pygame.font.Font) -> None:
    for text in SAMPLE_STRINGS:
        width, height = font.size(text)
        assert width > 0 and height > 0
        surface = font.render(text, True, (255, 255, 255))
        assert surface.get_width() > 0
        assert surface.get_bounding_rect().width > 0, "rendered nothing visible"


def test_tofu_detection_works(font: pygame.font.Font) -> None:
    # Thai and a private-use character are not in the subset: they must be flagged.
    assert _missing(font, "ก\ue001") == ["ก", "\ue001"]


def test_key_glyphs_present(font: pygame.font.Font) -> None:
    assert _missing(font, MUST_HAVE) == []
    assert _missing(font, "".join(SAMPLE_STRINGS)) == []


def test_gb2312_level1_and_symbols_covered() -> None:
    tool = _load_tool("make_font_subset")
    chars = tool.gb2312_level1_hanzi()
    assert len(chars) == 3755
    chars |= tool.gb2312_characters((1, 2, 3)) | tool.range_characters()
    pygame.font.init()
    font = pygame.font.Font(str(assets.font_path()), 12)
    assert _missing(font, chars) == []


def _cjk_like(char: str) -> bool:
    cp = ord(char)
    return (0x3400 <= cp <= 0x4DBF or 0x4E00 <= cp <= 0x9FFF or 0x3000 <= cp <= 0x303F
            or 0xFF01 <= cp <= 0xFFEF or 0x2660 <= cp <= 0x2667)


def test_source_characters_are_covered() -> None:
    """Chinese used in the project's sources must be in the font (rerun the tool if not)."""
    tool = _load_tool("make_font_subset")
    used = {c for c in tool.characters_in_files(tool.source_files(REPO_ROOT)) if _cjk_like(c)}
    pygame.font.init()
    for bold in (False, True):
        font = pygame.font.Font(str(assets.font_path(bold)), 12)
        missing = _missing(font, used)
        assert not missing, (
            f"characters used in the sources are missing from {assets.font_path(bold).name}: "
            f"{''.join(missing)} -- regenerate with: python tools/make_font_subset.py")


# ---------------------------------------------------------------------------------- sounds

def _read_wav(path: Path) -> tuple[Any, array]:
    """Return ``(wave params, 16-bit samples)`` of a WAV file."""
    with wave.open(str(path), "rb") as w:
        params = w.getparams()
        frames = w.readframes(params.nframes)
    samples = array("h")
    samples.frombytes(frames)
    if sys.byteorder == "big":
        samples.byteswap()
    return params, samples


@pytest.mark.parametrize("name", assets.SOUND_NAMES)
def test_sound_is_valid_wav(name: str) -> None:
    path = assets.sound_path(name)
    params, samples = _read_wav(path)
    assert params.nchannels == 1
    assert params.sampwidth == 2
    assert params.framerate in (22050, 44100)
    assert params.comptype == "NONE"
    assert 0 < params.nframes <= 1.2 * params.framerate
    assert len(samples) == params.nframes
    peak = max(abs(s) for s in samples)
    assert 1000 < peak < 32767, "silent or clipping"
    assert abs(samples[0]) < 200 and abs(samples[-1]) < 200, "should start and end at rest"


def test_sounds_total_size() -> None:
    total = sum(assets.sound_path(n).stat().st_size for n in assets.SOUND_NAMES)
    assert total < 600 * 1024


def test_sounds_match_generator() -> None:
    """The committed WAVs are what tools/make_sounds.py produces (±1 LSB for libm)."""
    tool = _load_tool("make_sounds")
    assert tuple(tool.EFFECTS) == assets.SOUND_NAMES
    for name in assets.SOUND_NAMES:
        params, samples = _read_wav(assets.sound_path(name))
        expected = array("h")
        expected.frombytes(tool.to_pcm16(tool.render(name, params.framerate)))
        if sys.byteorder == "big":
            expected.byteswap()
        assert len(expected) == len(samples), name
        assert max(abs(a - b) for a, b in zip(expected, samples)) <= 1, (
            f"{name}.wav is stale: regenerate with python tools/make_sounds.py")


def test_sounds_load_in_mixer() -> None:
    try:
        pygame.mixer.init(frequency=22050, size=-16, channels=1)
    except pygame.error as exc:  # some SDL builds have no usable dummy audio device
        pytest.skip(f"pygame.mixer unavailable here: {exc}")
    try:
        for name in assets.SOUND_NAMES:
            sound = pygame.mixer.Sound(str(assets.sound_path(name)))
            assert 0 < sound.get_length() <= 1.2 + 1e-3
    finally:
        pygame.mixer.quit()


# -------------------------------------------------------------------------- licences, API

def test_licence_files() -> None:
    ofl = assets.asset_path("fonts", "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in ofl
    assert "Adobe" in ofl
    assert assets.asset_path("fonts", "README.md").is_file()
    sounds = assets.asset_path("sounds", "LICENSE.md").read_text(encoding="utf-8")
    assert "CC0" in sounds and "public domain" in sounds
    for name in assets.SOUND_NAMES:
        assert f"`{name}.wav`" in sounds


def test_asset_path_helpers() -> None:
    base = assets.asset_path()
    assert base == Path(assets.__file__).resolve().parent or base.samefile(
        Path(assets.__file__).parent)
    assert assets.asset_path("sounds", "win.wav") == base / "sounds" / "win.wav"
    assert assets.asset_path("sounds/win.wav") == base / "sounds" / "win.wav"
    assert assets.font_path().parent == base / "fonts"
    assert assets.font_path(bold=True) != assets.font_path()
    for bad in (("..", "pyproject.toml"), ("/etc/passwd",), ("fonts/../../x",)):
        with pytest.raises(ValueError):
            assets.asset_path(*bad)
    with pytest.raises(KeyError):
        assets.sound_path("nope")
