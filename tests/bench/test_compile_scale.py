"""Compile work grows linearly with the number of programs: compiling a kernel of 2N
one-op programs makes at most twice the calls of one with N, for every function of this
project, and for the calls each of them makes to a library function (counted by
cProfile; calls are counted, never time). A step
that walks the whole module once per program, or looks a name up in a list per program,
makes N^2 calls and fails here. Also: the bench's kernels are valid and have N programs."""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path

import pytest

from spyre_sched.cli_bundle import write_output
from spyre_sched.frontend.kernel import parse_kernel
from spyre_sched.pipeline import schedule
from spyre_sched.schedule.common import programs

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from multi_program import KINDS  # noqa: E402

SMALL = 3
"""Programs of the smaller kernel (the larger has twice as many)."""
PER_ARGUMENT = {"_mentions_tile", "_index_value", "atom"}
"""Lowering helpers called once per program and kernel argument: every program's function
takes all of the kernel's arguments, and these kernels have a pointer per program, so
their calls grow as programs x pointers. Left as they are (docs/benchmarks.md says so);
every other function of this project must grow with the programs alone."""
PER_TOKEN = {"token_after", "resume_at"}
"""The located parser's per-token helpers (`xdsl_compat`): the bundle writer reads the
solved ScheduleIR back with it, and that text grows as programs x pointers here, like the
library parser's calls it stands in for."""
TRAVERSALS = {"walk", "lookup_symbol"}
"""Library functions that visit a whole region or symbol table: their calls from one of our
functions must grow with the programs too (a walk of the kernel once per program grows as
their square). Other library calls (a value's name, type or hash) may follow the kernel's
arguments (`PER_ARGUMENT`)."""
SLACK = 12
"""Calls a function may make beyond twice its count at SMALL (set and dict order varies
with the hash seed)."""


def _ours(filename: str) -> bool:
    """A function of this project. Library functions are left out: their calls follow the
    size of the IR, and every program's function takes all of the kernel's arguments, so
    the IR itself grows faster than the programs when each program has its own pointers
    (and xDSL's symbol look-up scans the module per call op)."""
    path = Path(filename).resolve()
    return any(path.is_relative_to(ROOT / room) for room in ("spyre_sched", "emulator"))


def _checked(key: tuple) -> bool:
    """A function of ours (not a per-argument helper), or a library traversal called from
    one: a walk of the whole kernel once per program shows as the walk's calls from that
    function growing as programs squared."""
    if len(key) == 2:
        return _checked(key[0]) and key[1][2] in TRAVERSALS
    return _ours(key[0]) and key[2] not in PER_ARGUMENT | PER_TOKEN


def _name(key: tuple) -> str:
    if len(key) == 2:
        return f"{_name(key[1])} from {_name(key[0])}"
    return f"{Path(key[0]).name}:{key[1]}({key[2]})"


def _calls(kind: str, n: int, tmp_path: Path) -> dict[tuple, int]:
    """Calls per function while `compile -o` compiles the `kind` kernel of n programs,
    and (keyed `(caller, callee)`) the calls a function of ours makes to a library one."""
    kernel = tmp_path / f"{kind}{n}.mlir"
    kernel.write_text(KINDS[kind](n))
    profile = cProfile.Profile()
    profile.enable()
    write_output(str(kernel), "spyre", str(tmp_path / f"{kind}{n}.bundle"), {})
    profile.disable()
    stats = pstats.Stats(profile).stats
    counts: dict[tuple, int] = {key: row[1] for key, row in stats.items()}
    for callee, row in stats.items():
        if _ours(callee[0]):
            continue
        for caller, (_, calls, *_) in row[4].items():
            if _ours(caller[0]):
                counts[(caller, callee)] = calls
    return counts


def test_compile_does_the_per_program_work_once_per_program(tmp_path: Path) -> None:
    kind = "chain"
    _calls(kind, 1, tmp_path)  # imports, device and context caches: not per program
    small = _calls(kind, SMALL, tmp_path)
    large = _calls(kind, 2 * SMALL, tmp_path)
    lowered = [n for key, n in large.items() if len(key) == 3 and key[2] == "lower_program"]
    assert lowered == [2 * SMALL]  # one lowering per program
    grew = sorted((n - 2 * small.get(key, 0), _name(key), small.get(key, 0), n)
                  for key, n in large.items()
                  if _checked(key) and n > 2 * small.get(key, 0) + SLACK)
    assert grew == [], "calls that grow faster than the programs (excess, function, " \
        f"{SMALL} programs, {2 * SMALL} programs): {grew[-10:]}"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_bench_kernels_have_n_programs(kind: str) -> None:
    kernel = parse_kernel(KINDS[kind](4), f"{kind}4.mlir")
    module = schedule(kernel, "spyre")
    assert len(list(programs(module))) == 4
