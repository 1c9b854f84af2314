"""Matmuls end to end: each kernel in kernels/ compiled (solver, latency), emulated, and
compared with the reference interpreter and with numpy's product.

- mixed_precision: a matmul-shaped linalg.generic, f16 operands extended to an f32
  accumulator, rounded to f16 once; B is read by every row tile (its transfer is hoisted
  out of the row loop, offsets and all);
- transposed_b: the generic's map reads B transposed, an f16 accumulator;
- named_matmul_transpose: linalg.matmul into an empty accumulator, then linalg.transpose;
- matmul_f16_into_f32: a named linalg.matmul of f16 operands into an f32 accumulator
  (its body converts the operands first);
- matmul_of_intermediate: the matmul reads an elementwise result the program keeps in the
  scratchpad, and its weight is hoisted out of the loop nest, on both shipped devices (the
  vector unit's dot products on sample_device, the matrix unit on spyre);
- matmul_stored_per_tile: the rounding to f16 and C's store run in the matmul's tile loop
  (fuse-tile-loops), checked with several tiles per core, rotating buffers or not;
- batch_of_one_k_loop: a K loop carrying a 1x16x16 accumulator through
  `linalg.batch_matmul` on one batch index (batch-matmul-to-matmuls, reshape-through-loops);
- k_loops_epilogue: two such K loops and an elementwise epilogue on their sums (the
  reshape after each loop moves down through the epilogue to the store);
- ffn_gate_up_streamed: on a 128 KiB scratchpad, an FFN's gate and up weights both
  streamed in K chunks beside X's row tile in one tile pipeline;
- k_streamed: on a 128 KiB scratchpad, B streamed in K chunks beside A's whole row tile,
  the sums kept in the scratchpad between chunks (stream-k-chunks);
- tall_block_interchanged: on a 128 KiB scratchpad, a core's block of C taller than wide:
  the solver interchanges the tile loops (interchange-tile-loops), B's panel held around
  the row loop.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

KERNELS = Path(__file__).resolve().parent / "kernels"


def _f16(rng: np.random.Generator, *shape: int) -> np.ndarray:
    # small values: f16 sums of 32 products stay far from overflow
    return (rng.standard_normal(shape) * 0.5).astype(np.float16)


def _mixed_precision(rng):
    a, b = _f16(rng, 32, 32), _f16(rng, 32, 32)
    return {"A": a, "B": b}, {"C": a.astype(np.float64) @ b}


def _transposed_b(rng):
    a, b = _f16(rng, 16, 32), _f16(rng, 16, 32)
    return {"A": a, "B": b}, {"C": a.astype(np.float64) @ b.T}


def _named_matmul_transpose(rng):
    a, b = _f16(rng, 16, 32), _f16(rng, 32, 16)
    return {"A": a, "B": b}, {"D": (a.astype(np.float64) @ b).T}


def _matmul_of_intermediate(rng):
    x, w = _f16(rng, 8, 64), _f16(rng, 64, 64)
    return {"X": x, "W": w}, {"Y": (2 * x.astype(np.float64)) @ w}


def _matmul_stored_per_tile(rng):
    a, b = _f16(rng, 64, 256), _f16(rng, 256, 128)
    return {"A": a, "B": b}, {"C": a.astype(np.float64) @ b}


def _matmul_f16_into_f32(rng):
    a, b = _f16(rng, 8, 64), _f16(rng, 64, 64)
    return {"A": a, "B": b}, {"C": a.astype(np.float64) @ b}


def _batch_of_one_k_loop(rng):
    a, b = _f16(rng, 2, 32, 64), _f16(rng, 2, 64, 32)
    return {"A": a, "B": b}, {"C": np.matmul(a.astype(np.float64), b)}


def _ffn_gate_up_streamed(rng):
    x = _f16(rng, 64, 1024) * np.float16(0.25)
    wg, wu, wd = _f16(rng, 1024, 128), _f16(rng, 1024, 128), _f16(rng, 128, 1024)
    gate, up = x.astype(np.float64) @ wg, x.astype(np.float64) @ wu
    h = (gate / (1 + np.exp(-gate)) * up).astype(np.float16)
    return {"X": x, "Wg": wg, "Wu": wu, "Wd": wd}, {"Y": h.astype(np.float64) @ wd}


def _k_loops_epilogue(rng):
    a, b, u = _f16(rng, 2, 32, 64), _f16(rng, 2, 64, 32), _f16(rng, 2, 64, 32)
    e = rng.standard_normal((2, 32, 32)).astype(np.float32)
    a64 = a.astype(np.float64)
    return {"A": a, "B": b, "U": u, "E": e}, {"C": np.matmul(a64, b) * np.matmul(a64, u) + e}


def _k_streamed(rng):
    a, b = _f16(rng, 256, 512), _f16(rng, 512, 128)
    return {"A": a, "B": b}, {"C": a.astype(np.float64) @ b}


def _tall_block_interchanged(rng):
    a, b = _f16(rng, 1024, 256), _f16(rng, 256, 64)
    return {"A": a, "B": b}, {"C": a.astype(np.float64) @ b}


CASES = {
    "batch_of_one_k_loop": _batch_of_one_k_loop,
    "ffn_gate_up_streamed": _ffn_gate_up_streamed,
    "k_loops_epilogue": _k_loops_epilogue,
    "k_streamed": _k_streamed,
    "matmul_f16_into_f32": _matmul_f16_into_f32,
    "matmul_of_intermediate": _matmul_of_intermediate,
    "matmul_stored_per_tile": _matmul_stored_per_tile,
    "mixed_precision": _mixed_precision,
    "transposed_b": _transposed_b,
    "named_matmul_transpose": _named_matmul_transpose,
    "tall_block_interchanged": _tall_block_interchanged,
}


def test_every_kernel_has_a_case() -> None:
    assert sorted(p.stem for p in KERNELS.glob("*.mlir")) == sorted(CASES)


#: kernels written for another device than spyre
_SPYRE_128K = str(Path(__file__).parents[2] / "tests" / "solve" / "devices"
                  / "spyre_128k_lx.mlir")
DEVICES = {"k_streamed": _SPYRE_128K, "ffn_gate_up_streamed": _SPYRE_128K,
           "tall_block_interchanged": _SPYRE_128K}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matmul_matches_reference_and_numpy(name: str) -> None:
    _check(name, DEVICES.get(name, "spyre"))


def test_matmul_of_intermediate_on_the_vector_unit() -> None:
    _check("matmul_of_intermediate", "sample_device")


def test_sample_device_with_its_matrix_unit_option() -> None:
    """devices/options/sample_device_matrix.mlir: sample_device plus a 4x4 array per
    corelet; the matmul runs there (unit `mx`), not on the vector unit."""
    option = Path(__file__).parents[2] / "devices" / "options" / "sample_device_matrix.mlir"
    result = _check("transposed_b", str(option))
    assert any(unit.endswith(".mx") for unit in result.units)
    assert not any(unit.endswith(".sfu") for unit in result.units)


@pytest.mark.parametrize("how", [{"strategy": "heuristic"}, {"objective": "memory"}],
                         ids=["rotating", "one-copy"])
def test_matmul_stored_per_tile_with_several_tiles(how: dict) -> None:
    """The fused tile pipeline (DMA A in, matmul, rounding, DMA C out) run over 2 x 2
    tiles of 8 x 64 per core: with two copies of its buffers (the heuristic's) and one
    (the memory objective's). The rounding has no tile decisions of its own."""
    import spyre_sched

    schedule = spyre_sched.compile(str(KERNELS / "matmul_stored_per_tile.mlir"), **how)
    tiles = {name: value for program in schedule.decisions for name, value in
             program["tiles"].items()}
    assert tiles == {"p0.tile.lx.d0": 8, "p0.tile.lx.d1": 64}
    _check("matmul_stored_per_tile", "spyre", schedule)


def _check(name: str, device: str, schedule=None):
    import spyre_sched

    inputs, expected = CASES[name](np.random.default_rng(3))
    kernel = schedule if schedule is not None else str(KERNELS / f"{name}.mlir")
    result = spyre_sched.run(kernel, inputs, device=device)
    assert result.matches, result.mismatches
    for out, want in expected.items():
        got = result.outputs[out].astype(np.float64)
        assert got.shape == want.shape
        # f16 sums of 32 terms: a few units in the last place of f16
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=3e-2)
    return result
