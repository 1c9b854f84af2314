"""A sweep file -> its device points and jobs, every device written and validated first.

Points are named d00, d01, ... in the order of the parameters' cartesian product; jobs
run kernel by kernel, then point, strategy and objective (the order of the rows in
rows.csv). A point whose device the loader refuses stops the sweep before any job runs,
with the loader's reason and the parameter values that made it.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from spyre_sched.errors import DeviceError, UsageError
from spyre_sched.sweep.device_points import BaseDevice, ParameterError
from spyre_sched.sweep.job import SweepJob, job_key
from spyre_sched.sweep.spec import SweepSpec, parameter_location


@dataclass(frozen=True)
class Point:
    name: str
    values: dict[str, int]
    text: str


def device_points(spec: SweepSpec) -> list[Point]:
    base = BaseDevice(spec.base_device)
    for name, _ in spec.parameters:
        try:
            base.check(name)
        except ParameterError as err:
            raise UsageError(f"parameter '{name}': {err}",
                             parameter_location(spec, name)) from None
    combos = spec.device_points()
    width = max(2, len(str(len(combos) - 1)))
    points = [Point(f"d{k:0{width}d}", values, base.variant(values))
              for k, values in enumerate(combos)]
    _validate(spec, base, points)
    return points


def _validate(spec: SweepSpec, base: BaseDevice, points: list[Point]) -> None:
    """Load every point's device as any device file is loaded; a refused one is reported
    at the first parameter whose value alone makes the base device invalid."""
    from spyre_sched.device import load_device

    with tempfile.TemporaryDirectory(prefix="spyre-sweep-devices-") as tmp:
        written = iter(range(1 << 30))

        def refusal(text: str) -> DeviceError | None:
            # A new name each time: the loader caches by path and modification time.
            path = Path(tmp) / f"point{next(written)}.mlir"
            path.write_text(text)
            try:
                load_device(path)
            except DeviceError as err:
                return err
            return None

        for point in points:
            err = refusal(point.text)
            if err is None:
                continue
            culprit = next((name for name, value in point.values.items()
                            if refusal(base.variant({name: value})) is not None),
                           spec.parameters[0][0])
            values = ", ".join(f"{k} = {v}" for k, v in point.values.items())
            raise UsageError(f"device point {point.name} ({values}) is not a valid device: "
                             f"{err.message}", parameter_location(spec, culprit))


def jobs(spec: SweepSpec, points: list[Point]) -> list[SweepJob]:
    from spyre_sched.bench.suite import REPO_ROOT

    out = []
    for kernel_file in spec.kernels:
        path = Path(kernel_file)
        try:
            shown = str(path.relative_to(REPO_ROOT))
        except ValueError:
            shown = str(path)
        text = path.read_text()
        for point in points:
            for strategy in spec.strategies:
                for objective in spec.objectives:
                    out.append(SweepJob(
                        key=job_key(path.stem, point.name, strategy, objective),
                        kernel=path.stem, kernel_file=shown, kernel_text=text,
                        device=point.name, device_text=point.text,
                        parameters=tuple(point.values.items()), strategy=strategy,
                        objective=objective, seed=spec.seed, timeout=spec.timeout))
    return out
