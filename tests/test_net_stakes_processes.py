"""``hongwu host --headless --stake N`` with real processes on 127.0.0.1: the host and a
joining ``hongwu join --headless`` client both print the hand's clamped coins (RULES.md §12,
"Coins at a LAN table"); a 找朋友 or negative stake is refused with a reason."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from engine.coins import clamp_coins

from tests.test_net_e2e_processes import JOIN_PACE, LISTENING, ROOT, spawn  # noqa: F401 (fixture)

STAKE = 10_000_000
COINS = re.compile(r"^coins after hand 1: \[([^\]]*)\]$")


def test_a_headless_staked_host_and_its_joiner_print_the_clamped_coins(spawn):  # noqa: F811
    host = spawn("host", ["host", "--headless", "--bind", "127.0.0.1", "--port", "0",
                          "--no-discovery", "--no-user-plugins", "--hands", "1", "--seed", "7",
                          "--stake", str(STAKE), "--ai-delay", "0", "--auto-delay", "0.02",
                          "--ai", "0=first-legal", "--ai", "1=first-legal", "--ai", "2=first-legal"])
    port = int(host.wait_for(LISTENING.pattern, 30).group(1))
    zed = spawn("Zed", ["join", f"127.0.0.1:{port}", "--name", "Zed", "--seat", "3", "--headless",
                        "--no-user-plugins", *JOIN_PACE])
    line = zed.wait_for(r"^hand 1: dealer seat", 60).string
    gp = int(re.search(r"\[([^\]]*)\]", line).group(1).split(",")[3])
    mine = clamp_coins(gp * STAKE)
    expected = f"+0,+0,+0,{mine:+,}"
    assert zed.wait_for(COINS.pattern, 10).group(1) == expected
    assert host.wait_for(COINS.pattern, 30).group(1) == expected
    assert host.wait_exit(30) == 0


def test_stake_refusals():
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    base = [sys.executable, "-m", "game", "host", "--headless", "--bind", "127.0.0.1", "--port", "0",
            "--no-discovery", "--no-journal"]
    zpy = subprocess.run([*base, "--ruleset", "zhaopengyou", "--stake", "5"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert zpy.returncode == 2 and "找朋友 has no coins" in zpy.stderr
    neg = subprocess.run([*base, "--stake", "-1"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert neg.returncode == 2 and "0 or more" in neg.stderr
