"""Mutation fuzzing of the command line: a mutated kernel or device file is accepted
(exit 0) or rejected with a located diagnostic (exit 1), never an internal error (exit 2)
or a traceback, and never a hang.

The default run executes a fixed, modest set of mutants; `pytest -m slow` runs thousands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from spyre_sched import cli
from spyre_sched.fuzz.commands import invoke
from spyre_sched.fuzz.mutations import GENERIC, KERNEL, mutate

ROOT = Path(__file__).resolve().parents[2]
KERNELS = sorted(ROOT.glob("examples/*.mlir")) + sorted(ROOT.glob("tests/**/kernels/*.mlir"))
DEVICES = sorted(ROOT.glob("devices/*.mlir"))
SAMPLE_DEVICE = ROOT / "devices" / "sample_device.mlir"
ENDPOINTS = ["ddr", "core0.lx", "core0.l1", "core3.lx", "core0.corelet1.sfu",
             "core3.corelet0.sfu", "ring.stop5", "core99.lx", "core0", "", ".", "core0.corelet9.sfu"]
#: reference runs only mutants whose arguments hold at most this many elements in all
REFERENCE_ELEMENTS = 1 << 20
#: seconds a single command may take before the mutant counts as a hang (the long,
#: opt-in fuzzing only: the default tests never depend on wall-clock time)
HANG_SECONDS = 20
_RUNTIME_ARG = re.compile(r"%(\w+)\s*:\s*!ktdp\.runtime_arg<index,\s*granularity\s*=\s*(\d+)")


@dataclass
class Outcome:
    watchdog: bool = False  # report commands slower than HANG_SECONDS as hangs
    runs: int = 0
    references: int = 0
    failures: list[str] = field(default_factory=list)


def _invoke(args: list[str], watchdog: bool) -> tuple[int, str]:
    return invoke(args, HANG_SECONDS if watchdog else None)


def _run(outcome: Outcome, args: list[str], label: str, keep: Path, text: str) -> int:
    code, output = _invoke(args, outcome.watchdog)
    outcome.runs += 1
    if code not in (0, 1) or "Traceback" in output:
        saved = keep / f"mutant{len(outcome.failures)}.mlir"
        saved.write_text(text)
        first = output.strip().splitlines()[-1] if output.strip() else ""
        outcome.failures.append(f"{label} [{' '.join(args[:2])}] exit {code}: {first} (saved {saved})")
    return code


def _small_enough(path: Path) -> bool:
    """The mutant loads and its arguments are small: a reference run stays quick."""
    from spyre_sched.frontend import load_kernel
    from spyre_sched.frontend.arguments import infer_arguments

    try:
        kernel = load_kernel(path)
        total = 0
        for arg in infer_arguments(kernel.func):
            dims = [d if d is not None else u for d, u in
                    zip(arg.shape or (), arg.upper_bounds or (None,) * len(arg.shape or ()))]
            if any(d is None for d in dims):
                return False
            count = 1
            for d in dims:
                count *= max(d, 0)
            total += count
    except Exception:  # check has already judged this mutant; reference is not needed
        return False
    return total <= REFERENCE_ELEMENTS


def fuzz(count: int, tmp_path: Path, first_seed: int = 0, watchdog: bool = False) -> Outcome:
    outcome = Outcome(watchdog=watchdog)
    kernel_path = tmp_path / "k.mlir"
    device_path = tmp_path / "dev.mlir"
    sources = [(p, KERNEL) for p in KERNELS] + [(p, GENERIC) for p in DEVICES]
    for seed in range(first_seed, first_seed + count):
        source, mutations = sources[seed % len(sources)]
        original = source.read_text()
        text = mutate(original, seed, mutations, steps=1 + (seed // len(sources) % 4 == 3))
        label = f"{source.relative_to(ROOT)} seed {seed}"
        if source in DEVICES:
            device_path.write_text(text)
            _run(outcome, ["device", "show", str(device_path)], label, tmp_path, text)
            ends = [ENDPOINTS[(seed + k) % len(ENDPOINTS)] for k in (0, 3)]
            _run(outcome, ["device", "route", str(device_path), *ends], label, tmp_path, text)
            if seed % 4 == 0:
                _run(outcome, ["check", str(KERNELS[0]), "--device", str(device_path)],
                     label, tmp_path, text)
            continue
        kernel_path.write_text(text)
        device = ["--device", str(SAMPLE_DEVICE)] if seed % 5 == 0 else []
        _run(outcome, ["check", str(kernel_path), *device], label, tmp_path, text)
        if _small_enough(kernel_path):
            runtime = [f"--runtime-arg={name}={g}" for name, g in _RUNTIME_ARG.findall(text)]
            outcome.references += 1
            # (a small mutant may still loop for minutes: the interpreter's own budget,
            # well inside the hang limit, ends it with a located error)
            _run(outcome, ["reference", str(kernel_path), *runtime, *device,
                           "--max-seconds", str(HANG_SECONDS // 2)], label, tmp_path, text)
    return outcome


@pytest.fixture(autouse=True)
def _no_debug(monkeypatch):
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)


def test_every_source_is_fuzzed():
    assert len(KERNELS) >= 20 and len(DEVICES) == 2


def test_unmutated_sources_never_fail_internally(tmp_path):
    outcome = fuzz(0, tmp_path)
    for path in KERNELS:
        _run(outcome, ["check", str(path)], str(path), tmp_path, path.read_text())
    for path in DEVICES:
        _run(outcome, ["device", "show", str(path)], str(path), tmp_path, path.read_text())
    assert outcome.failures == []


@pytest.mark.slow
def test_mutants_never_fail_internally(tmp_path):
    outcome = fuzz(150, tmp_path)
    assert outcome.references > 20
    assert outcome.failures == []


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_many_mutants_never_fail_internally(tmp_path, block):
    outcome = fuzz(600, tmp_path, first_seed=1000 + 600 * block, watchdog=True)
    print(f"block {block}: {outcome.runs} runs, {outcome.references} reference runs")
    assert outcome.failures == [], "\n".join(outcome.failures)
