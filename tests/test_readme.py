"""The README's example session and Python API run as written.

Every `$ ` line of the "Example session" block is run from the repository root; it must
exit 0, or 1 where the line says `# exits 1`. The Python API block is executed too.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _section(title: str) -> str:
    start = README.index(f"## {title}")
    end = README.find("\n## ", start + 1)
    return README[start:end if end != -1 else None]


def _session_commands() -> list[tuple[str, int]]:
    block = re.search(r"```text\n(.*?)```", _section("Example session"), re.S).group(1)
    commands = []
    for line in block.splitlines():
        if line.startswith("$ "):
            command = line[2:]
            expected = 1 if re.search(r"#\s*exits 1\s*$", command) else 0
            commands.append((re.sub(r"\s*#.*$", "", command), expected))
    return commands


COMMANDS = _session_commands()


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # The `spyre-sched` on PATH imports this checkout first.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_the_session_has_the_commands_a_new_user_needs():
    names = " ".join(c for c, _ in COMMANDS)
    for verb in ("check", "compile", "explain", "run", "bench"):
        assert f"spyre-sched {verb}" in names


def test_session_commands_run_in_order_with_their_exit_status(tmp_path):
    # One test: later lines use what earlier ones wrote (the bundle in /tmp).
    for command, expected in COMMANDS:
        done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=_env(),
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == expected, (command, done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stderr, command


def test_python_api_block_runs():
    code = re.search(r"```python\n(.*?)```", _section("Python API"), re.S).group(1)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["pip install -e \".[test]\" && spyre-sched run",
                                     "pip install -e \".[test]\" && pytest"])
def test_the_two_setup_commands_are_there(command):
    assert command in _section("Set-up: the two commands")
