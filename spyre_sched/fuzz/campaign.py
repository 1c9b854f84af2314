"""A differential fuzzing campaign: N generated kernels through the pipeline, outcomes
counted, each kind of failure shrunk to a minimal kernel written out as a regression test.

Kernel `i` of a campaign with seed `S` is drawn from the generator seeded with
`kernel_seed(S, i)` and launched with input seed `i`, so a campaign is deterministic and
any one kernel can be regenerated alone. `fuzz_one` is a module-level function of a
picklable `FuzzJob` returning plain data, so `spyre_sched.parallel.map_jobs` runs it in
worker processes (`--jobs`).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from spyre_sched.fuzz.choices import Choices
from spyre_sched.fuzz.generator import generate
from spyre_sched.fuzz.runner import FAILURES, SEVERITY, Config, configs_for, run_kernel
from spyre_sched.fuzz.shrinker import shrink

#: features whose failures are told apart when grouping (views that are not one dense
#: row-major window per pointer: the array-layout rule settles those)
LAYOUT_FEATURES = ("padded", "colmajor", "offset", "shared_pointer", "extra_view")


def kernel_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


@dataclass(frozen=True)
class FuzzJob:
    seed: int
    index: int
    without: tuple[str, ...] = ()
    timeout: float | None = 120.0
    deadline: float | None = None  # time.time() after which kernels are skipped
    log: str | None = None  # a JSON-lines file each kernel's entry is appended to


def fuzz_one(job: FuzzJob) -> dict:
    """Generate kernel `job.index` and run it: plain data for the campaign's summary
    (`{"index", "skipped": True}` once the campaign's time budget is spent)."""
    if job.deadline is not None and time.time() > job.deadline:
        return {"index": job.index, "skipped": True}
    kernel = generate(Choices(kernel_seed(job.seed, job.index), without=job.without))
    started = time.perf_counter()
    result = run_kernel(kernel.text, kernel.runtime_args, kernel.tiles, seed=job.index,
                        timeout=job.timeout)
    entry = {"index": job.index, "features": kernel.features, "grid": list(kernel.grid),
             "runtime_args": kernel.runtime_args, "tape": kernel.tape,
             "seconds": round(time.perf_counter() - started, 2), **result.as_dict()}
    if job.log:
        with open(job.log, "a") as log:  # one line per kernel, as they finish
            log.write(json.dumps(entry) + "\n")
    return entry


def signature(entry: dict, outcome: dict) -> tuple[str, str, str]:
    layout = "layout" if set(entry["features"]) & set(LAYOUT_FEATURES) else "dense"
    return (outcome["status"], outcome["reason"], layout)


@dataclass
class Campaign:
    count: int
    seed: int
    jobs: int = 1
    out: Path = Path("fuzz-out")
    timeout: float | None = 120.0
    without: tuple[str, ...] = ()
    shrink_budget: int = 40
    time_budget: float | None = None  # seconds after which no new kernel starts
    entries: list[dict] = field(default_factory=list)
    skipped: int = 0
    failures: list[dict] = field(default_factory=list)
    wall_s: float = 0.0

    def run(self, executor=None, progress: bool = True) -> dict:
        from spyre_sched.parallel import map_jobs

        started = time.perf_counter()
        deadline = time.time() + self.time_budget if self.time_budget else None
        self.out.mkdir(parents=True, exist_ok=True)
        log = self.out / "kernels.jsonl"
        log.write_text("")
        jobs = [FuzzJob(self.seed, i, self.without, self.timeout, deadline, str(log))
                for i in range(self.count)]
        entries = (executor or map_jobs)(fuzz_one, jobs, jobs=self.jobs, label="fuzz",
                                         progress=progress)
        self.entries = [e for e in entries if not e.get("skipped")]
        self.skipped = len(entries) - len(self.entries)
        self._shrink_failures()
        self.wall_s = time.perf_counter() - started
        summary = self.summary()
        (self.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        return summary

    # ---- failures -------------------------------------------------------------------

    def _groups(self) -> dict[tuple, list[tuple[dict, dict]]]:
        groups: dict[tuple, list[tuple[dict, dict]]] = {}
        for entry in self.entries:
            for outcome in entry["outcomes"]:
                if outcome["status"] in FAILURES:
                    groups.setdefault(signature(entry, outcome), []).append((entry, outcome))
        return groups

    def _shrink_failures(self) -> None:
        for number, (sig, members) in enumerate(sorted(self._groups().items()), 1):
            entry, outcome = members[0]
            config = _config(outcome["config"])
            tape, tries = entry["tape"], 0
            if self.shrink_budget:
                def still_fails(candidate, sig=sig, config=config):
                    return self._fails_alike(candidate, sig, config)
                tape, tries = shrink(entry["tape"], still_fails, self.shrink_budget)
            kernel = generate(Choices(tape=tape, without=self.without))
            path = self.out / f"{sig[0]}-{number}.mlir"
            self.out.mkdir(parents=True, exist_ok=True)
            path.write_text(_regression_text(kernel, sig, outcome, config, path, entry,
                                             self.seed, len(members)))
            self.failures.append({
                "status": sig[0], "reason": sig[1], "views": sig[2], "file": str(path),
                "kernels": sorted({e["index"] for e, _ in members}),
                "configs": sorted({o["config"] for _, o in members}),
                "detail": outcome["detail"][:500], "tape": [len(entry["tape"]), len(tape)],
                "shrink_tries": tries, "runtime_args": kernel.runtime_args})

    def _fails_alike(self, tape: list[int], sig: tuple, config: Config | None) -> bool:
        kernel = generate(Choices(tape=tape, without=self.without))
        if config is not None and config not in configs_for(kernel.tiles):
            return False
        result = run_kernel(kernel.text, kernel.runtime_args, kernel.tiles,
                            timeout=self.timeout, only=[config] if config else None,
                            stop_early=True)
        entry = {"features": kernel.features}
        return any(signature(entry, vars(o)) == sig for o in result.outcomes)

    # ---- counts ---------------------------------------------------------------------

    def summary(self) -> dict:
        kernels = Counter(e["status"] for e in self.entries)
        configs = Counter(o["status"] for e in self.entries for o in e["outcomes"])
        reasons = Counter(r for e in self.entries for r in sorted(
            {o["reason"] for o in e["outcomes"] if o["status"] == "out-of-scope"}))
        features = Counter(f for e in self.entries for f in e["features"])
        return {
            "count": len(self.entries), "skipped": self.skipped, "seed": self.seed,
            "jobs": self.jobs,
            "wall_s": round(self.wall_s, 1),
            "kernels": {s: kernels.get(s, 0) for s in SEVERITY},
            "configurations": {s: configs.get(s, 0) for s in SEVERITY},
            "out_of_scope_reasons": dict(reasons.most_common()),
            "features": dict(sorted(features.items())),
            "failures": self.failures,
            "per_kernel": [{k: e[k] for k in ("index", "status", "features", "seconds")}
                           for e in self.entries],
        }


def _config(text: str) -> Config | None:
    parts = text.split("/")
    return Config(*parts) if len(parts) == 3 else None


def _regression_text(kernel, sig, outcome, config, path, entry, seed, members) -> str:
    command = (config.command(str(path), kernel.runtime_args) if config else
               f"spyre-sched check {path}" + "".join(
                   f" --arg {k}={v}" for k, v in sorted(kernel.runtime_args.items())))
    detail = outcome["detail"].strip().splitlines()[:3]
    head = [f"// spyre-sched fuzz: {sig[0]} ({sig[1]}), views {sig[2]}",
            f"// first seen: campaign seed {seed}, kernel {entry['index']} "
            f"({members} configuration(s) failed alike), {outcome['config']}",
            *[f"//   {line}" for line in detail],
            "// shrunk; the minimal kernel's own outcome is what the command prints:",
            f"// {command}"]
    return "\n".join(head) + "\n" + kernel.text


def table(summary: dict) -> str:
    skipped = (f" ({summary['skipped']} more skipped: the time budget ran out)"
               if summary.get("skipped") else "")
    lines = [f"fuzz: {summary['count']} kernels{skipped}, seed {summary['seed']}, "
             f"{summary['jobs']} job(s), wall {summary['wall_s']:.0f} s"]
    lines.append("kernels:        " + ", ".join(f"{k} {v}" for k, v in summary["kernels"].items()))
    lines.append("configurations: " + ", ".join(
        f"{k} {v}" for k, v in summary["configurations"].items()))
    if summary["out_of_scope_reasons"]:
        lines.append("out of scope, by reason (kernels):")
        lines += [f"  {n:5d}  {r}" for r, n in summary["out_of_scope_reasons"].items()]
    if summary["failures"]:
        lines.append("failures (grouped by outcome, reason and views; the first of each "
                     "shrunk):")
        for f in summary["failures"]:
            lines.append(f"  {f['status']}: {f['reason']} ({f['views']} views) in "
                         f"{len(f['kernels'])} kernel(s) {f['kernels'][:8]}"
                         f"{'...' if len(f['kernels']) > 8 else ''}: {f['file']} "
                         f"(tape {f['tape'][0]} -> {f['tape'][1]}, {f['shrink_tries']} tries)")
    else:
        lines.append("failures: none")
    return "\n".join(lines)
