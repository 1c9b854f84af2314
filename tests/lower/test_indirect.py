"""Indirect access tiles end to end: the gather and scatter examples compiled once, then
emulated on index tensors drawn under a fixed seed (random with repeats, the first and
last row, every index equal; distinct ones for scatters) and compared with the reference
interpreter; out-of-range and repeated indices refused by the emulator at the unit and
instruction, and out-of-scope or bad kernels refused at the op."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from spyre_sched.errors import ExecutionError, SpyreSchedError

ROOT = Path(__file__).resolve().parents[2]
EMBEDDING = ROOT / "examples" / "embedding_lookup.mlir"
INDEXED_ADD = ROOT / "examples" / "indexed_add.mlir"


def _bundle(kernel: Path, out: Path) -> Path:
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    return write_bundle(compile_kernel(str(kernel), device="spyre"), out)


@pytest.fixture(scope="module")
def embedding(tmp_path_factory) -> Path:
    return _bundle(EMBEDDING, tmp_path_factory.mktemp("embedding") / "bundle")


@pytest.fixture(scope="module")
def indexed_add(tmp_path_factory) -> Path:
    return _bundle(INDEXED_ADD, tmp_path_factory.mktemp("indexed_add") / "bundle")


def _model_agrees(result) -> None:
    """The solver's cost model within 3% of the emulated cycles: the index fetch's landing
    before a gather is time the loading unit waits, and a scatter's fetch runs under the
    loads of its stage."""
    assert abs(result.predicted_cycles - result.cycles) <= 0.03 * result.cycles, \
        (result.predicted_cycles, result.cycles)


def _gather_indices() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(23)
    return {
        "random with repeats": rng.integers(0, 256, size=64),
        "first and last row": np.where(np.arange(64) % 2 == 0, 0, 255),
        "all equal": np.full(64, 17),
        "consecutive rows": np.arange(100, 164),  # one run of rows per tile
    }


@pytest.mark.parametrize("case", list(_gather_indices()))
def test_gather_matches_the_reference(embedding: Path, case: str) -> None:
    import spyre_sched

    ids = _gather_indices()[case].astype(np.int32)
    table = (np.arange(256 * 64) % 251).astype(np.float16).reshape(256, 64)
    result = spyre_sched.run(str(embedding), {"E": table, "Ids": ids})
    assert result.matches, result.mismatches
    _model_agrees(result)
    np.testing.assert_array_equal(result.outputs["Y"], table[ids])


def test_an_i64_index_tensor_gathers_like_an_i32_one(tmp_path: Path) -> None:
    """The index tensor's other accepted element type (the Triton producers' i64): fetched
    8 bytes an entry, the same rows gathered, the model still within 3%."""
    import spyre_sched

    path = tmp_path / "embedding_i64.mlir"
    path.write_text(EMBEDDING.read_text().replace("memref<64xi32>", "memref<64xi64>"))
    ids = np.random.default_rng(29).integers(0, 256, size=64)
    table = (np.arange(256 * 64) % 241).astype(np.float16).reshape(256, 64)
    result = spyre_sched.run(str(path), {"E": table, "Ids": ids.astype(np.int64)})
    assert result.matches, result.mismatches
    np.testing.assert_array_equal(result.outputs["Y"], table[ids])
    _model_agrees(result)


def _scatter_indices() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(23)
    ends = np.concatenate(([0, 127], rng.permutation(np.arange(1, 127))[:62]))
    return {"random distinct": rng.permutation(128)[:64], "first and last row": ends}


@pytest.mark.parametrize("case", list(_scatter_indices()))
def test_scatter_add_matches_the_reference(indexed_add: Path, case: str) -> None:
    import spyre_sched

    index = _scatter_indices()[case].astype(np.int32)
    rng = np.random.default_rng(5)
    y = rng.uniform(-2, 2, size=(128, 64)).astype(np.float16)
    u = rng.uniform(-2, 2, size=(64, 64)).astype(np.float16)
    result = spyre_sched.run(str(indexed_add), {"Y": y, "I": index, "U": u})
    assert result.matches, result.mismatches
    _model_agrees(result)
    want = y.copy()
    want[index] = (y[index].astype(np.float32) + u.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(result.outputs["Y"], want)


PAGED = ROOT / "examples" / "paged_attention_decode.mlir"


@pytest.fixture(scope="module")
def paged(tmp_path_factory) -> Path:
    return _bundle(PAGED, tmp_path_factory.mktemp("paged") / "bundle")


def _block_tables() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(23)
    return {
        "random": rng.integers(0, 16, size=2),
        "first and last page": np.array([0, 15]),
        "all equal (one page read twice)": np.array([9, 9]),
    }


@pytest.mark.parametrize("case", list(_block_tables()))
def test_paged_attention_matches_the_reference(paged: Path, case: str) -> None:
    """The block table picks the pages: the same page twice, the cache's first and last
    page, and a seeded random pair give the reference's outputs."""
    import spyre_sched

    rng = np.random.default_rng(7)
    arrays = {"Q": rng.uniform(-2, 2, size=2048).astype(np.float16),
              "K": rng.uniform(-2, 2, size=(16, 16, 32, 64)).astype(np.float16),
              "V": rng.uniform(-2, 2, size=(16, 16, 32, 64)).astype(np.float16),
              "BT": _block_tables()[case].astype(np.int32)}
    result = spyre_sched.run(str(paged), arrays)
    assert result.matches, result.mismatches


def _launch(bundle: Path, arrays: dict[str, np.ndarray]):
    from emulator.runtime import Runtime

    runtime = Runtime("spyre")
    return runtime.launch(runtime.prepare(bundle), arrays)


def test_the_emulator_reports_an_index_outside_the_view(embedding: Path) -> None:
    ids = np.arange(64, dtype=np.int32)
    ids[5] = 256  # tile 2's second token: one past the table
    table = np.zeros((256, 64), np.float16)
    with pytest.raises(ExecutionError) as err:
        _launch(embedding, {"E": table, "Ids": ids, "Y": np.zeros((64, 64), np.float16)})
    text = str(err.value)
    assert "index 256 at position [1, 0] of index buffer #0" in text
    assert "outside the view's coordinates [0, 255]" in text
    assert "unit core2.dma_load" in text and "agen.indirect_load_and_store" in text


def test_the_emulator_refuses_a_scatter_that_repeats_an_index(indexed_add: Path) -> None:
    index = np.arange(64, dtype=np.int32)
    index[1] = index[0]  # tile 0 writes row 0 twice
    with pytest.raises(ExecutionError) as err:
        _launch(indexed_add, {"Y": np.zeros((128, 64), np.float16), "I": index,
                              "U": np.ones((64, 64), np.float16)})
    text = str(err.value)
    assert re.search(r"the scatter writes element \d+ of ddr twice \(point 64 repeats an "
                     r"earlier index\)", text)
    assert "unit core0.dma_store" in text and "agen.indirect_load_and_store" in text


BAD_KINDS = {
    "float index tensor": (
        "memref<64xi32>", "memref<64xf16>",
        "index tensor #0 must hold i32 or i64, not f16"),
    "index subscript not one variable": (
        "ind(%Iv[%t0 + %t])", "ind(%Iv[%t0 + %t * 2])",
        "index subscript"),
}


@pytest.mark.parametrize("case", list(BAD_KINDS))
def test_bad_indirect_kernels_are_located_errors(case: str, tmp_path: Path) -> None:
    from spyre_sched.api import compile as compile_kernel

    old, new, message = BAD_KINDS[case]
    text = EMBEDDING.read_text().replace(old, new)
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    with pytest.raises(SpyreSchedError) as err:
        compile_kernel(str(path), device="spyre")
    assert message in str(err.value)
    assert str(err.value).startswith(f"{path}:")


def test_a_bad_index_tensor_writes_nothing(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from spyre_sched.cli import main

    path = tmp_path / "bad.mlir"
    path.write_text(EMBEDDING.read_text().replace("memref<64xi32>", "memref<64xf16>"))
    out = tmp_path / "bundle"
    result = CliRunner().invoke(main, ["compile", str(path), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert f"{path}:22:3: error" in result.output and "must hold i32 or i64" in result.output
    assert not out.exists()


def test_run_reports_an_index_out_of_range_and_writes_nothing(embedding: Path,
                                                              tmp_path: Path) -> None:
    """An index past the table at run time: `run` checks against the reference first, which
    names the tile, the op in the kernel and the index (the emulator's own report, with
    the unit and instruction, is the test above); exit 1, no outputs file left."""
    from click.testing import CliRunner

    from spyre_sched.cli import main

    ids = np.arange(64, dtype=np.int32)
    ids[62] = 300  # tile 31's first token
    inputs = tmp_path / "in.npz"
    np.savez(inputs, E=np.zeros((256, 64), np.float16), Ids=ids)
    out = tmp_path / "out.npz"
    result = CliRunner().invoke(main, ["run", str(embedding), "--inputs", str(inputs),
                                       "--save-outputs", str(out)])
    assert result.exit_code == 1, result.output
    assert "kernel.mlir:28:3: error: tile 31: ktdp.load" in result.output
    assert "from index value(s) 300: coordinate (300, 0) is outside the view" in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_an_address_buffer_that_cannot_fit_is_located_and_writes_nothing(tmp_path: Path) -> None:
    """A scratchpad that holds the gathered row (128 bytes: the copy moves it through one
    buffer) but not the address buffer's entry as well: refused by the footprints pass,
    no bundle left."""
    from click.testing import CliRunner

    from spyre_sched.cli import main

    text = (ROOT / "devices" / "spyre.mlir").read_text()
    old = '#LX = {kind = "LX", size = 2097152}'
    assert old in text
    device = tmp_path / "tiny_lx.mlir"
    device.write_text(text.replace(old, '#LX = {kind = "LX", size = 128}'))
    out = tmp_path / "bundle"
    result = CliRunner().invoke(main, ["compile", str(EMBEDDING), "--device", str(device),
                                       "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "in pass footprints" in result.output
    assert "needs 132 bytes of LX" in result.output
    assert "4 of them for the address buffers of indirect transfers" in result.output
    assert "but a core has 128" in result.output
    assert not out.exists()


@pytest.mark.slow
def test_paged_attention_bench_kernel_matches_the_reference() -> None:
    """The quick shape of bench/paged_attention.py (32 heads x 128, 4 pages of 16 from a
    block table): compiled by the solver, emulated, equal to the reference."""
    import spyre_sched

    path = ROOT / "bench" / "kernels" / "indirect" / "quick" / "paged_attention.mlir"
    result = spyre_sched.run(str(path))
    assert result.matches, result.mismatches


def test_paged_attention_bench_kernels_are_what_the_script_writes() -> None:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("paged_attention_bench",
                                                  ROOT / "bench" / "paged_attention.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    for path, text in module.files().items():
        assert path.read_text() == text, f"{path} is stale: run python bench/paged_attention.py --write"
