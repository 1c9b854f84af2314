"""The sweep file (TOML, read with the standard library's tomllib): what to run.

    [kernels]
    suite = "quick"                 # the bench suite: "full" or "quick" shapes
    only = ["add", "softmax"]       # optional: these suite kernels only
    files = ["../add_96x64.mlir"]   # and/or kernel files (relative to the sweep file)

    [device]
    base = "spyre"                  # a shipped device or a path (relative to this file)

    [parameters]                    # figures of the device file to vary (device_points.py)
    "lx.size" = ["256KiB", "1MiB", "4MiB"]                   # a list
    "ddr.bandwidth" = { from = 75, to = 300, factor = 2 }    # a geometric range
    "*->*.queue.depth" = { from = 4, to = 16, step = 4 }     # an arithmetic range

    [run]
    strategies = ["solver", "heuristic"]    # default: both
    objectives = ["latency"]                # default: latency
    seed = 0                                # the random inputs
    timeout = 600                           # seconds per job (0: none)

Devices are the cartesian product of the parameters' values, in file order. Values are
non-negative integers, or sizes written like the command line's (`256KiB`, `4MiB`). Every
mistake is reported at FILE:LINE:COL of the key or value at fault.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from spyre_sched.errors import SourceLocation, SpyreSchedError, UsageError

STRATEGIES = ("solver", "heuristic")
OBJECTIVES = ("latency", "throughput")
_TABLES = {"kernels": ("suite", "only", "files"), "device": ("base",), "parameters": None,
           "run": ("strategies", "objectives", "seed", "timeout")}
_RANGE_KEYS = ("from", "to", "step", "factor")
#: the most devices one sweep may name (a typo in a range must not plan a million jobs)
MAX_DEVICES = 10_000


@dataclass(frozen=True)
class SweepSpec:
    path: str
    kernels: tuple[str, ...]
    """Kernel files (absolute)."""
    base_device: str
    parameters: tuple[tuple[str, tuple[int, ...]], ...]
    strategies: tuple[str, ...]
    objectives: tuple[str, ...]
    seed: int = 0
    timeout: float = 600.0
    suite: str | None = None
    points: tuple[tuple[int, ...], ...] = field(default=(), compare=False)

    def device_points(self) -> list[dict[str, int]]:
        names = [name for name, _ in self.parameters]
        return [dict(zip(names, values))
                for values in itertools.product(*(v for _, v in self.parameters))]

    def as_dict(self) -> dict:
        """What identifies the sweep's jobs (compared on --resume)."""
        return {"kernels": list(self.kernels), "base_device": self.base_device,
                "parameters": {name: list(values) for name, values in self.parameters},
                "strategies": list(self.strategies), "objectives": list(self.objectives),
                "seed": self.seed, "timeout": self.timeout}


class _Located:
    """Positions of keys in the TOML text (tomllib keeps none): the line of `key =` under
    the `[table]` header, found by scanning; the file's start when it cannot be found."""

    def __init__(self, path: Path, text: str):
        self.path, self.lines = str(path), text.splitlines()

    def at(self, table: str | None, key: str | None = None) -> SourceLocation:
        start = 0
        if table is not None:
            header = re.compile(r"^\s*\[\s*" + re.escape(table) + r"\s*\]")
            for n, line in enumerate(self.lines):
                if header.match(line):
                    start = n
                    break
            else:
                return SourceLocation(self.path, 1, 1)
        if key is None:
            return SourceLocation(self.path, start + 1, 1)
        pattern = re.compile(r"^\s*(?:\"" + re.escape(key) + r"\"|'" + re.escape(key) + r"'|"
                             + re.escape(key) + r")\s*=")
        for n in range(start, len(self.lines)):
            if n > start and re.match(r"^\s*\[", self.lines[n]):
                break
            if pattern.match(self.lines[n]):
                return SourceLocation(self.path, n + 1,
                                      len(self.lines[n]) - len(self.lines[n].lstrip()) + 1)
        return SourceLocation(self.path, start + 1, 1)


def _size(value, what: str, where: SourceLocation) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise UsageError(f"{what}: expected an integer or a size such as 256KiB, "
                         f"got {value!r}", where)
    if isinstance(value, int):
        # 0 is a figure too (a latency); the device loader refuses it where it is not.
        if value < 0:
            raise UsageError(f"{what}: expected a non-negative integer, got {value}", where)
        return value
    match = re.fullmatch(r"\s*(\d+)\s*(?:([kmgt])(i)?b?|b)?\s*", value, re.IGNORECASE)
    if match is None or int(match.group(1)) <= 0:
        raise UsageError(f"{what}: expected a positive size such as 256KiB, 4MiB or 1000000, "
                         f"got '{value}'", where)
    power = "kmgt".index(match.group(2).lower()) + 1 if match.group(2) else 0
    return int(match.group(1)) * (1024 if match.group(3) else 1000) ** power


def _values(name: str, raw, where: SourceLocation) -> tuple[int, ...]:
    what = f"parameter '{name}'"
    if isinstance(raw, list):
        if not raw:
            raise UsageError(f"{what}: the list of values is empty", where)
        values = [_size(v, what, where) for v in raw]
    elif isinstance(raw, dict):
        unknown = [k for k in raw if k not in _RANGE_KEYS]
        if unknown or "from" not in raw or "to" not in raw:
            raise UsageError(f"{what}: a range is {{ from = A, to = B, step = S }} or "
                             f"{{ from = A, to = B, factor = F }}"
                             + (f" (unknown key {unknown[0]})" if unknown else ""), where)
        if "step" in raw and "factor" in raw:
            raise UsageError(f"{what}: a range has a step or a factor, not both", where)
        low, high = _size(raw["from"], what, where), _size(raw["to"], what, where)
        if "factor" in raw and low == 0:
            raise UsageError(f"{what}: a geometric range starts above 0", where)
        if high < low:
            raise UsageError(f"{what}: the range ends ({high}) below its start ({low})", where)
        values = []
        if "factor" in raw:
            factor = raw["factor"]
            if isinstance(factor, bool) or not isinstance(factor, (int, float)) or factor <= 1:
                raise UsageError(f"{what}: factor must be a number above 1, got {factor!r}",
                                 where)
            v = float(low)
            while round(v) <= high and len(values) <= MAX_DEVICES:
                values.append(round(v))
                v *= factor
        else:
            step = raw.get("step", 1)
            if isinstance(step, bool) or not isinstance(step, int) or step <= 0:
                raise UsageError(f"{what}: step must be a positive integer, got {step!r}",
                                 where)
            values = list(range(low, high + 1, step))[:MAX_DEVICES + 1]
    else:
        values = [_size(raw, what, where)]
    if len(set(values)) != len(values):
        raise UsageError(f"{what}: a value is repeated in {values}", where)
    return tuple(values)


def _string_list(raw, allowed: tuple[str, ...] | None, what: str,
                 where: SourceLocation) -> tuple[str, ...]:
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not raw or not all(isinstance(v, str) for v in raw):
        raise UsageError(f"{what}: expected a non-empty list of strings, got {raw!r}", where)
    if allowed is not None:
        bad = [v for v in raw if v not in allowed]
        if bad:
            raise UsageError(f"{what}: unknown '{bad[0]}'; expected {', '.join(allowed)}", where)
    if len(set(raw)) != len(raw):
        raise UsageError(f"{what}: a name is repeated", where)
    return tuple(raw)


def read_sweep(path: str | Path) -> SweepSpec:
    """The sweep file, checked (not the device figures: `plan` checks those against the
    base device)."""
    from spyre_sched.bench.suite import suite_kernels

    path = Path(path)
    if path.is_dir():
        raise UsageError(f"the sweep file is a directory: {path}")
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise UsageError(f"sweep file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(f"cannot read the sweep file {path}: {err}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(err))
        where = (SourceLocation(str(path), int(match.group(1)), int(match.group(2)))
                 if match else SourceLocation(str(path), 1, 1))
        raise UsageError(f"not a valid TOML sweep file: {message}", where) from None
    at = _Located(path, text)
    for table, value in data.items():
        if table not in _TABLES:
            raise UsageError(f"unknown table [{table}]; a sweep file has "
                             + ", ".join(f"[{t}]" for t in _TABLES), at.at(table))
        if not isinstance(value, dict):
            raise UsageError(f"'{table}' must be a table [{table}]", at.at(None, table))
        keys = _TABLES[table]
        if keys is not None:
            for key in value:
                if key not in keys:
                    raise UsageError(f"unknown key '{key}' in [{table}]; expected "
                                     + ", ".join(keys), at.at(table, key))
    here = path.resolve().parent

    kernels_table = data.get("kernels", {})
    kernels: list[Path] = []
    suite = kernels_table.get("suite")
    if suite is not None:
        if suite not in ("full", "quick"):
            raise UsageError(f"[kernels] suite: expected \"full\" or \"quick\", got {suite!r}",
                             at.at("kernels", "suite"))
        only = _string_list(kernels_table["only"], None, "[kernels] only",
                            at.at("kernels", "only")) if "only" in kernels_table else ()
        try:
            kernels += suite_kernels(suite == "quick", only)
        except SpyreSchedError as err:  # no such suite kernel
            raise UsageError(err.message, at.at("kernels", "only")) from None
    elif "only" in kernels_table:
        raise UsageError("[kernels] only picks suite kernels: it needs suite = \"full\" or "
                         "\"quick\"", at.at("kernels", "only"))
    for name in (_string_list(kernels_table["files"], None, "[kernels] files",
                              at.at("kernels", "files")) if "files" in kernels_table else ()):
        file = (here / name).resolve()
        if not file.is_file():
            raise UsageError(f"[kernels] files: no kernel file {name} (looked for {file})",
                             at.at("kernels", "files"))
        kernels.append(file)
    if not kernels:
        raise UsageError("the sweep names no kernels: give [kernels] suite = \"quick\" (or "
                         "\"full\") and/or files = [...]", at.at("kernels"))
    stems = [k.stem for k in kernels]
    repeated = sorted({s for s in stems if stems.count(s) > 1})
    if repeated:
        raise UsageError(f"[kernels]: two kernels are named {repeated[0]} (rows name kernels "
                         "by file name)", at.at("kernels"))

    base = data.get("device", {}).get("base", "spyre")
    if not isinstance(base, str) or not base:
        raise UsageError(f"[device] base: expected a device name or path, got {base!r}",
                         at.at("device", "base"))
    if base.endswith(".mlir") or "/" in base:
        base = str((here / base).resolve())

    parameters = []
    for name, raw in data.get("parameters", {}).items():
        parameters.append((name, _values(name, raw, at.at("parameters", name))))
    count = 1
    for _, values in parameters:
        count *= len(values)
    if count > MAX_DEVICES:
        raise UsageError(f"the parameters make {count} devices, more than a sweep may have "
                         f"({MAX_DEVICES})", at.at("parameters"))

    run = data.get("run", {})
    strategies = _string_list(run.get("strategies", list(STRATEGIES)), STRATEGIES,
                              "[run] strategies", at.at("run", "strategies"))
    objectives = _string_list(run.get("objectives", ["latency"]), OBJECTIVES,
                              "[run] objectives", at.at("run", "objectives"))
    seed = run.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise UsageError(f"[run] seed: expected a non-negative integer, got {seed!r}",
                         at.at("run", "seed"))
    timeout = run.get("timeout", 600)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout < 0:
        raise UsageError(f"[run] timeout: expected seconds (0: none), got {timeout!r}",
                         at.at("run", "timeout"))
    return SweepSpec(path=str(path), kernels=tuple(str(k) for k in kernels),
                     base_device=base, parameters=tuple(parameters),
                     strategies=strategies, objectives=objectives, seed=seed,
                     timeout=float(timeout), suite=suite)


def parameter_location(spec: SweepSpec, name: str) -> SourceLocation:
    """Where a parameter is in the sweep file (for errors found against the device)."""
    path = Path(spec.path)
    return _Located(path, path.read_text()).at("parameters", name)
