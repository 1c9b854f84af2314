"""Putting a bundle's files into OUT/ without touching anything the compiler did not write.

OUT/ may be a path that does not exist yet (created, with its parents), an empty folder
(filled), or a bundle this tool wrote, which is replaced: it is recognised by its
`manifest.json`, and every other entry in it must be a plain file the manifest lists,
with the bytes the manifest records (a file the user added or edited is the user's).
Anything else is refused before a byte is written: a file, `""`, a folder holding
anything more, a folder that cannot be read.

The swap happens inside OUT/: the new files are first written beside the old ones under
hidden temporary names, the old bundle's files are renamed aside, the new ones renamed
into place with `manifest.json` last (a half-swapped folder is never a complete bundle
for a runtime), and only then are the old ones deleted. Any failure on the way takes the
new files out and puts the old ones back. Only names the old manifest lists are ever
deleted.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import stat
from pathlib import Path

from spyre_sched.errors import UsageError

MANIFEST = "manifest.json"
MANIFEST_FORMAT = "spyre-sched.manifest/1"


def manifest_bytes(files: dict[str, bytes]) -> bytes:
    """manifest.json for these files: each one's sha256 and size, names sorted."""
    listed = {name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
              for name, data in sorted(files.items())}
    return (json.dumps({"format": MANIFEST_FORMAT, "files": listed}, indent=2) + "\n").encode()


class _Refused(Exception):
    pass


def _old_bundle_files(folder: Path) -> list[str]:
    """The entries of an existing folder the writer may replace: [] for an empty folder,
    the bundle's files (manifest first) for a bundle it wrote; refuses anything else."""
    entries = sorted(os.listdir(folder))
    if not entries:
        return []
    if MANIFEST not in entries:
        raise _Refused(f"the folder is not empty and is not a bundle (it has no {MANIFEST}): "
                       f"it holds {_listing(folder, entries)}")
    try:
        manifest = json.loads((folder / MANIFEST).read_bytes())
        listed = manifest["files"]
        assert manifest["format"] == MANIFEST_FORMAT and isinstance(listed, dict)
        hashes = {name: entry["sha256"] for name, entry in listed.items()}
    except Exception:
        raise _Refused(f"the folder holds a {MANIFEST} that is not a spyre-sched bundle "
                       "manifest") from None
    others = [e for e in entries if e != MANIFEST and e not in hashes]
    if others:
        raise _Refused(f"the folder is a bundle but also holds {_listing(folder, others)}, "
                       f"which its {MANIFEST} does not list")
    old = []
    for name in entries:
        path = folder / name
        if not stat.S_ISREG(path.lstat().st_mode):
            raise _Refused(f"{name} in the folder is not a plain file")
        if name == MANIFEST:
            continue
        if hashlib.sha256(path.read_bytes()).hexdigest() != hashes[name]:
            raise _Refused(f"{name} in the folder was changed since the bundle was written "
                           f"(its sha256 differs from {MANIFEST}'s)")
        old.append(name)
    return [MANIFEST] + old


def _listing(folder: Path, names: list[str]) -> str:
    shown = [n + ("/" if (folder / n).is_dir() and not (folder / n).is_symlink() else "")
             for n in names[:5]]
    more = f" and {len(names) - 5} more" if len(names) > 5 else ""
    return ", ".join(shown) + more


def _aside(folder: Path, name: str, tag: str) -> Path:
    """A hidden name beside `name` in `folder` that nothing uses yet."""
    while True:
        path = folder / f".{name}.{tag}-{secrets.token_hex(4)}"
        if not os.path.lexists(path):
            return path


def _destination(out: str | os.PathLike) -> tuple[str, Path, list[str] | None]:
    """(OUT as given, its absolute path, the old files to replace: None when OUT does not
    exist); refuses (UsageError located at OUT) a destination the rules do not allow."""
    text = os.fspath(out)
    if text == "":
        raise UsageError("the output folder's name is empty", "<output folder>")
    folder = Path(os.path.abspath(text))
    try:
        if folder.is_symlink():
            raise _Refused("it is a symbolic link; name the folder itself")
        if os.path.lexists(folder) and not folder.is_dir():
            raise _Refused("it exists and is not a folder")
        if folder.exists():
            if not os.access(folder, os.W_OK | os.X_OK):
                raise _Refused("the folder is not writable")
            return text, folder, _old_bundle_files(folder)
        ancestor = folder.parent
        while not os.path.lexists(ancestor) and ancestor.parent != ancestor:
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            raise _Refused(f"{ancestor} is not a folder")
        if not os.access(ancestor, os.W_OK | os.X_OK):
            raise _Refused(f"the folder {ancestor} is not writable")
    except _Refused as why:
        raise UsageError(f"refusing to write the bundle here: {why}; nothing was changed. "
                         "Name a new or empty folder, or a bundle spyre-sched wrote",
                         text) from None
    except OSError as err:
        raise UsageError(f"cannot write the bundle: {err.strerror or err}", text) from None
    return text, folder, None


def check_destination(out: str | os.PathLike) -> None:
    """Refuse, without writing anything, an OUT/ that `place` would refuse."""
    _destination(out)


def place(files: dict[str, bytes], out: str | os.PathLike) -> Path:
    """Write `files` (name -> bytes, plain names) plus their manifest into the folder `out`
    under the rules above; returns `out` as given. Raises UsageError (located at `out`,
    nothing changed) when `out` cannot take a bundle."""
    text, folder, old = _destination(out)
    created: list[Path] = []
    if old is None:
        old = []
        missing = [folder]
        while not os.path.lexists(missing[-1].parent) and missing[-1].parent != missing[-1]:
            missing.append(missing[-1].parent)
        try:
            for path in reversed(missing):
                os.mkdir(path)
                created.append(path)
        except OSError as err:
            _remove_created(created)
            raise UsageError(f"cannot write the bundle: {err.strerror or err}", text) from None
    new = {**files, MANIFEST: manifest_bytes(files)}
    staged: dict[str, Path] = {}
    moved_aside: dict[str, Path] = {}
    placed: list[str] = []
    try:
        for name, data in new.items():
            staged[name] = _aside(folder, name, "new")
            with open(staged[name], "xb") as handle:
                handle.write(data)
        for name in old:  # manifest first: the folder stops being the old bundle at once
            moved_aside[name] = _aside(folder, name, "old")
            os.rename(folder / name, moved_aside[name])
        for name in [n for n in new if n != MANIFEST] + [MANIFEST]:
            os.rename(staged[name], folder / name)
            del staged[name]
            placed.append(name)
    except BaseException as err:
        for name in placed:
            _unlink(folder / name)
        for path in staged.values():
            _unlink(path)
        for name, path in moved_aside.items():
            try:
                os.rename(path, folder / name)
            except OSError:
                pass
        _remove_created(created)
        if isinstance(err, OSError):
            raise UsageError(f"cannot write the bundle: {err.strerror or err}", text) from None
        raise
    for path in moved_aside.values():
        _unlink(path)
    return Path(text)


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _remove_created(created: list[Path]) -> None:
    for path in reversed(created):
        try:
            os.rmdir(path)
        except OSError:
            pass
