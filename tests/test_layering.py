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


def _project_imports(rel_dir: str) -> list[tuple[str, str]]:
    """(file, imported spyre_sched/emulator module) for every import under rel_dir."""
    found = []
    pattern = re.compile(r"^\s*(?:from|import)\s+((?:spyre_sched|emulator)[\w.]*)")
    for path in sorted(ROOT.glob(f"{rel_dir}/**/*.py")):
        for line in path.read_text().splitlines():
            match = pattern.match(line)
            if match:
                found.append((path.relative_to(ROOT).as_posix(), match.group(1)))
    return found


def test_normal_form_imports_only_its_rooms():
    allowed = ("spyre_sched.normalize", "spyre_sched.dialects", "spyre_sched.polyhedral",
               "spyre_sched.errors", "spyre_sched.schedule.common")
    bad = [f"{rel}: {mod}" for rel, mod in _project_imports("spyre_sched/normalize")
           if not mod.startswith(allowed)]
    assert bad == []


def test_scheduler_passes_do_not_import_the_normal_form():
    bad = [f"{rel}: {mod}" for rel, mod in _project_imports("spyre_sched/schedule")
           if mod.startswith("spyre_sched.normalize")]
    assert bad == []


def test_only_the_command_line_and_tests_import_the_fuzzer():
    """spyre_sched/fuzz drives the compiler and the emulator through their public entry
    points (like spyre_sched/bench); nothing below it may depend on it."""
    uses = _offenders(re.compile(r"^\s*(from|import) spyre_sched\.fuzz\b"),
                      lambda rel: rel.startswith("spyre_sched/fuzz/") or rel == "spyre_sched/cli_fuzz.py")
    assert uses == []


def test_the_fuzzer_imports_nothing_private_of_the_passes():
    """It reaches the pipeline through spyre_sched.emulate / api / roofline, the device
    model and the front end, never through a pass's module."""
    fuzz = sorted(ROOT.glob("spyre_sched/fuzz/*.py"))
    private = re.compile(r"^\s*(from|import) (spyre_sched\.(schedule|solve|lower)|emulator\.device)\b")
    uses = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in fuzz
            for n, line in enumerate(p.read_text().splitlines(), 1) if private.search(line)]
    assert uses == []
