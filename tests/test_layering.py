"""Layering rules that keep upgrades and rooms contained: islpy is used only inside the
polyhedral layer, and xDSL's private API only in spyre_sched/xdsl_compat.py."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*ROOT.glob("spyre_sched/**/*.py"), *ROOT.glob("emulator/**/*.py")])
PRIVATE_XDSL = re.compile(
    r"\._current_token\b|\._parse_optional_token\b|\._parser_state\b|\._parse_affine_expr\b"
    r"|\._ssa_values\b|\bMLIRLexer\b|\bParserState\b")


def _offenders(pattern: re.Pattern, allowed) -> list[str]:
    found = []
    for path in SOURCES:
        rel = path.relative_to(ROOT).as_posix()
        if allowed(rel):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_islpy_stays_inside_the_polyhedral_layer():
    uses = _offenders(re.compile(r"^\s*(import islpy|from islpy)"),
                      lambda rel: rel.startswith("spyre_sched/polyhedral/"))
    assert uses == []


def test_xdsl_private_api_is_wrapped_in_one_module():
    uses = _offenders(PRIVATE_XDSL, lambda rel: rel == "spyre_sched/xdsl_compat.py")
    assert uses == []
