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
               "spyre_sched.errors", "spyre_sched.schedule.common", "spyre_sched.xdsl_compat")
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


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path, modules: set[str]) -> set[str]:
    """The project modules `path` imports anywhere in it (a function's body too)."""
    import ast

    package = _module_of(path) if path.name == "__init__.py" else _module_of(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # `from package import module` is an edge to the module, not the package
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                     for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
    return found


def test_no_import_circles():
    """No module of the project imports, directly or through others, a module that
    imports it back: each layer can be read, tested and replaced on its own."""
    paths = {_module_of(p): p for p in SOURCES}
    graph = {m: _imported_modules(p, set(paths)) - {m} for m, p in paths.items()}
    circles = []
    for start in sorted(graph):
        # a path from one of start's imports back to start closes a circle through it
        seen, frontier, parent = set(), [start], {}
        while frontier:
            node = frontier.pop()
            for nxt in sorted(graph[node]):
                if nxt == start:
                    chain = [node]
                    while chain[-1] != start:
                        chain.append(parent[chain[-1]])
                    circles.append(" -> ".join([start, *reversed(chain[:-1]), start]))
                    frontier = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    parent[nxt] = node
                    frontier.append(nxt)
    assert circles == []
