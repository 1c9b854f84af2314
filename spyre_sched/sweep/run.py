"""A sweep, run: plan, claim the output folder, run the jobs not done yet on the chosen
backend (each row kept as its job ends), then the CSV, the summary and the plots."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from spyre_sched.sweep.job import ROW_FIELDS, run_job
from spyre_sched.sweep.plan import device_points, jobs as plan_jobs
from spyre_sched.sweep.spec import read_sweep
from spyre_sched.sweep.store import FORMAT, SweepFolder
from spyre_sched.sweep.summary import table


@dataclass
class SweepOutcome:
    rows: list[dict]
    ran: int
    skipped: int
    summary: str
    files: list[Path]


class SweepInterrupted(KeyboardInterrupt):
    """The sweep was interrupted; the rows of the jobs that ended are in its folder."""

    def __init__(self, kept: int, total: int, folder: Path):
        super().__init__(f"sweep interrupted: the rows of {kept} of {total} jobs are in "
                         f"{folder / 'rows.jsonl'}; the same command with --resume runs "
                         f"the rest")


def csv_columns(parameters: list[str]) -> list[str]:
    return ["kernel", "file", "device", *parameters,
            *[f for f in ROW_FIELDS if f not in ("kernel", "device")]]


def run_sweep(sweep_file: str, out: str, *, backend: str = "local", address: str | None = None,
              jobs: int | None = None, resume: bool = False, plot: bool = False,
              progress: bool = True) -> SweepOutcome:
    from spyre_sched.bench.measure import pipeline_available
    from spyre_sched.parallel import executor

    spec = read_sweep(sweep_file)
    points = device_points(spec)
    planned = plan_jobs(spec, points)
    run_jobs = executor(backend, address)  # a missing Ray is reported before any write
    pipeline_available()
    parameters = [name for name, _ in spec.parameters]
    if plot:
        from spyre_sched.sweep.plot import pyplot_or_error

        pyplot_or_error()  # a missing matplotlib is reported before the jobs run, not after

    folder = SweepFolder(out)
    header = {"format": FORMAT, "sweep": spec.as_dict(),
              "devices": {p.name: p.values for p in points}}
    folder.open(header, resume)
    for point in points:
        folder.write_device(point.name, point.text)
    keys = {job.key for job in planned}
    done = {row["key"]: row for row in folder.read_rows() if row["key"] in keys}
    todo = [job for job in planned if job.key not in done]

    def keep(index: int, row: dict) -> None:
        folder.append_row(row)
        done[row["key"]] = row

    if todo:
        try:
            run_jobs(run_job, todo, jobs=jobs, label=f"sweep: {len(todo)} jobs",
                     progress=progress, on_result=keep)
        except KeyboardInterrupt:
            raise SweepInterrupted(len(done), len(planned), folder.path) from None
    rows = [done[job.key] for job in planned]
    files = [folder.write_csv(rows, csv_columns(parameters))]
    summary = table(rows, parameters, list(spec.strategies))
    files.append(folder.write_summary(summary))
    if plot:
        from spyre_sched.sweep.plot import write_plots

        title = f"{Path(sweep_file).stem} on {Path(spec.base_device).stem}"
        files += write_plots(rows, parameters, folder.plots_folder(), title)
    return SweepOutcome(rows, len(todo), len(planned) - len(todo), summary, files)
