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
    np.testing.assert_array_equal(result.outputs["Y"], table[ids])


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
    want = y.copy()
    want[index] = (y[index].astype(np.float32) + u.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(result.outputs["Y"], want)


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
