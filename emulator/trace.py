"""Chrome / Perfetto trace-event JSON of an emulated launch.

One process per core (plus one for device-level units), one thread (track) per unit, a
complete ("X") slice per instruction or transfer, a slice per stall (category "stall"),
and a counter ("C") track per FIFO with its occupancy in entries. Timestamps are in
microseconds of device time (cycles / clock), as the format expects; open the file in
ui.perfetto.dev or chrome://tracing.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from spyre_sched.device.model import natural_key
from spyre_sched.errors import ExecutionError


def _core_of(name: str) -> str:
    match = re.match(r"(core\d+)\.", name)
    return match.group(1) if match else "device"


class TraceRecorder:
    def __init__(self, clock_hz: int = 1_000_000_000):
        self.scale = 1e6 / clock_hz  # microseconds per cycle
        self.slices: list[tuple[str, str, str, int, int, dict | None]] = []
        self.fifos: dict[str, list[tuple[int, int]]] = {}

    # ---- recording (called by the simulator) ------------------------------------------

    def slice(self, unit: str, name: str, start: int, cycles: int, args: dict | None = None) -> None:
        self.slices.append((unit, "busy", name, start, cycles, args))

    def stall(self, unit: str, kind: str, start: int, end: int, what: str) -> None:
        label = {"in": "stalled on input", "out": "stalled on output",
                 "shared": "waits for shared bandwidth"}.get(kind, kind)
        self.slices.append((unit, "stall", label, start, end - start, {"waits": what}))

    def fifo_counter(self, name: str) -> list[tuple[int, int]]:
        samples = self.fifos.setdefault(name, [(0, 0)])
        return samples

    # ---- output -------------------------------------------------------------------------

    def events(self) -> list[dict]:
        units = sorted({s[0] for s in self.slices}, key=natural_key)
        cores = sorted({_core_of(u) for u in units} | {_core_of(f) for f in self.fifos},
                       key=lambda c: (c == "device", natural_key(c)))
        pid = {c: i + 1 for i, c in enumerate(cores)}
        tid = {u: i + 1 for i, u in enumerate(units)}
        out: list[dict] = []
        for core in cores:
            out.append({"ph": "M", "name": "process_name", "pid": pid[core], "tid": 0,
                        "args": {"name": core}})
            out.append({"ph": "M", "name": "process_sort_index", "pid": pid[core], "tid": 0,
                        "args": {"sort_index": pid[core]}})
        for unit in units:
            out.append({"ph": "M", "name": "thread_name", "pid": pid[_core_of(unit)],
                        "tid": tid[unit], "args": {"name": unit}})
            out.append({"ph": "M", "name": "thread_sort_index", "pid": pid[_core_of(unit)],
                        "tid": tid[unit], "args": {"sort_index": tid[unit]}})
        s = self.scale
        for unit, cat, name, start, cycles, args in self.slices:
            event = {"ph": "X", "cat": cat, "name": name, "pid": pid[_core_of(unit)],
                     "tid": tid[unit], "ts": start * s, "dur": cycles * s}
            if args:
                event["args"] = args
            out.append(event)
        for name in sorted(self.fifos, key=natural_key):
            last = None
            for time, count in sorted(self.fifos[name], key=lambda sample: sample[0]):
                if count == last:
                    continue
                last = count
                out.append({"ph": "C", "name": f"FIFO {name}", "pid": pid[_core_of(name)],
                            "ts": time * s, "args": {"entries": count}})
        return out

    def write(self, path: str | os.PathLike, metadata: dict | None = None) -> Path:
        path = Path(path)
        doc = {"traceEvents": self.events(), "displayTimeUnit": "ns"}
        if metadata:
            doc["otherData"] = metadata
        try:
            # a fresh name beside the target (never a file of the user's), then renamed
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                       dir=path.parent)
        except OSError as err:
            raise ExecutionError(f"cannot write the trace: {err.strerror or err}",
                                 str(path)) from None
        try:
            with os.fdopen(fd, "w") as fh:
                json.dump(doc, fh, separators=(",", ":"))
            os.chmod(tmp, 0o666 & ~_umask())
            os.replace(tmp, path)
        except OSError as err:
            os.unlink(tmp)
            raise ExecutionError(f"cannot write the trace: {err.strerror or err}",
                                 str(path)) from None
        except BaseException:
            os.unlink(tmp)
            raise
        return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
