"""tools/screenshots.py drives the real client offscreen and writes non-blank PNGs; the
committed screenshots are listed in the README and stay small."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

pygame = pytest.importorskip("pygame")

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "docs" / "screenshots"


def _tool():
    spec = importlib.util.spec_from_file_location("hongwu_screenshots_tool", ROOT / "tools" / "screenshots.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _colours(path: Path, step: int = 7) -> int:
    img = pygame.image.load(str(path))
    w, h = img.get_size()
    return len({tuple(img.get_at((x, y)))[:3] for x in range(0, w, step * 3) for y in range(0, h, step)})


def test_small_run_writes_non_blank_pngs(tmp_path):
    tool = _tool()
    code = tool.main(["--out", str(tmp_path), "--lang", "en", "--size", "960x540",
                      "--scene", "menu", "--scene", "rules", "--scene", "trump", "--scene", "play",
                      "--scene", "settle"])
    assert code == 0
    files = sorted(p.name for p in tmp_path.glob("*.png"))
    assert files == ["menu_en.png", "play_en.png", "rules_en.png", "settle_en.png", "trump_en.png"]
    for p in tmp_path.glob("*.png"):
        img = pygame.image.load(str(p))
        assert img.get_size() == (960, 540)
        assert _colours(p) > 40, f"{p.name} looks blank"
    from game import i18n

    i18n.set_language("en")


def test_committed_screenshots_are_listed_and_small():
    pngs = sorted(SHOTS.glob("*.png"))
    if not pngs:
        pytest.skip("no screenshots generated yet (python tools/screenshots.py)")
    assert sum(p.stat().st_size for p in pngs) < 3 * 1024 * 1024
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Screenshots", 1)[1].split("\n## ", 1)[0]
    linked = set(re.findall(r"docs/screenshots/([\w.-]+\.png)", section))
    for p in pngs:
        w, h = pygame.image.load(str(p)).get_size()
        assert w <= 1280 and h <= 720
        assert p.name in linked, f"{p.name} is not shown in README.md"
    assert linked <= {p.name for p in pngs}
