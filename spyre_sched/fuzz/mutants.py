"""Mutation fuzzing of the command line: mutated shipped kernels, device files and bundle
files go through the commands that read them; every outcome must be success (exit 0) or a
located rejection (exit 1), never an internal error (exit 2), a traceback or a hang.

- `kernel`: a shipped kernel (examples/, tests' kernel folders, bench/kernels/quick/)
  mutated (`mutations.KERNEL`), then `check`, and `run --strategy heuristic` when check
  accepts it;
- `device`: a shipped device file mutated (`mutations.GENERIC`), then `device show`,
  `device route`, and `run` of a one-tile kernel on it;
- `bundle`: one file of a compiled bundle (each file in turn) mutated
  (`mutations.BUNDLE`), the manifest re-hashed for three mutants in four (so the mutated
  file's own reader sees it; the fourth tests the hash check), then `run BUNDLE`.

Mutant `i` of a campaign with seed `S` uses the mutation seed `S * 1_000_003 + i`, so a
campaign is deterministic. A failing mutant is saved to the output folder (a bundle as a
whole folder) with the command that shows the failure.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from emulator.bundle_files import MANIFEST, seal
from spyre_sched.fuzz.choices import Choices
from spyre_sched.fuzz.generator import generate
from spyre_sched.fuzz.mutations import BUNDLE, GENERIC, KERNEL, mutate
from spyre_sched.fuzz.commands import HANG, invoke

KINDS = ("kernel", "device", "bundle")
ROUTE_ENDPOINTS = ["ddr", "core0.lx", "core0.l1", "core3.lx", "core0.corelet1.sfu", "ring.stop5"]


def repo_root() -> Path:
    from spyre_sched.bench.suite import REPO_ROOT

    return REPO_ROOT


def shipped_kernels() -> list[Path]:
    root = repo_root()
    return sorted({*root.glob("examples/*.mlir"), *root.glob("tests/**/kernels/*.mlir"),
                   *root.glob("bench/kernels/quick/*.mlir")})


def shipped_devices() -> list[Path]:
    return sorted(repo_root().glob("devices/*.mlir"))


def small_kernel_text() -> str:
    """The generator's simplest kernel (an all-zero tape): one tile, one program."""
    return generate(Choices(tape=[])).text


@dataclass
class MutantCampaign:
    kind: str
    count: int
    seed: int
    out: Path = Path("fuzz-out")
    timeout: float | None = 60.0
    time_budget: float | None = None  # seconds after which no new mutant starts
    ran: int = 0
    counts: Counter = field(default_factory=Counter)
    failures: list[dict] = field(default_factory=list)
    commands: int = 0
    wall_s: float = 0.0

    def run(self, progress: bool = True) -> dict:
        import click

        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="spyre-mutants-") as tmp:
            work = Path(tmp)
            sources = self._sources(work)
            with click.progressbar(range(self.count), label=f"mutants ({self.kind})",
                                   file=click.get_text_stream("stderr"), show_pos=True) \
                    if progress else _Quiet(range(self.count)) as bar:
                for i in bar:
                    if self.time_budget and time.perf_counter() - started > self.time_budget:
                        break
                    self._one(i, sources, work)
                    self.ran += 1
        self.wall_s = time.perf_counter() - started
        return self.summary()

    # ---- one mutant -------------------------------------------------------------------

    def _sources(self, work: Path) -> list[Path]:
        if self.kind == "kernel":
            return shipped_kernels()
        if self.kind == "device":
            small = work / "small.mlir"
            small.write_text(small_kernel_text())
            return shipped_devices()
        bundles = []
        for k, (name, text) in enumerate(_bundle_kernels()):
            kernel = work / f"{name}.mlir"
            kernel.write_text(text)
            bundle = work / f"bundle{k}"
            code, output = self._invoke(["compile", str(kernel), "-o", str(bundle)])
            if code != 0:
                raise RuntimeError(f"cannot compile {name} into a bundle: {output}")
            bundles += [bundle / f.name for f in sorted(bundle.iterdir()) if f.is_file()]
        return bundles

    def _one(self, i: int, sources: list[Path], work: Path) -> None:
        source = sources[i % len(sources)]
        mutation_seed = self.seed * 1_000_003 + i
        steps = 1 + (i // len(sources)) % 2
        if self.kind == "bundle":
            bundle = work / f"mutant{i}"
            shutil.copytree(source.parent, bundle)
            target = bundle / source.name
            text = mutate(source.read_text(), mutation_seed, BUNDLE, steps)
            target.write_text(text)
            if source.name != MANIFEST and i % 4 != 3:
                # re-hashed, as a deliberate edit would be: without it every mutant of a
                # file stops at the manifest check and the file's reader is never tested
                seal(bundle)
            commands = [["run", str(bundle), *self._emulation_budget()]]
            self._judge(i, commands, source, {target.name: text}, bundle)
            shutil.rmtree(bundle, ignore_errors=True)
            return
        mutations = KERNEL if self.kind == "kernel" else GENERIC
        text = mutate(source.read_text(), mutation_seed, mutations, steps)
        path = work / f"mutant{i}.mlir"
        path.write_text(text)
        if self.kind == "kernel":
            code = self._judge(i, [["check", str(path)]], source, {path.name: text}, None)
            if code == 0:
                self._judge(i, [["run", str(path), "--strategy", "heuristic",
                                 *_runtime_args(text), *self._emulation_budget()]],
                            source, {path.name: text}, None)
        else:
            ends = [ROUTE_ENDPOINTS[(i + k) % len(ROUTE_ENDPOINTS)] for k in (0, 3)]
            small = str(work / "small.mlir")
            self._judge(i, [["device", "show", str(path)],
                            ["device", "route", str(path), *ends],
                            ["run", small, "--device", str(path), "--strategy", "heuristic",
                             *self._emulation_budget()]],
                        source, {path.name: text}, None)
        path.unlink(missing_ok=True)

    def _emulation_budget(self) -> list[str]:
        """`run`'s own wall-clock budget, a third of the command's timeout: a long
        emulation then ends in its clean exit 1 ("passed its time budget") before the
        campaign would call it a hang (compile and the reference run take the rest)."""
        if not self.timeout:
            return []
        return ["--max-seconds", f"{max(1.0, self.timeout / 3):g}"]

    def _invoke(self, args: list[str]) -> tuple[int, str]:
        self.commands += 1
        return invoke(args, self.timeout)

    def _judge(self, i, commands, source, texts, bundle) -> int:
        code = 0
        for args in commands:
            code, output = self._invoke(args)
            if code in (0, 1) and "Traceback" not in output:
                self.counts["exit 0" if code == 0 else "exit 1"] += 1
                continue
            status = "hang" if code == HANG else "exit 2" if code == 2 else f"exit {code}"
            self.counts[status] += 1
            self._save(i, args, source, texts, bundle, status, output)
        return code

    def _save(self, i, args, source, texts, bundle, status, output) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        if bundle is not None:
            saved = self.out / f"mutant-bundle-{i}"
            shutil.rmtree(saved, ignore_errors=True)
            shutil.copytree(bundle, saved)
        else:
            _, text = next(iter(texts.items()))
            saved = self.out / f"mutant-{self.kind}-{i}.mlir"
            saved.write_text(text)
        shown = []
        for arg in args:
            if arg.startswith(str(bundle or "\0")) or arg.endswith(f"mutant{i}.mlir"):
                arg = str(saved)
            elif arg.startswith(tempfile.gettempdir()) and Path(arg).is_file():
                helper = self.out / Path(arg).name  # the unmutated kernel a command ran
                shutil.copyfile(arg, helper)
                arg = str(helper)
            shown.append(arg)
        last = output.strip().splitlines()[-1] if output.strip() else ""
        self.failures.append({"mutant": i, "status": status, "source": str(source.relative_to(
            repo_root())) if source.is_relative_to(repo_root()) else str(source),
            "file": str(saved), "command": "spyre-sched " + " ".join(shown),
            "message": last[:300]})

    def summary(self) -> dict:
        summary = {"kind": self.kind, "count": self.ran, "skipped": self.count - self.ran,
                   "seed": self.seed,
                   "commands": self.commands, "wall_s": round(self.wall_s, 1),
                   "outcomes": dict(sorted(self.counts.items())), "failures": self.failures}
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / f"mutants-{self.kind}.json").write_text(json.dumps(summary, indent=2) + "\n")
        return summary


def _bundle_kernels() -> list[tuple[str, str]]:
    """Small kernels whose bundles are mutated: the generator's simplest, and a
    two-program one with a reduction and a scratchpad intermediate."""
    return [("simple", small_kernel_text()),
            ("softmax", (repo_root() / "tests/lower/kernels/softmax_96.mlir").read_text())]


def _runtime_args(text: str) -> list[str]:
    import re

    return [f"--runtime-arg={name}={g}" for name, g in re.findall(
        r"%(\w+)\s*:\s*!ktdp\.runtime_arg<index,\s*granularity\s*=\s*(\d+)", text)]


class _Quiet:
    def __init__(self, items):
        self.items = items

    def __enter__(self):
        return self.items

    def __exit__(self, *exc):
        return False


def table(summary: dict) -> str:
    skipped = (f" ({summary['skipped']} more skipped: the time budget ran out)"
               if summary.get("skipped") else "")
    lines = [f"fuzz --mutate {summary['kind']}: {summary['count']} mutants{skipped}, "
             f"{summary['commands']} commands, seed {summary['seed']}, wall "
             f"{summary['wall_s']:.0f} s",
             "outcomes: " + ", ".join(f"{k} {v}" for k, v in summary["outcomes"].items())]
    if summary["failures"]:
        lines.append("failures (exit 2, traceback or hang):")
        for f in summary["failures"]:
            lines.append(f"  mutant {f['mutant']} of {f['source']}: {f['status']}: "
                         f"{f['message']}\n    {f['command']}")
    else:
        lines.append("failures: none")
    return "\n".join(lines)
