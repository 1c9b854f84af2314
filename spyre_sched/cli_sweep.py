"""`spyre-sched sweep`: many kernels on many devices, on the local pool or Ray
(docs/benchmarks.md, "Design-space sweeps")."""

from __future__ import annotations

import click


def register(main: click.Group, reports_errors) -> None:
    @main.command("sweep")
    @click.argument("sweep_file", metavar="SWEEP.toml")
    @click.option("-o", "--out", "out", required=True, type=click.Path(),
                  help="Output folder: rows.jsonl, rows.csv, summary.txt, devices/, plots/.")
    @click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                  show_default=True, help="Where jobs run: a local process pool or Ray.")
    @click.option("--address", default=None, metavar="ADDR",
                  help="Ray cluster to join (e.g. auto, or ray://host:10001); default: a "
                  "local Ray started for the run.")
    @click.option("--jobs", type=click.IntRange(1), default=None,
                  help="Jobs at once (default: the machine's cores, or the cluster's CPUs).")
    @click.option("--resume", is_flag=True,
                  help="Continue the sweep in --out: skip the jobs whose rows are there.")
    @click.option("--plot", is_flag=True,
                  help="Draw cycles and ratio to bound per parameter and the Pareto front "
                  "to --out/plots/ (needs matplotlib: pip install -e \".[plot]\").")
    @reports_errors
    def sweep(sweep_file: str, out: str, backend: str, address: str | None, jobs: int | None,
              resume: bool, plot: bool) -> None:
        """Compile, solve, emulate and check every kernel of SWEEP.toml on every device
        point it describes; one row per job. Exits 1 if any result is wrong."""
        from spyre_sched.sweep.run import SweepInterrupted, run_sweep

        try:
            outcome = run_sweep(sweep_file, out, backend=backend, address=address, jobs=jobs,
                                resume=resume, plot=plot)
        except SweepInterrupted as stop:
            click.echo(f"\n{stop}", err=True)
            raise SystemExit(130) from None  # (the shell's code for an interrupt)
        click.echo(outcome.summary)
        if outcome.skipped:
            click.echo(f"resumed: {outcome.skipped} jobs were done already, "
                       f"{outcome.ran} ran now")
        for path in outcome.files:
            click.echo(f"wrote {path}")
        if any(r["status"] == "mismatch" for r in outcome.rows):
            raise SystemExit(1)
