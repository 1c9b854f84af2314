"""`compile -o OUT/` never deletes or overwrites what it did not write: OUT/ may be new,
empty, or a bundle spyre-sched wrote (replaced, all or nothing); anything else is refused
with exit 1 and left exactly as it was."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from spyre_sched.cli import main
from spyre_sched.errors import UsageError
from spyre_sched.lower import bundle_folder
from spyre_sched.lower.bundle_folder import place

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "add_96x64.mlir"
FILES = {"global.mlir": b"module A\n", "jobplan.json": b"{}\n", "local_schedule_0.mlir": b"p0\n"}
OTHER = {"global.mlir": b"module B\n", "jobplan.json": b"{\"b\": 1}\n", "schedule.json": b"{}\n"}


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every entry under `folder` (hidden ones too): file bytes, None for a folder."""
    found = {}
    for path in sorted(folder.rglob("*")):
        found[str(path.relative_to(folder))] = None if path.is_dir() else path.read_bytes()
    return found


def compile_to(out, *extra: str):
    return CliRunner().invoke(main, ["compile", str(ADD), "-o", str(out), "--strategy",
                                     "heuristic", *extra])


def _refused(result, *fragments: str) -> None:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


# ---- the folder rules, on the writer itself ---------------------------------------------


def test_a_new_path_gets_the_files_and_their_manifest(tmp_path):
    out = place(FILES, tmp_path / "a" / "b")
    assert out == tmp_path / "a" / "b"
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted([*FILES, "manifest.json"])
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["format"] == "spyre-sched.manifest/1"
    assert sorted(manifest["files"]) == sorted(FILES)
    mask = os.umask(0)
    os.umask(mask)
    for path in (out, out / "global.mlir"):  # the modes a plain mkdir / open give
        full = 0o777 if path.is_dir() else 0o666
        assert os.stat(path).st_mode & 0o777 == full & ~mask


def test_an_empty_folder_is_filled(tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    place(FILES, out)
    assert sorted(p.name for p in out.iterdir()) == sorted([*FILES, "manifest.json"])


@pytest.mark.parametrize("setup, fragment", [
    (lambda d: (d / "notes.txt").write_text("mine"), "notes.txt"),
    (lambda d: (d / "src").mkdir(), "src/"),
    (lambda d: (d / "kernel.mlir").write_text("func.func"), "no manifest.json"),
    (lambda d: (d / ".hidden").write_text("x"), ".hidden"),
])
def test_a_folder_holding_anything_else_is_refused_untouched(tmp_path, setup, fragment):
    out = tmp_path / "proj"
    out.mkdir()
    setup(out)
    before = snapshot(tmp_path)
    with pytest.raises(UsageError, match="refusing to write the bundle here") as err:
        place(FILES, out)
    assert fragment in str(err.value) and str(out) in str(err.value)
    assert snapshot(tmp_path) == before


def test_a_bundle_it_wrote_is_replaced_whole(tmp_path):
    out = place(FILES, tmp_path / "b")
    place(OTHER, out)
    assert snapshot(out) == snapshot(place(OTHER, tmp_path / "fresh"))
    assert not (out / "local_schedule_0.mlir").exists()  # listed by the old manifest only
    assert not [p for p in tmp_path.rglob(".*")]


@pytest.mark.parametrize("spoil, fragment", [
    (lambda d: (d / "notes.txt").write_text("mine"), "notes.txt, which its manifest.json does not list"),
    (lambda d: (d / "jobplan.json").write_text("{\"edited\": 1}\n"), "jobplan.json in the folder was changed"),
    (lambda d: (d / "sub").mkdir(), "sub/"),
    (lambda d: (d / "manifest.json").write_text("{}"), "not a spyre-sched bundle manifest"),
    (lambda d: (d / "manifest.json").write_text("[1, 2"), "not a spyre-sched bundle manifest"),
])
def test_a_bundle_holding_what_it_did_not_write_is_refused(tmp_path, spoil, fragment):
    out = place(FILES, tmp_path / "b")
    spoil(out)
    before = snapshot(tmp_path)
    with pytest.raises(UsageError, match="refusing") as err:
        place(OTHER, out)
    assert fragment in str(err.value)
    assert snapshot(tmp_path) == before


def test_a_bundle_file_the_user_deleted_is_no_obstacle(tmp_path):
    out = place(FILES, tmp_path / "b")
    (out / "jobplan.json").unlink()
    place(OTHER, out)
    assert snapshot(out) == snapshot(place(OTHER, tmp_path / "fresh"))


@pytest.mark.parametrize("failing_rename", range(8))
def test_a_failure_during_the_swap_leaves_the_old_bundle(tmp_path, monkeypatch, failing_rename):
    out = place(FILES, tmp_path / "b")
    before = snapshot(tmp_path)
    calls = []
    real = os.rename

    def rename(src, dst):
        calls.append(src)
        if len(calls) == failing_rename + 1:
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(bundle_folder.os, "rename", rename)
    try:
        place(OTHER, out)
    except UsageError as err:
        assert "No space left on device" in str(err)
        monkeypatch.undo()
        assert snapshot(tmp_path) == before  # every old file back, no temporary left
    else:
        monkeypatch.undo()
        assert failing_rename >= len(calls)  # fewer renames than this: it succeeded
        assert snapshot(out) == snapshot(place(OTHER, tmp_path / "fresh"))


def test_a_failure_in_a_new_path_leaves_nothing(tmp_path, monkeypatch):
    real = os.rename

    def rename(src, dst):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(bundle_folder.os, "rename", rename)
    with pytest.raises(UsageError, match="Input/output error"):
        place(FILES, tmp_path / "x" / "y")
    monkeypatch.setattr(bundle_folder.os, "rename", real)
    assert list(tmp_path.iterdir()) == []  # the folders it made are gone too


@pytest.mark.parametrize("name", ["", "file", "file/out"])
def test_empty_name_a_file_or_a_path_under_a_file(tmp_path, name):
    (tmp_path / "file").write_text("mine")
    before = snapshot(tmp_path)
    with pytest.raises(UsageError):
        place(FILES, str(tmp_path / name) if name else "")
    assert snapshot(tmp_path) == before


def test_a_symbolic_link_is_refused(tmp_path):
    real = place(FILES, tmp_path / "real")
    (tmp_path / "link").symlink_to(real)
    with pytest.raises(UsageError, match="symbolic link"):
        place(OTHER, tmp_path / "link")


# ---- the same through `spyre-sched compile -o` -------------------------------------------


def test_compile_into_a_project_folder_is_refused_and_touches_nothing(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "notes.txt").write_text("x\n")
    (proj / "src").mkdir()
    work = tmp_path / "work"
    work.mkdir()
    (work / "add.mlir").write_bytes(ADD.read_bytes())
    before = snapshot(tmp_path)
    _refused(compile_to(proj), f"{proj}: error: refusing to write the bundle here",
             "notes.txt, src/")
    _refused(compile_to(work), "add.mlir")
    assert snapshot(tmp_path) == before


def test_compile_into_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x\n")
    _refused(compile_to(os.getcwd()), "notes.txt")
    _refused(compile_to("."), "notes.txt")
    assert snapshot(tmp_path) == {"notes.txt": b"x\n"}
    (tmp_path / "notes.txt").unlink()
    done = compile_to(".")  # an empty working directory takes the bundle
    assert done.exit_code == 0, done.output
    assert (tmp_path / "manifest.json").is_file()
    again = compile_to(".", "--objective", "memory")  # and is replaced by the next one
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize("target", ["", "file", "file/out"])
def test_compile_to_an_empty_name_a_file_or_under_a_file_exits_1(tmp_path, target):
    (tmp_path / "file").write_text("mine")
    out = str(tmp_path / target) if target else ""
    result = compile_to(out)
    _refused(result, "error:")
    assert (target or "<output folder>") in result.output
    assert snapshot(tmp_path) == {"file": b"mine"}


def test_compile_replaces_its_own_bundle(tmp_path):
    out = tmp_path / "b"
    first = compile_to(out)
    assert first.exit_code == 0, first.output
    again = compile_to(out, "--objective", "memory")
    assert again.exit_code == 0, again.output
    assert json.loads((out / "schedule.json").read_text())["objective"] == "memory"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]


def test_a_folder_the_user_cannot_write_is_refused_before_anything(tmp_path, monkeypatch):
    """(The tests run as root, whom permissions do not stop: the check is simulated.)"""
    monkeypatch.setattr(bundle_folder.os, "access", lambda path, mode: False)
    with pytest.raises(UsageError, match=f"the folder {tmp_path} is not writable"):
        place(FILES, tmp_path / "new" / "b")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match="the folder is not writable"):
        place(FILES, tmp_path / "empty")
    assert snapshot(tmp_path) == {"empty": None}
