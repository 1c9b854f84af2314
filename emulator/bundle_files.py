"""A bundle folder read the way a runtime must read it: every file through the manifest.

`manifest.json` (docs/bundle.md) lists every file of the bundle with its sha256 and size.
`BundleFiles(folder)` refuses, naming the file, a folder without a readable manifest, a
manifest entry without its hash, a listed file that is missing, not a plain file or whose
bytes differ, and the files every bundle has (`REQUIRED`) not being listed. Every read
afterwards names a file by its plain name, which must be listed (a job plan's `file` or
schedule.json's `kernel_file` cannot leave the folder: no absolute paths, no `..`, no
subfolders), and the bytes read are checked against the hash again, so what is parsed is
what was checked. Files in the folder that the manifest does not list are never read.

The manifest protects a bundle from being used after an accidental or partial edit, not
from a deliberate one: `seal(folder)` re-hashes a folder someone edited on purpose (a
hand-made bundle, a test that corrupts one).
"""

from __future__ import annotations

import hashlib
import json
import re
import stat
from pathlib import Path

from spyre_sched.errors import ParseError

MANIFEST = "manifest.json"
MANIFEST_FORMAT = "spyre-sched.manifest/1"
#: the files every bundle has (kernel.mlir is optional: a bundle lowered from ScheduleIR
#: alone has none, and then cannot be checked against the reference)
REQUIRED = ("global.mlir", "jobplan.json", "symbols.json", "schedule.json")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def plain_name(name) -> bool:
    """A file name inside the folder itself: no separator, not `.`/`..`, not hidden tricks."""
    return (isinstance(name, str) and name not in ("", ".", "..") and "/" not in name
            and "\\" not in name and "\0" not in name)


def read_json_text(data: bytes, where: str):
    """JSON from bytes, with errors at FILE:LINE:COL; never a RecursionError."""
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise ParseError(f"not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start})",
                         where) from None
    except json.JSONDecodeError as err:
        raise ParseError(f"not valid JSON: {err.msg}", f"{where}:{err.lineno}:{err.colno}") from None
    except RecursionError:
        raise ParseError("not readable: its JSON is nested too deeply", where) from None
    except ValueError as err:  # e.g. an integer longer than Python converts
        raise ParseError(f"not readable: {err}", where) from None


class BundleFiles:
    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise ParseError(f"{self.folder} is not a bundle folder", str(self.folder))
        manifest_path = self.folder / MANIFEST
        where = str(manifest_path)
        try:
            data = manifest_path.read_bytes()
        except FileNotFoundError:
            raise ParseError(f"the bundle has no {MANIFEST} (the list of its files and their "
                             "hashes): compile it again, or `emulator.bundle_files.seal` a "
                             "hand-made one", str(self.folder)) from None
        except OSError as err:
            raise ParseError(f"cannot read {MANIFEST}: {err.strerror or err}", where) from None
        doc = read_json_text(data, where)
        if not isinstance(doc, dict) or doc.get("format") != MANIFEST_FORMAT:
            raise ParseError(f"format: expected \"{MANIFEST_FORMAT}\"", where)
        listed = doc.get("files")
        if not isinstance(listed, dict):
            raise ParseError("files: expected an object of file name -> {sha256, bytes}", where)
        self.hashes: dict[str, str] = {}
        for name, entry in listed.items():
            field = f"files[{json.dumps(name)}]"
            if not plain_name(name) or name == MANIFEST:
                raise ParseError(f"{field}: not a file of the bundle folder (a plain file "
                                 "name, no path)", where)
            if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str) \
                    or not _SHA256.fullmatch(entry["sha256"]):
                raise ParseError(f"{field}.sha256: missing or not a sha256 in hex: every file "
                                 "of a bundle has its hash", where)
            size = entry.get("bytes")
            if size is not None and (isinstance(size, bool) or not isinstance(size, int)):
                raise ParseError(f"{field}.bytes: expected an integer", where)
            self.hashes[name] = entry["sha256"]
        for name in REQUIRED:
            if name not in self.hashes:
                raise ParseError(f"files: {name} is not listed; every bundle has it", where)
        for name in sorted(self.hashes):
            self.read(name)

    def has(self, name: str) -> bool:
        return name in self.hashes

    def path(self, name: str) -> Path:
        return self.folder / name

    def read(self, name, referenced_by: tuple[str, str] | None = None) -> bytes:
        """The bytes of a listed file, checked against the manifest. `referenced_by`
        (file, field), e.g. ("jobplan.json", "prepare[0].file"), locates a reference to a
        name that is not a file of the bundle."""
        if not plain_name(name) or name not in self.hashes:
            what = json.dumps(name) if isinstance(name, str) else repr(name)
            where = str(self.folder / referenced_by[0]) if referenced_by else str(self.folder)
            field = f"{referenced_by[1]}: " if referenced_by else ""
            raise ParseError(f"{field}{what} is not a file of the bundle ({MANIFEST} lists "
                             f"{', '.join(sorted(self.hashes))}; files are plain names inside "
                             "the bundle folder)", where)
        path = self.folder / name
        try:
            mode = path.lstat().st_mode
            if not stat.S_ISREG(mode):
                raise ParseError(f"{name} is not a plain file", str(path))
            data = path.read_bytes()
        except FileNotFoundError:
            raise ParseError(f"the bundle has no {name}, which {MANIFEST} lists",
                             str(self.folder)) from None
        except OSError as err:
            raise ParseError(f"cannot read {name}: {err.strerror or err}", str(path)) from None
        got = hashlib.sha256(data).hexdigest()
        if got != self.hashes[name]:
            raise ParseError(f"{name} does not match its sha256 in {MANIFEST} ({got[:12]}... "
                             f"vs {self.hashes[name][:12]}...): the file was changed after "
                             "the bundle was written", str(path))
        return data

    def text(self, name, referenced_by: tuple[str, str] | None = None) -> str:
        data = self.read(name, referenced_by)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ParseError(f"not UTF-8 text (byte 0x{data[err.start]:02x} at offset "
                             f"{err.start})", str(self.folder / name)) from None

    def json(self, name: str) -> dict:
        doc = read_json_text(self.read(name), str(self.folder / name))
        if not isinstance(doc, dict):
            raise ParseError("expected a JSON object", str(self.folder / name))
        return doc


def seal(folder: str | Path) -> Path:
    """Write `manifest.json` for every plain file of `folder` as it is now (a hand-made or
    deliberately edited bundle); returns the manifest's path."""
    folder = Path(folder)
    listed = {}
    for path in sorted(folder.iterdir()):
        if path.name != MANIFEST and path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            listed[path.name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    manifest = folder / MANIFEST
    manifest.write_text(json.dumps({"format": MANIFEST_FORMAT, "files": listed}, indent=2) + "\n")
    return manifest
