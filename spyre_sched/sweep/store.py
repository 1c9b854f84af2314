"""A sweep's output folder: what it holds, and the rule that nothing else is touched.

    OUT/sweep.json     the sweep (its jobs' definition) and its device points
    OUT/devices/       one device file per point (d00.mlir, ...)
    OUT/rows.jsonl     one JSON row per finished job, appended as each job ends
    OUT/rows.csv       the same rows in the sweep's order, the scalar fields only
    OUT/summary.txt    the summary table
    OUT/plots/         --plot's PNGs

OUT may be missing (created), an empty folder, or a sweep folder this command wrote
(recognised by sweep.json's format and holding only the names above), and then only with
--resume, for the same sweep. Anything else is refused before a byte is written.

A row is one line written by one `write` on a file opened for appending, then flushed to
disk: a kill can at worst leave the last line torn, and reading drops a torn last line
(that job runs again). rows.csv and summary.txt are replaced whole (written beside, then
renamed), never left half-written.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from spyre_sched.errors import UsageError

FORMAT = "spyre-sched.sweep/1"
SWEEP = "sweep.json"
ROWS = "rows.jsonl"
CSV = "rows.csv"
SUMMARY = "summary.txt"
DEVICES = "devices"
PLOTS = "plots"
_OURS = {SWEEP, ROWS, CSV, SUMMARY, DEVICES, PLOTS}


def _listing(names: list[str]) -> str:
    shown = ", ".join(names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")


class SweepFolder:
    def __init__(self, path: str | Path):
        self.path = Path(path)

    # ---- claiming the folder ----------------------------------------------------------

    def open(self, header: dict, resume: bool) -> None:
        """Claim OUT/ for this sweep (see the module docstring), or refuse saying why."""
        where = str(self.path)
        if self.path.exists() and not self.path.is_dir():
            raise UsageError(f"the output folder {where} is a file, not a folder")
        entries = sorted(os.listdir(self.path)) if self.path.is_dir() else []
        if entries:
            self._check_ours(entries)
            if not resume:
                raise UsageError(f"{where} already holds a sweep: continue it with --resume, "
                                 "or write to a new folder")
            old = self._header()
            if old.get("sweep") != header["sweep"]:
                raise UsageError(f"{where} holds another sweep (its kernels, device, "
                                 "parameters, strategies, objectives, seed or time limit "
                                 "differ from this sweep file's): --resume continues the "
                                 "same sweep only; write to a new folder")
        self.path.mkdir(parents=True, exist_ok=True)
        (self.path / DEVICES).mkdir(exist_ok=True)
        self._replace(SWEEP, json.dumps(header, indent=2) + "\n")

    def _check_ours(self, entries: list[str]) -> None:
        where = str(self.path)
        if SWEEP not in entries:
            raise UsageError(f"the output folder {where} is not empty and is not a sweep "
                             f"folder (it has no {SWEEP}): it holds {_listing(entries)}")
        try:
            header = json.loads((self.path / SWEEP).read_text())
            assert header["format"] == FORMAT
        except Exception:
            raise UsageError(f"{where}/{SWEEP} is not a spyre-sched sweep header") from None
        others = [e for e in entries if e not in _OURS and not e.startswith(".sweep-")]
        for sub, suffix in ((DEVICES, ".mlir"), (PLOTS, ".png")):
            folder = self.path / sub
            if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
                others.append(sub)
            elif folder.is_dir():
                others += [f"{sub}/{e}" for e in sorted(os.listdir(folder))
                           if not e.endswith(suffix) or not (folder / e).is_file()]
        if others:
            raise UsageError(f"{where} is a sweep folder but also holds {_listing(others)}, "
                             "which spyre-sched did not write: move them out first")

    def _header(self) -> dict:
        return json.loads((self.path / SWEEP).read_text())

    # ---- writing ------------------------------------------------------------------

    def _replace(self, name: str, text: str) -> None:
        temporary = self.path / f".sweep-{name}.tmp"
        temporary.write_text(text)
        os.replace(temporary, self.path / name)

    def write_device(self, point: str, text: str) -> Path:
        path = self.path / DEVICES / f"{point}.mlir"
        if path.exists() and path.read_text() != text:
            raise UsageError(f"{path} differs from the device this sweep writes for point "
                             f"{point}: it was edited; move it out to resume")
        if not path.exists():
            temporary = self.path / DEVICES / f".sweep-{point}.tmp"
            temporary.write_text(text)
            os.replace(temporary, path)
        return path

    def append_row(self, row: dict) -> None:
        line = (json.dumps(row, sort_keys=False) + "\n").encode()
        fd = os.open(self.path / ROWS, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)

    def read_rows(self) -> list[dict]:
        """The rows written so far; a torn last line (a kill mid-write) is cut off."""
        path = self.path / ROWS
        if not path.exists():
            return []
        data = path.read_bytes()
        rows, good_end = [], 0
        for number, line in enumerate(data.split(b"\n"), 1):
            end = good_end + len(line) + 1
            if not line.strip():
                good_end = min(end, len(data))
                continue
            try:
                row = json.loads(line)
                if not isinstance(row, dict) or "key" not in row:
                    raise ValueError
            except ValueError:
                if end > len(data):  # the last line, without its newline: torn
                    break
                raise UsageError(f"{path}:{number}: not a sweep row (the file was edited?)") \
                    from None
            if end > len(data):  # a complete row whose newline was not written
                break
            rows.append(row)
            good_end = end
        if good_end < len(data):
            with open(path, "r+b") as f:
                f.truncate(good_end)
        return rows

    def write_csv(self, rows: list[dict], columns: list[str]) -> Path:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore",
                                lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in columns})
        self._replace(CSV, out.getvalue())
        return self.path / CSV

    def write_summary(self, text: str) -> Path:
        self._replace(SUMMARY, text + "\n")
        return self.path / SUMMARY

    def plots_folder(self) -> Path:
        folder = self.path / PLOTS
        folder.mkdir(exist_ok=True)
        return folder
