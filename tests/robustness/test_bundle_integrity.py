"""A bundle is used only as it was written: every file against its manifest hash, every
referenced file inside the bundle and listed, every field the runtime uses well-formed,
and the files agreeing with each other and with the kernel. Each broken bundle is a
located exit 1 naming the file (and the field), never exit 2 or a RecursionError."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from emulator.bundle_files import seal
from emulator.runtime import Runtime
from spyre_sched.cli import main
from spyre_sched.errors import SpyreSchedError

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "lower" / "fixtures" / "add_96x64_bundle"
FILES = sorted(p.name for p in FIXTURE.iterdir() if p.name != "manifest.json")


@pytest.fixture(scope="module")
def runtime():
    return Runtime("spyre")


@pytest.fixture
def bundle(tmp_path) -> Path:
    copy = tmp_path / "bundle"
    shutil.copytree(FIXTURE, copy)
    return copy


def refused(runtime, bundle: Path, *fragments: str) -> str:
    with pytest.raises(SpyreSchedError) as err:
        runtime.prepare(bundle)
    text = str(err.value)
    for fragment in fragments:
        assert fragment in text, text
    return text


def run_refused(bundle: Path, *fragments: str) -> str:
    result = CliRunner().invoke(main, ["run", str(bundle)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output
    return result.output


def edit_json(bundle: Path, name: str, change, reseal: bool = True) -> None:
    doc = json.loads((bundle / name).read_text())
    change(doc)
    (bundle / name).write_text(json.dumps(doc, indent=2) + "\n")
    if reseal:
        seal(bundle)


def test_every_file_of_the_bundle_is_in_its_manifest():
    listed = json.loads((FIXTURE / "manifest.json").read_text())["files"]
    assert sorted(listed) == FILES


# ---- the manifest ------------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_an_edited_file_is_refused(runtime, bundle, name):
    with open(bundle / name, "a") as handle:
        handle.write(" ")
    refused(runtime, bundle, f"{name} does not match its sha256 in manifest.json",
            str(bundle / name))
    run_refused(bundle, f"{name} does not match its sha256")


@pytest.mark.parametrize("name", FILES)
def test_a_missing_file_is_refused(runtime, bundle, name):
    (bundle / name).unlink()
    refused(runtime, bundle, f"the bundle has no {name}, which manifest.json lists")


@pytest.mark.parametrize("name", FILES)
def test_a_deleted_hash_key_is_refused(runtime, bundle, name):
    edit_json(bundle, "manifest.json", lambda d: d["files"][name].pop("sha256"), reseal=False)
    refused(runtime, bundle, f'files["{name}"].sha256: missing', "manifest.json")


@pytest.mark.parametrize("name", ["global.mlir", "jobplan.json", "symbols.json", "schedule.json"])
def test_a_required_file_left_out_of_the_manifest_is_refused(runtime, bundle, name):
    edit_json(bundle, "manifest.json", lambda d: d["files"].pop(name), reseal=False)
    refused(runtime, bundle, f"{name} is not listed; every bundle has it")


@pytest.mark.parametrize("text", ["", "{", "[]", "{\"format\": \"other\"}", "\xff"])
def test_no_or_a_broken_manifest_is_refused(runtime, bundle, text):
    (bundle / "manifest.json").write_text(text, errors="surrogateescape")
    refused(runtime, bundle, "manifest.json")
    (bundle / "manifest.json").unlink()
    refused(runtime, bundle, "the bundle has no manifest.json")


def test_the_kernel_hash_cannot_be_bypassed(runtime, bundle):
    """Deleting schedule.json's kernel_sha256 and editing kernel.mlir: both files differ
    from the manifest."""
    edit_json(bundle, "schedule.json", lambda d: d.pop("kernel_sha256"), reseal=False)
    (bundle / "kernel.mlir").write_text((bundle / "kernel.mlir").read_text() + "\n")
    run_refused(bundle, "does not match its sha256 in manifest.json")


def test_a_kernel_hash_that_disagrees_with_the_manifest_is_refused(runtime, bundle):
    edit_json(bundle, "schedule.json", lambda d: d.update(kernel_sha256="0" * 64))
    refused(runtime, bundle, "kernel_sha256 disagrees with kernel.mlir's hash")


# ---- references stay inside the bundle ---------------------------------------------------


@pytest.mark.parametrize("file", ["/etc/passwd", "../kernel.mlir", "sub/local_schedule_0.mlir",
                                  "", ".", None, 7, "unlisted.mlir"])
def test_a_job_plan_file_outside_the_bundle_or_unlisted_is_refused(runtime, bundle, file):
    (bundle / "sub").mkdir()
    shutil.copy(bundle / "local_schedule_0.mlir", bundle / "sub" / "local_schedule_0.mlir")
    edit_json(bundle, "jobplan.json", lambda d: d["prepare"][0].update(file=file))
    shutil.copy(bundle / "local_schedule_0.mlir", bundle / "unlisted.mlir")  # after sealing
    refused(runtime, bundle, "prepare[0].file", "is not a file of the bundle",
            str(bundle / "jobplan.json"))


def test_a_kernel_file_outside_the_bundle_is_refused(runtime, bundle):
    edit_json(bundle, "schedule.json", lambda d: d.update(kernel_file="/etc/hostname",
                                                          kernel_sha256=None))
    refused(runtime, bundle, "kernel_file: \"/etc/hostname\" is not a file of the bundle")


# ---- global.mlir is read and must agree with the job plan --------------------------------


def test_global_mlir_deleted_or_truncated_is_refused(runtime, bundle):
    text = (bundle / "global.mlir").read_text()
    (bundle / "global.mlir").write_text(text[: len(text) // 2])
    run_refused(bundle, "global.mlir does not match its sha256")
    seal(bundle)  # even on purpose: it must parse
    refused(runtime, bundle, str(bundle / "global.mlir") + ":")
    (bundle / "global.mlir").unlink()
    seal(bundle)
    refused(runtime, bundle, "global.mlir is not listed; every bundle has it")


@pytest.mark.parametrize("old, new, fragment", [
    ("grid = [32 : i64]", "grid = [4, 8]", "has grid [4, 8], but jobplan.json's grid is [32]"),
    ("@add(%A: index, %B: index, %C: index)", "@add(%B: index, %A: index, %C: index)",
     "takes (B, A, C), but jobplan.json's arguments are (A, B, C)"),
    ('dataflow.kernel = "add"', 'dataflow.kernel = "sub"', 'dataflow.kernel is "sub"'),
    ('dataflow.device = "spyre"', 'dataflow.device = "sample_device"', 'dataflow.device is'),
    ("@local_schedule_0", "@local_schedule_9",
     "declares {local_schedule_9}, but jobplan.json loads {local_schedule_0}"),
])
def test_global_mlir_that_disagrees_with_the_job_plan_is_refused(runtime, bundle, old, new,
                                                                  fragment):
    text = (bundle / "global.mlir").read_text()
    assert old in text
    (bundle / "global.mlir").write_text(text.replace(old, new))  # every occurrence
    seal(bundle)
    refused(runtime, bundle, fragment, str(bundle / "global.mlir"))


# ---- the fields the runtime uses are the bundle's ----------------------------------------


def test_an_edited_grid_is_refused(runtime, bundle):
    edit_json(bundle, "jobplan.json", lambda d: d.update(grid=[4, 8]))
    refused(runtime, bundle, "grid [32], but jobplan.json's grid is [4, 8]")
    # edited in global.mlir as well: the bundle then disagrees with its kernel
    text = (bundle / "global.mlir").read_text().replace("grid = [32 : i64]", "grid = [4, 8]")
    (bundle / "global.mlir").write_text(text)
    seal(bundle)
    runtime.prepare(bundle)
    run_refused(bundle, "jobplan.json: error: grid: [4, 8], but the kernel @add has grid [32]")


def test_an_edited_device_is_refused(runtime, bundle):
    edit_json(bundle, "jobplan.json", lambda d: d.update(device="sample_device"))
    refused(runtime, bundle, 'schedule.json: error: device: "spyre", but jobplan.json says '
            '"sample_device"')
    edit_json(bundle, "schedule.json", lambda d: d.update(device="sample_device"))
    refused(runtime, bundle, "global.mlir: error: dataflow.device is")
    run_refused(bundle)  # run emulates the bundle's own device, and still refuses it


def test_an_edited_output_shape_is_refused(bundle):
    edit_json(bundle, "jobplan.json", lambda d: d["arguments"][2].update(shape=[64, 96]))
    run_refused(bundle, "arguments[2].shape: %C is [64, 96], but the kernel's %C is [96, 64]")


# ---- malformed files: located, never a crash ---------------------------------------------


def _nested(depth: int):
    expr = ["arg", "A"]
    for _ in range(depth):
        expr = ["add", expr, 1]
    return expr


@pytest.mark.parametrize("change, fragment", [
    (lambda d: d["symbols"][3].update(id="x"), 'symbols[3].id: expected an integer, got "x"'),
    (lambda d: d["symbols"][3].update(id=True), "symbols[3].id: expected an integer, got true"),
    (lambda d: d["symbols"][3].update(id=3.5), "symbols[3].id: expected an integer, got 3.5"),
    (lambda d: d["symbols"][4].update(id=3), "symbols[4].id: symbol 3 is defined twice"),
    (lambda d: d.update(symbols=None), "symbols: expected a list, got null"),
    (lambda d: d.pop("symbols"), "symbols: missing"),
    (lambda d: d["symbols"].__setitem__(0, None), "symbols[0]: expected an object, got null"),
    (lambda d: d["symbols"][5].pop("expr"), "symbols[5].expr: missing"),
    (lambda d: d["symbols"][5].update(expr=None), "symbols[5].expr: null is not an expression"),
    (lambda d: d["symbols"][5].update(expr=["pow", 2, 3]), "symbols[5].expr:"),
    (lambda d: d["symbols"][5].update(expr=["tile"]), "only allowed in the condition"),
    (lambda d: d["symbols"][5].update(expr=_nested(300)), "nested deeper than 256 levels"),
    (lambda d: d["symbols"][5].update(kind="pointer"), "symbols[5].kind"),
])
def test_malformed_symbols_are_located(runtime, bundle, change, fragment):
    edit_json(bundle, "symbols.json", change)
    refused(runtime, bundle, fragment, str(bundle / "symbols.json"))


@pytest.mark.parametrize("name", ["symbols.json", "jobplan.json", "schedule.json"])
def test_json_nested_5000_deep_is_located(runtime, bundle, name):
    (bundle / name).write_text("[" * 5000 + "]" * 5000)
    seal(bundle)
    refused(runtime, bundle, f"{bundle / name}: error: not readable: its JSON is nested too deeply")
    run_refused(bundle, "nested too deeply")


def test_an_expression_nested_5000_deep_is_located(runtime, bundle):
    """Written out as text: json.dumps itself cannot nest that deep."""
    text = (bundle / "symbols.json").read_text()
    deep = '["add", ' * 5000 + '["arg", "A"]' + ", 1]" * 5000
    first = '"expr": ['
    at = text.index(first)
    end = text.index('"text"', at)
    text = text[:at] + f'"expr": {deep},\n      ' + text[end:]
    (bundle / "symbols.json").write_text(text)
    seal(bundle)
    message = run_refused(bundle, str(bundle / "symbols.json"))
    assert "nested" in message


def test_an_integer_too_long_to_read_is_located(runtime, bundle):
    text = (bundle / "symbols.json").read_text().replace('"id": 0,', '"id": ' + "9" * 5000 + ",", 1)
    (bundle / "symbols.json").write_text(text)
    seal(bundle)
    refused(runtime, bundle, f"{bundle / 'symbols.json'}: error: not readable")


@pytest.mark.parametrize("name", ["symbols.json", "jobplan.json", "schedule.json"])
@pytest.mark.parametrize("cut", [0, 1, 40, -2])
def test_truncated_or_non_json_files_are_located(runtime, bundle, name, cut):
    data = (bundle / name).read_bytes()
    (bundle / name).write_bytes(data[:cut] if cut >= 0 else data[:cut] + b"\x00garbage")
    seal(bundle)
    text = refused(runtime, bundle, str(bundle / name))
    assert "not valid JSON" in text or "expected a JSON object" in text


@pytest.mark.parametrize("change, fragment", [
    (lambda d: d.update(grid=None), "grid: expected a list of positive integers"),
    (lambda d: d.update(grid=[0]), "grid: expected a list of positive integers"),
    (lambda d: d.pop("arguments"), "arguments: missing"),
    (lambda d: d["arguments"][0].update(kind="tensor"), "arguments[0].kind"),
    (lambda d: d["arguments"][0].update(element_type="f13"), "arguments[0].element_type"),
    (lambda d: d["arguments"][0].update(shape=[["pow", 1, 2], 64]), "arguments[0].shape[0]"),
    (lambda d: d["arguments"][0].update(upperbound="x"), "arguments[0].upperbound"),
    (lambda d: d["arguments"][1].update(name="A"), "arguments[1].name: argument 'A' is listed twice"),
    (lambda d: d["arguments"][0].update(folded=3), "arguments[0].folded: expected no folded value"),
    (lambda d: d["arguments"].append({"name": "s", "kind": "scalar", "type": "index",
                                      "folded": "2"}), "arguments[3].folded: expected a number"),
    (lambda d: d["arguments"].append({"name": "s", "kind": "scalar", "type": "index",
                                      "folded": 2.5}), "arguments[3].folded: expected an integer"),
    (lambda d: d["prepare"][0].update(step="load"), "prepare[0].step: unknown prepare step"),
    (lambda d: d["prepare"].append(dict(d["prepare"][0])), "prepare[1].program: 'local_schedule_0' is loaded twice"),
    (lambda d: d["execute"][0].update(symbols=["x"]), "execute[0].symbols: expected a list of symbol ids"),
    (lambda d: d["execute"][0].update(bindings=[]), "execute[0].bindings"),
    (lambda d: d["execute"][0]["bindings"].update(A=["arg"]), "execute[0].bindings.A"),
    (lambda d: d["execute"][2].update(call="zero"), "execute[2].call: expected an integer"),
    (lambda d: d["execute"].append({"step": "jump"}), "execute[3].step: unknown execute step"),
    (lambda d: d.update(execute=_nested_steps(100)), "nested deeper than 64 levels"),
])
def test_malformed_job_plans_are_located(runtime, bundle, change, fragment):
    edit_json(bundle, "jobplan.json", change)
    refused(runtime, bundle, fragment, str(bundle / "jobplan.json"))


def _nested_steps(depth: int):
    steps = [{"step": "launch", "program": "local_schedule_0", "call": 0}]
    for _ in range(depth):
        steps = [{"step": "if", "cond": 1, "then": steps}]
    return steps


@pytest.mark.parametrize("change, fragment", [
    (lambda d: d.update(predicted_cycles="many"), "predicted_cycles: expected an integer or null"),
    (lambda d: d["buffers"][0].update(offset=-1), "buffers[0].offset: expected a non-negative integer"),
    (lambda d: d["buffers"][0].pop("memory"), "buffers[0].memory: missing"),
    (lambda d: d.update(buffers={"a": 1}), "buffers: expected a list"),
    (lambda d: d.update(pinned=[None]), "pinned[0]: expected an object"),
    (lambda d: d.update(pinned=[{"memory": "lx", "offset": 0, "bytes": 4, "program": [1]}]),
     "pinned[0].program: expected a program name or null"),
    (lambda d: d.update(predicted_per_call={"local_schedule_0": "x"}), "predicted_per_call"),
    (lambda d: d.update(kernel="sub"), 'kernel: "sub", but jobplan.json says "add"'),
])
def test_malformed_schedules_are_located(runtime, bundle, change, fragment):
    edit_json(bundle, "schedule.json", change)
    refused(runtime, bundle, fragment, str(bundle / "schedule.json"))


def test_a_kernel_without_a_grid_runs_as_one_tile(tmp_path):
    # KTIR without a `grid` attribute is one compute tile: its bundle states grid [1], and
    # global.mlir (which keeps the kernel's attributes) agrees with that.
    text = (ROOT / "tests/layout/kernels/lower_rows.mlir").read_text()
    kernel = tmp_path / "no_grid.mlir"
    kernel.write_text(text.replace(" attributes {grid = [1]}", "", 1))
    assert "grid" not in kernel.read_text().split("func.func", 1)[1].split("{", 1)[0]
    done = CliRunner().invoke(main, ["run", str(kernel)])
    assert done.exit_code == 0, done.output
    assert "result: MATCH" in done.output
