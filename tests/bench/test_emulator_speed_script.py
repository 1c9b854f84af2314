"""`bench/emulator_speed.py` at a small size: every launch is checked bit for bit and
reported with its ratio to numpy's own f16 add of as many elements, timed in the same run
(the speed goal is stated against it). Nothing here asserts on time."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_each_launch_is_checked_and_given_as_a_ratio_to_numpys_add():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "emulator_speed.py"), "--rows", "256", "--cols", "512",
         "--repeat", "2"], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    launches = [line for line in done.stdout.splitlines() if line.startswith("launch ")]
    assert len(launches) == 2
    for line in launches:
        assert line.endswith("correct"), line
        ratio = re.search(r"\(([0-9.]+) of numpy's f16 add at ([0-9]+) M elements/s\)", line)
        assert ratio and float(ratio.group(1)) > 0 and int(ratio.group(2)) > 0, line
    summary = re.search(r"ratio to numpy's f16 add: median ([0-9.]+)", done.stdout)
    assert summary and float(summary.group(1)) > 0, done.stdout
