"""The differential gate: every KTIR kernel the project ships (examples/ and every kernel
file anywhere under tests/) that the reference interpreter runs is also compiled,
emulated and compared with it, and must MATCH with at least one element compared.

Found by looking, not listed: a new kernel file joins by being added. A kernel file is an
.mlir file with a `func.func` using `ktdp` ops that is not a pass test's input (`// PASS:`
or `// RUN:` header) and not ScheduleIR or DataflowIR; a file defining several kernel
functions gives one case per function (`--func`).

What is refused instead must be refused with the exact message:
- a construct of the work on matmul, cross-core communication or indirect access
  (`UNSUPPORTED`): its "not supported yet" message (or a MATCH, once it is supported);
- a kernel `check` proves racy: the race refusal (its outputs depend on timing);
- a known gap of the compiler (`KNOWN_GAPS`): its message, as an expected failure that
  fails loudly once the kernel matches, so the entry is removed.

A kernel with scalar arguments names their values in a `// ARGS: NAME=VALUE ...` line: it
is compiled without them (they stay launch-time values in the bundle, as a caller's
arguments are) and the bundle is run with them.

A kernel that needs a device other than `spyre` names it in a `// DEVICE: PATH` line
(relative to the repository).
A kernel whose honest verdict is UNCHECKED (an overflow another order of a sum may avoid,
so some elements have no finite bound) says so in a `// VERDICT: UNCHECKED` line: it must
then be UNCHECKED with no element failing, every way it runs.

Default run: the solver with the latency objective, kernels of at most `DEFAULT_ELEMENTS`
elements per argument (larger ones are in the slow run). The slow run (`-m slow`) does
every kernel with both strategies x both objectives.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: construct (as written in the kernel) -> the refusal while it is not supported
UNSUPPORTED = {
    "ktdp.construct_indirect_access_tile": ("not supported yet: indirect",),
    "ktdp.construct_distributed_memory_view": (
        "not supported yet: reads from a part of a distributed view in another core's "
        "scratchpad that differs per tile",
        "not supported yet: stores into a part of a distributed view in another core's "
        "scratchpad that differs per tile",
        "not supported yet: an access through a distributed view that spans several of its parts",
        "not supported yet: a distributed view whose tiles reach different parts that do not "
        "form one view"),
    "ktdp.inter_tile_": (
        "not supported yet: inter-tile communication whose producer and consumer run",
        "not supported yet: a produce body that uses its group id"),
}
RACE = "a kernel with a proven race is not compiled"

#: kernel file (relative to the repository) -> the message of what the compiler does not
#: do yet for it
KNOWN_GAPS = {
    "tests/compat/kernels/argmax_rows.mlir": "not supported yet: element type i32",
    "tests/emulator/kernels/layernorm_fused.mlir":
        "not supported yet: a linalg.generic with several outputs",
}

#: larger kernels: the slow run only (each takes several seconds to compile and emulate)
DEFAULT_ELEMENTS = 1 << 16

_ARGS = re.compile(r"^// ARGS:(.*)$", re.MULTILINE)
_DEVICE = re.compile(r"^// DEVICE:\s*(\S+)\s*$", re.MULTILINE)
_UNCHECKED = re.compile(r"^// VERDICT:\s*UNCHECKED\s*$", re.MULTILINE)
_PASS_INPUT = re.compile(r"^// (PASS|RUN|ERROR):", re.MULTILINE)
_SCHEDULE_IR = re.compile(r"\bktdf\.(pipeline|stage|data_transfer|buffer)\b")
_FUNC = re.compile(r"^\s*func\.func\s+@([\w$.]+)\s*\(", re.MULTILINE)


def _kernel_files() -> list[Path]:
    found = []
    for path in sorted([*ROOT.glob("examples/*.mlir"), *ROOT.glob("tests/**/*.mlir")]):
        text = path.read_text(errors="replace")
        if "func.func" not in text or "ktdp." not in text:
            continue
        if _PASS_INPUT.search(text) or _SCHEDULE_IR.search(text):
            continue
        found.append(path)
    return found


def _cases() -> list[tuple[Path, str | None]]:
    cases = []
    for path in _kernel_files():
        names = _FUNC.findall(path.read_text(errors="replace"))
        cases.extend([(path, None)] if len(names) <= 1 else [(path, n) for n in names])
    return cases


CASES = _cases()


def _id(case: tuple[Path, str | None]) -> str:
    path, func = case
    return str(path.relative_to(ROOT)) + (f"@{func}" if func else "")


def _largest_argument(kernel) -> int:
    from spyre_sched.frontend.arguments import infer_arguments

    sizes = [1]
    for info in infer_arguments(kernel.func):
        count = 1
        for extent in info.shape or ():
            count *= extent or 1
        sizes.append(count)
    return max(sizes)


def _launch_args(path: Path) -> dict[str, int | float]:
    """The `// ARGS:` values of a kernel file (none: {})."""
    args: dict[str, int | float] = {}
    for line in _ARGS.findall(path.read_text(errors="replace")):
        for item in line.split():
            name, value = item.split("=", 1)
            args[name] = float(value) if any(c in value for c in ".eE") else int(value)
    return args


def _reference_runs(path: Path, func: str | None):
    """The kernel, if the reference interpreter runs it on seeded inputs; else skip."""
    from emulator.reference import make_inputs, run
    from spyre_sched.errors import SpyreSchedError
    from spyre_sched.frontend import load_kernel

    try:
        kernel = load_kernel(path, func)
        args = _launch_args(path)
        run(kernel, make_inputs(kernel, 0, args), args)
    except SpyreSchedError as err:
        pytest.skip(f"the reference does not run it: {str(err).splitlines()[0]}")
    return load_kernel(path, func)  # the run above may have annotated its module


def _check(path: Path, func: str | None, strategy: str, objective: str) -> None:
    import spyre_sched
    from spyre_sched.emulate import compile_bundle
    from spyre_sched.errors import SpyreSchedError

    text = path.read_text(errors="replace")
    expected = [message for construct, messages in UNSUPPORTED.items() if construct in text
                for message in messages]
    gap = KNOWN_GAPS.get(str(path.relative_to(ROOT)))
    args = _launch_args(path)
    named = _DEVICE.search(text)
    device = str(ROOT / named.group(1)) if named else None
    try:
        if args:  # compiled without the values, which the launch then gives
            with tempfile.TemporaryDirectory(prefix="spyre-gate-") as tmp:
                bundle = Path(tmp) / "bundle"
                compile_bundle(path, bundle, device or "spyre", objective, strategy, func=func)
                result = spyre_sched.run(str(bundle), {}, runtime_args=args, device=device)
        else:
            result = spyre_sched.run(str(path), {}, strategy=strategy, objective=objective,
                                     func=func, device=device)
    except SpyreSchedError as err:
        message = str(err)
        if expected and any(m in message for m in expected):
            return
        if RACE in message:
            return
        if gap is not None and gap in message:
            pytest.xfail(f"known gap: {gap}")
        raise
    if gap is not None and not result.matches and any(gap in m for m in result.mismatches):
        pytest.xfail(f"known gap: {gap}")
    if _UNCHECKED.search(text):
        assert result.verdict == "UNCHECKED" and not result.mismatches, result.mismatches
        return
    assert result.matches, result.mismatches
    compared = sum(c.exact + c.bounded for c in result.checks.values())
    assert compared > 0, "MATCH with no element compared"
    assert gap is None, f"{_id((path, func))} matches now: remove it from KNOWN_GAPS"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_kernel_matches_the_reference(case: tuple[Path, str | None]) -> None:
    path, func = case
    kernel = _reference_runs(path, func)
    if _largest_argument(kernel) > DEFAULT_ELEMENTS:
        pytest.skip(f"more than {DEFAULT_ELEMENTS} elements in an argument: the slow run")
    _check(path, func, "solver", "latency")


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
@pytest.mark.parametrize("objective", ["latency", "memory"])
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_kernel_matches_the_reference_every_way(case, strategy: str, objective: str) -> None:
    path, func = case
    _reference_runs(path, func)
    _check(path, func, strategy, objective)


def test_the_gate_finds_the_kernels() -> None:
    """The discovery sees the kernels of every directory that ships them, and no pass
    test input."""
    seen = {str(p.relative_to(ROOT)) for p, _ in CASES}
    for expected in ("examples/add_96x64.mlir", "tests/normalize/kernels/plain_copy.mlir",
                     "tests/emulator/kernels/scale_rows.mlir",
                     "tests/compat/kernels/triton_add.mlir",
                     "tests/layout/kernels/two_views.mlir"):
        assert expected in seen
    assert not any(s.startswith(("tests/schedule/passes/", "tests/normalize/passes/"))
                   for s in seen)
    for gap in KNOWN_GAPS:
        assert gap in seen, f"KNOWN_GAPS names {gap}, which is not a kernel file"
