"""`spyre-sched fuzz`: the differential fuzzer (random kernels through the whole pipeline,
compared with the reference interpreter) and mutation fuzzing of kernels, device files and
bundles (docs/fuzzing.md)."""

from __future__ import annotations

from pathlib import Path

import click


def register(main: click.Group, reports_errors) -> None:
    from spyre_sched.fuzz.generator import FEATURES
    from spyre_sched.fuzz.mutants import KINDS

    @main.command("fuzz")
    @click.option("--count", type=click.IntRange(0), default=20, show_default=True,
                  help="Kernels generated (or mutants, with --mutate).")
    @click.option("--seed", type=int, default=0, show_default=True,
                  help="Campaign seed: the same seed gives the same kernels and outcomes.")
    @click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
                  help="Kernels run in parallel (worker processes).")
    @click.option("--out", "out", type=click.Path(file_okay=False), default="fuzz-out",
                  show_default=True,
                  help="Folder for shrunk failing kernels (.mlir) and summary.json.")
    @click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=120.0,
                  show_default=True,
                  help="Seconds one configuration (compile + emulate) may take before it "
                  "counts as a hang.")
    @click.option("--without", multiple=True, type=click.Choice(FEATURES), metavar="FEATURE",
                  help="Switch a generator feature off (repeatable): "
                  + ", ".join(FEATURES) + ".")
    @click.option("--shrink-budget", type=click.IntRange(0), default=40, show_default=True,
                  help="Pipeline runs spent shrinking each kind of failure (0: no shrinking).")
    @click.option("--time-budget", type=click.FloatRange(min=0, min_open=True), default=None,
                  metavar="SECONDS",
                  help="Start no new kernel (or mutant) after this many seconds; the "
                  "summary counts those that ran.")
    @click.option("--mutate", type=click.Choice(KINDS), default=None,
                  help="Mutation fuzzing instead: mutate shipped kernels, device files or "
                  "every file of compiled bundles; every outcome must be exit 0 or 1.")
    @reports_errors
    def fuzz(count, seed, jobs, out, timeout, without, shrink_budget, time_budget, mutate):
        """Generate COUNT random valid kernels, check each, compile it with both strategies
        and both objectives on both shipped devices (where the grid fits), emulate, compare
        with the reference and with the roofline bound; count outcomes (match, mismatch,
        below-bound, crash, hang, refused, unchecked, out-of-scope by reason) and shrink
        every kind of failure to a minimal kernel in --out. Exits 1 if any failure was
        found."""
        if mutate:
            from spyre_sched.fuzz.mutants import MutantCampaign, table

            summary = MutantCampaign(mutate, count, seed, Path(out), timeout,
                                     time_budget).run()
            click.echo(table(summary))
        else:
            from spyre_sched.fuzz.campaign import Campaign, table

            campaign = Campaign(count, seed, jobs, Path(out), timeout, tuple(without),
                                shrink_budget, time_budget)
            summary = campaign.run()
            click.echo(table(summary))
        name = f"mutants-{mutate}.json" if mutate else "summary.json"
        click.echo(f"summary: {Path(out) / name}")
        if summary["failures"]:
            raise SystemExit(1)
