"""``hongwu ... | head``: when the reader of standard output goes away, the command stops
quietly with status 141 (128 + SIGPIPE), as Unix tools do, and prints no traceback. Real
subprocesses, both result-line printers (红五 demo and 找朋友 hands)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import BROKEN_PIPE_STATUS

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [
    ["play", "--seats", "random,random,random,random", "--hands", "5000", "--speed", "instant"],
    ["play", "--ruleset", "zhaopengyou", "--seats", "random,random,random,random,random",
     "--hands", "5000", "--speed", "instant"],
])
def test_a_closed_pipe_ends_the_command_quietly(tmp_path, args):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               HONGWU_CONFIG_DIR=str(tmp_path / "config"), HONGWU_DATA_DIR=str(tmp_path / "data"),
               HONGWU_STATE_DIR=str(tmp_path / "state"), PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "game", *args, "--no-user-plugins"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        proc.stdout.close()                      # the reader goes away, as `head -1` does
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert first.startswith("hand 1: ")
    assert proc.returncode == BROKEN_PIPE_STATUS, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err
