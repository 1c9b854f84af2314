"""Mutation fuzzing of bundles: every file of a bundle mutated (JSON values replaced,
removed or nested deep; text lines lost, repeated or cut), with the manifest sealed again
or not, then `spyre-sched run BUNDLE/`: a match, a mismatch or a located error (exit 0
or 1), never an internal error (exit 2) or a traceback.

The default run executes a fixed set of mutants; `pytest -m slow` runs many more."""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from emulator.bundle_files import seal
from spyre_sched.fuzz.mutations import GENERIC, JSON, mutate
from test_mutations import _invoke

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "lower" / "fixtures" / "add_96x64_bundle"
FILES = sorted(p.name for p in FIXTURE.iterdir())


@dataclass
class Outcome:
    runs: int = 0
    by_exit: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def fuzz(count: int, tmp_path: Path, first_seed: int = 0, watchdog: bool = False) -> Outcome:
    outcome = Outcome()
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        name = FILES[seed % len(FILES)]
        bundle = tmp_path / f"m{seed}"
        shutil.copytree(FIXTURE, bundle)
        original = (bundle / name).read_text()
        mutations = JSON if name.endswith(".json") else GENERIC
        text = mutate(original, seed, mutations, steps=1 + (seed % 7 == 6))
        (bundle / name).write_text(text)
        resealed = name != "manifest.json" and rng.random() < 0.75
        if resealed:  # a deliberate edit: the checks past the manifest are under test
            seal(bundle)
        code, output = _invoke(["run", str(bundle)], watchdog)
        outcome.runs += 1
        outcome.by_exit[code] = outcome.by_exit.get(code, 0) + 1
        if code not in (0, 1) or "Traceback" in output:
            kept = tmp_path / f"failed_{seed}_{name}"
            kept.write_text(text)
            last = output.strip().splitlines()[-1] if output.strip() else ""
            outcome.failures.append(f"seed {seed} {name} (resealed: {resealed}) exit {code}: "
                                    f"{last} (saved {kept})")
        else:
            shutil.rmtree(bundle)
    return outcome


def test_bundle_mutants_never_fail_internally(tmp_path):
    outcome = fuzz(2 * len(FILES), tmp_path)
    assert outcome.failures == [], "\n".join(outcome.failures)
    assert outcome.by_exit.get(1, 0) >= len(FILES)  # most mutants are refused, located


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_many_bundle_mutants_never_fail_internally(tmp_path, block):
    outcome = fuzz(200, tmp_path, first_seed=1000 + 200 * block, watchdog=True)
    print(f"block {block}: {outcome.runs} runs, exits {outcome.by_exit}")
    assert outcome.failures == [], "\n".join(outcome.failures)


def test_a_value_used_before_its_definition_is_a_located_error(tmp_path):
    """A line moved below its first use (found by bundle mutants, seed 32): xDSL parses the
    forward reference and its verifier does not check dominance; the emulator ran the use
    first and failed inside its generated code (exit 2)."""
    bundle = tmp_path / "bundle"
    shutil.copytree(FIXTURE, bundle)
    path = bundle / "local_schedule_0.mlir"
    lines = path.read_text().splitlines(keepends=True)
    at = next(k for k, line in enumerate(lines) if "%A0 = symbol.create_symbol" in line)
    last = max(k for k, line in enumerate(lines) if "%A0" in line and k != at)
    lines.insert(last, lines.pop(at))  # now after every use
    path.write_text("".join(lines))
    seal(bundle)
    code, output = _invoke(["run", str(bundle)], False)
    assert code == 1, output
    assert "local_schedule_0.mlir:" in output and "before it is defined" in output
