"""Kernels written the way the KTIR article writes them, each needing the normal form:
compiled (solver, latency), emulated, compared with the reference interpreter
(`spyre_sched.run`) and with a plain numpy expression of what the kernel computes.

- bias_broadcast: `linalg.broadcast` of a bias row, `arith.addf` on tensors;
- chunked_row_sum: a row sum chunked by the kernel, the accumulator carried by `scf.for`
  `iter_args`;
- layernorm_resident: gamma/beta loaded once before the `scf.for` that walks the rows;
- tiled_add: an `scf.for` over blocks of the slab adding with `arith.addf` on tensors;
- softmax_truncf: `arith.extf`/`arith.truncf` on tensors around a `linalg.reduce` sum;
- plain_copy: a load stored as it is, no compute;
- constant_store: a `linalg.fill` stored as it is, no input and no compute;
- half_sum: the two halves of a loaded tile, taken by `tensor.extract_slice`, added;
- slice_of_sum: a row of a computed sum plus a broadcast bias taken by
  `tensor.extract_slice` and stored, the sum stored whole too (the slice moves to the
  computes' inputs);
- sum_onto_loaded: a `linalg.reduce` whose initial value is a loaded tensor;
- dead_value: sums computed but never stored (dropped by the normal form);
- guarded_store: computed before an `scf.if`, stored under it (only the rows the
  storing tiles own are compared with numpy; the reference comparison covers all);
- extract_softmax: row maximum and sum read out of their one-element results by
  `tensor.extract`, spread by `tensor.splat` or used inside a generic body, and a
  one-element tensor rebuilt by `tensor.from_elements`;
- in_place_scale: each tile stored back onto the elements it was loaded from;
- subscript_expression: access tiles written `%Xv[%row + %i, %c0]` in a row loop;
- overlapping_views: two views of one buffer overlapping as wholes, the tiles moved
  through them apart;
- chunked_normalize: a chunked row sum (folded) and a second chunk loop dividing by the
  sums spread over a chunk before it (their chain made again in each iteration);
- grid_stride_rows: a grid-stride row loop (`scf.for %r = %tile_id to %n step 4`), tiles
  running different numbers of rows;
- rotate_halves: RoPE's spelling, cos/sin loaded before an `scf.for` over heads whose
  rows lie apart (not foldable: loaded again in each iteration);
- rms_scalar_chain: a row's sum of squares read out by `tensor.extract`, scaled by
  scalar `arith`/`math` ops (1/sqrt(sum / N + eps)) and spread again;
- select_relu_max: a relu as `arith.cmpf` + `arith.select` on tensors, and a row maximum
  whose `linalg.reduce` combiner is `cmpf ogt` + `select`;
- grid_3d: a 3-D grid whose three tile coordinates address a 3-D block each;
- grid_past_rank: a 1-D grid read as two tile coordinates (the second is 0);
- i32_counters: rows walked by an i32 loop counter, the row computed in i32 and cast to
  index for the access (Triton's integer spelling);
- split_index_copy: indirect tiles that read no index tensor, one subscript linearised and
  split again by floordiv / mod (simplify-indirect-subscripts, unindexed-tiles);
- reshape_rows: a 1x256 row collapsed to 256 elements in a row loop, expanded back for
  its store;
- reshape_total: a reduction's `tensor<4xf32>` expanded to 4x1 for its store, and a
  4x64 tile collapsed to 256 and expanded to 2x128 (two rows merged);
- reshape_scalar: a 1x1 tile collapsed to a rank-0 tensor and broadcast;
- scalar_into_a_column: the same scalar added to a 4x1 column (vectors one element wide,
  the scalar's FIFO of single values);
- reshape_chain: a computed tile collapsed and expanded back before its store.
- reshape_between_computes: a computed 1024-element sum expanded to 4x256 and added to a
  loaded 4x256 tile (the reshape moves to the sum's inputs);
- carried_recurrence: `acc = acc * 0.5 + x_k` over the blocks of a slab, carried in
  `iter_args` (not a reduction: the loop is run iteration by iteration, the value carried
  in a scratchpad slot);
- gathered_page_reshape: pages gathered through a block table as [1, 16, 1, 64] tiles in
  a page loop (Triton's paged-attention form) and collapsed to [16, 64]; the table names
  the cache's first and last page and one page twice;
- max_from_bit_pattern: a row maximum whose -inf start is written as its bits
  (`0xFF800000 : i32` bitcast to f32, as Triton prints it);
- block_accumulator: RMSNorm whose sum of squares is carried block by block in a 1x128
  tensor (`acc = acc + x_k * x_k` over an `scf.for`), then reduced;
- causal_mask_positions: a causal mask whose body computes rows and columns from
  `linalg.index` and index values from outside (tile id, loop counter), compared by
  `arith.cmpi` (brought to float arithmetic on positions by the normal form);
- transposed_gather_scatter: indirect access tiles traversed column-major
  (`variables_space_order = (d1, d0)`), a gather and a scatter;
- transposed_access: access tiles traversed column-major (`(d0, d1) -> (d1, d0)`), loaded
  and stored, and a 3-D box read in `(d2, d0, d1)` order (explicit transposes in the
  normal form);
- reshape_strided_runs: a [2, 4, 64] tile (2 tokens x 4 heads) collapsed to [8, 64] rows
  and expanded back for its store, its rows two strided runs (staged through the tile's
  scratchpad);
- online_softmax_sum: an online softmax's running maximum and sum carried over column
  blocks, the rescale reading the old maximum after the new one is computed;
- mapped_axpy: `linalg.map` in its long form (a body over the inputs' elements) and its
  short form (`{ math.absf }`);
- paged_copy: the upstream dialect's paged copy on 2 tiles, a gather whose row variable is
  read through `floordiv` (its page, from the index tensor) and `mod` (the row within the
  page), stored through a transposed tile (split-indirect-variables, the merge of page
  and row carried through the transpose to the store);
- paged_scores: paged attention's scores, a query block times its sequence's keys gathered
  a page at a time (the gathered pages copied into a scratchpad slot, where a matmul reads
  them as rows);
- paged_attention_step: the whole step, softmax(Q K^T / 8) V with keys and values both
  gathered through the block table (each copied into a slot the two matmuls read);
- paged_rows_from_tile_row: rows read through a block table at `(row + t) floordiv 32`
  and `(row + t) mod 32`, the tile's first row a known multiple of the page (written as
  one, then split like a lone variable).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

KERNELS = Path(__file__).resolve().parent / "kernels"


def _f16(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float16)


def _bias_broadcast(rng):
    x, b = _f16(rng, 64, 128), _f16(rng, 128)
    return {"X": x, "bias": b}, {"Y": x.astype(np.float64) + b}


def _chunked_row_sum(rng):
    x = _f16(rng, 16, 512)
    return {"X": x}, {"S": x.astype(np.float64).sum(axis=1)}


def _layernorm(rng):
    x, g, b = _f16(rng, 16, 256), _f16(rng, 256), _f16(rng, 256)
    xd = x.astype(np.float64)
    mean = xd.mean(axis=1, keepdims=True)
    var = ((xd - mean) ** 2).mean(axis=1, keepdims=True)
    y = (xd - mean) / np.sqrt(var + 1e-5) * g + b
    return {"X": x, "G": g, "Bt": b}, {"Y": y}


def _tiled_add(rng):
    a, b = _f16(rng, 8, 512), _f16(rng, 8, 512)
    return {"A": a, "B": b}, {"C": a.astype(np.float64) + b}


def _softmax(rng):
    x = _f16(rng, 16, 256)
    e = np.exp(x.astype(np.float64) - x.astype(np.float64).max(axis=1, keepdims=True))
    return {"X": x}, {"Y": e / e.sum(axis=1, keepdims=True)}


def _plain_copy(rng):
    x = _f16(rng, 8, 256)
    return {"X": x}, {"Y": x.astype(np.float64)}


def _constant_store(rng):
    return {}, {"Y": np.full((8, 256), 0.5)}


def _guarded_store(rng):
    x = _f16(rng, 16, 128)
    return {"X": x}, {"Y": (np.s_[:8], 2 * x[:8].astype(np.float64) + 1)}


def _half_sum(rng):
    x = _f16(rng, 16, 256)
    return {"X": x}, {"Y": x[:, :128].astype(np.float64) + x[:, 128:]}


def _sum_onto_loaded(rng):
    x = rng.standard_normal((16, 256)).astype(np.float32)
    b = rng.standard_normal(16).astype(np.float32)
    return {"X": x, "B": b}, {"S": b.astype(np.float64) + x.astype(np.float64).sum(axis=1)}


def _dead_value(rng):
    x, z, w = _f16(rng, 8, 128), _f16(rng, 8, 128), _f16(rng, 8, 128)
    return {"X": x, "Z": z, "W": w}, {"Y": np.maximum(x, z).astype(np.float64)}


def _column_sharded(rng):
    # Written as two views, X and Y are "2048 elements of f16 memory" (check's word): the
    # outputs come back flat, in row-major order.
    x = _f16(rng, 16, 128)
    return {"X": x.reshape(-1)}, {"Y": 2.0 * x.astype(np.float64).reshape(-1)}


def _extract_softmax(rng):
    x = _f16(rng, 8, 128)
    xd = x.astype(np.float64)
    e = np.exp(xd - xd.max(axis=1, keepdims=True))
    return {"X": x}, {"Y": e / e.sum(axis=1, keepdims=True), "M": xd.max(axis=1)}


def _in_place_scale(rng):
    x = _f16(rng, 8, 256)
    return {"X": x}, {"X": 2 * x.astype(np.float64) + 1}


def _overlapping_views(rng):
    p = _f16(rng, 10240)
    want = p.astype(np.float64)
    want[4096:4096 + 192] = p[:192].astype(np.float64) + 1
    return {"P": p}, {"P": want}


def _subscript_expression(rng):
    x = _f16(rng, 8, 128)
    return {"X": x}, {"Y": 2 * x.astype(np.float64)}


def _select_relu_max(rng):
    x = _f16(rng, 8, 64)
    xd = x.astype(np.float64)
    return {"X": x}, {"Y": np.maximum(xd, 0.0), "M": xd.max(axis=1)}


def _rotate_halves(rng):
    x, c, s = _f16(rng, 16, 128), _f16(rng, 8, 64), _f16(rng, 8, 64)
    y = np.zeros((16, 128))
    for row in range(16):
        a, b = x[row, :64].astype(np.float64), x[row, 64:].astype(np.float64)
        cr, sr = c[row % 8].astype(np.float64), s[row % 8].astype(np.float64)
        y[row, :64], y[row, 64:] = a * cr - b * sr, a * sr + b * cr
    return {"X": x, "Cos": c, "Sin": s}, {"Y": y}


def _rms_scalar_chain(rng):
    x = rng.standard_normal((4, 128)).astype(np.float32)
    xd = x.astype(np.float64)
    return {"X": x}, {"Y": xd / np.sqrt((xd * xd).mean(axis=1, keepdims=True) + 1e-5)}


def _chunked_normalize(rng):
    x = _f16(rng, 16, 512)
    xd = x.astype(np.float64)
    return {"X": x}, {"Y": xd / xd.sum(axis=1, keepdims=True)}


def _grid_stride_rows(rng):
    x = _f16(rng, 10, 64)
    xd = x.astype(np.float64)
    return {"X": x}, {"Y": xd / xd.max(axis=1, keepdims=True)}


def _grid_3d(rng):
    x = _f16(rng, 4, 4, 128)
    return {"X": x}, {"Y": 2 * x.astype(np.float64)}


def _grid_past_rank(rng):
    x = _f16(rng, 8, 64)
    return {"X": x}, {"Y": 2 * x.astype(np.float64)}


def _i32_counters(rng):
    x = _f16(rng, 32, 64)
    return {"X": x}, {"Y": 2 * x.astype(np.float64)}


def _split_index_copy(rng):
    x = _f16(rng, 256)
    return {"X": x}, {"Y": x.reshape(8, 32).astype(np.float64)}


def _reshape_rows(rng):
    x = _f16(rng, 4, 256)
    return {"X": x}, {"Y": 3 * x.astype(np.float64)}


def _reshape_total(rng):
    x = _f16(rng, 4, 64)
    wide = x.astype(np.float64)
    return {"X": x}, {"S": wide.sum(axis=1).reshape(4, 1), "Y": -wide.reshape(2, 128)}


def _reshape_scalar(rng):
    b, x = _f16(rng, 4, 4), _f16(rng, 4, 64)
    return {"B": b, "X": x}, {"Y": x.astype(np.float64) + float(b[2, 2])}


def _scalar_into_a_column(rng):
    b, x = _f16(rng, 4, 4), _f16(rng, 4, 1)
    return {"B": b, "X": x}, {"Y": x.astype(np.float64) + float(b[2, 2])}


def _reshape_chain(rng):
    x = _f16(rng, 16, 16)
    return {"X": x}, {"Y": 2 * x.astype(np.float64)}


def _slice_of_sum(rng):
    a, b, bias = _f16(rng, 12, 64), _f16(rng, 12, 64), _f16(rng, 64)
    s = (a + b).astype(np.float64)
    return {"A": a, "B": b, "Bias": bias}, {"D": s, "C": s[1::3] + bias}


def _reshape_between_computes(rng):
    a, b, x = _f16(rng, 1024), _f16(rng, 1024), _f16(rng, 4, 256)
    ab = (a.astype(np.float64) + b.astype(np.float64)).reshape(4, 256)
    return {"A": a, "B": b, "X": x}, {"Y": x.astype(np.float64) + ab}


def _carried_recurrence(rng):
    x = _f16(rng, 8, 512)
    acc = np.zeros((8, 128), np.float16)
    for k in range(4):  # rounded to f16 at each step, as the kernel says
        acc = (acc * np.float16(0.5) + x[:, 128 * k:128 * (k + 1)]).astype(np.float16)
    return {"X": x}, {"Y": acc.astype(np.float64)}


def _gathered_page_reshape(rng):
    k = _f16(rng, 8, 16, 4, 64)
    table = np.array([[0, 7, 3, 3]], dtype=np.int32)
    table[0, 2:] = rng.integers(1, 7)
    want = np.concatenate([2 * k[table[0], :, h, :].astype(np.float64).reshape(64, 64)
                           for h in range(4)])
    return {"K": k, "BT": table}, {"O": want}


def _paged_copy(rng):
    x = _f16(rng, 12, 2, 32, 64)
    table = rng.permutation(12)[:8].reshape(2, 4).astype(np.int32)
    t = np.arange(128)
    want = np.stack([x[table[b, t // 32], :, t % 32, :] for b in range(2)])  # (b, t, h, d)
    return {"X": x, "Idx": table}, {"Y": want.astype(np.float64).reshape(256, 2, 64)}


def _paged_gather_scatter(rng):
    x, y = _f16(rng, 12, 32, 64), _f16(rng, 12, 32, 64)
    table = rng.permutation(12)[:8].reshape(2, 4).astype(np.int32)
    want = y.astype(np.float64)
    want[table.reshape(-1)] = x[table.reshape(-1)]
    return {"X": x, "Idx": table, "Y": y}, {"Y": want}


def _paged_scatter_of_sum(rng):
    x, y = _f16(rng, 256, 64), _f16(rng, 12, 32, 64)
    table = rng.permutation(12)[:8].reshape(2, 4).astype(np.int32)
    want = y.astype(np.float64)
    want[table.reshape(-1)] = 2 * x.astype(np.float64).reshape(8, 32, 64)
    return {"X": x, "Idx": table, "Y": y}, {"Y": want}


def _paged_scores(rng):
    q, kc = _f16(rng, 2, 16, 64), _f16(rng, 12, 32, 64)
    table = np.array([[3, 0, 11, 3], [7, 5, 2, 9]], dtype=np.int32)  # a page twice, the last
    keys = kc[table].astype(np.float64).reshape(2, 128, 64)
    return {"Q": q, "Kc": kc, "Idx": table}, \
        {"S": np.einsum("bmd,btd->bmt", q.astype(np.float64), keys) / 8}


def _paged_rows_from_tile_row(rng):
    x = _f16(rng, 6, 32, 64)
    table = np.array([5, 0, 3, 5], dtype=np.int32)  # a page twice
    rows = x[table].astype(np.float64).reshape(128, 64)
    return {"X": x, "Idx": table}, {"Y": rows + 1}


def _paged_attention_step(rng):
    q, kc, vc = _f16(rng, 2, 16, 64), _f16(rng, 12, 32, 64), _f16(rng, 12, 32, 64)
    table = np.array([[3, 0, 11, 3], [7, 5, 2, 9]], dtype=np.int32)
    keys = kc[table].astype(np.float64).reshape(2, 128, 64)
    values = vc[table].astype(np.float64).reshape(2, 128, 64)
    scores = np.einsum("bmd,btd->bmt", q.astype(np.float64), keys) / 8
    p = np.exp(scores - scores.max(axis=2, keepdims=True))
    p /= p.sum(axis=2, keepdims=True)
    return {"Q": q, "Kc": kc, "Vc": vc, "Idx": table}, \
        {"O": np.einsum("bmt,btd->bmd", p, values)}


def _max_from_bit_pattern(rng):
    x = rng.standard_normal((8, 64)).astype(np.float32)
    return {"X": x}, {"Y": x.max(axis=1).astype(np.float64)}


def _block_accumulator(rng):
    x, w = _f16(rng, 16, 512), _f16(rng, 1, 512)
    xd = x.astype(np.float64)
    rstd = 1 / np.sqrt((xd * xd).mean(axis=1, keepdims=True) + 1e-3)
    return {"X": x, "W": w}, {"Y": xd * rstd * w.astype(np.float64)}


def _causal_mask_positions(rng):
    s = rng.standard_normal((32, 64)).astype(np.float32)
    rows, cols = np.indices((32, 64))
    query = 40 + 2 * (rows // 8) + (rows % 8) // 4
    return {"S": s}, {"Y": np.where(cols <= query, s.astype(np.float64), -np.inf)}


def _reshape_strided_runs(rng):
    x = rng.standard_normal((4, 8, 64)).astype(np.float32)
    xd = x.astype(np.float64)
    return {"X": x}, {"Y": xd - xd.max(axis=2, keepdims=True)}


def _online_softmax_sum(rng):
    x = rng.standard_normal((16, 256)).astype(np.float32) * 4
    xd = x.astype(np.float64)
    return {"X": x}, {"L": np.exp(xd - xd.max(axis=1, keepdims=True)).sum(axis=1)}


def _mapped_axpy(rng):
    x, b = _f16(rng, 32, 128), _f16(rng, 32, 128)
    xd = x.astype(np.float64)
    return {"X": x, "B": b}, {"Y": np.abs(xd * b.astype(np.float64) + xd)}


def _transposed_access(rng):
    x, z = _f16(rng, 8, 64), _f16(rng, 4, 4, 8)
    w = np.concatenate([np.transpose(z[2 * t:2 * t + 2], (2, 0, 1)) for t in range(2)])
    return {"X": x, "Z": z}, {"Y": x.astype(np.float64) * 2, "W": w.astype(np.float64)}


def _transposed_gather_scatter(rng):
    e, u = _f16(rng, 64, 64), _f16(rng, 8, 64)
    idx = rng.permutation(64)[:8].astype(np.int32)  # a scatter's indices are distinct
    y = np.concatenate([e[idx[2 * t:2 * t + 2]].T for t in range(4)], axis=1)
    f = np.full((64, 64), np.nan)
    f[idx] = u
    where = np.zeros((64, 64), dtype=bool)
    where[idx] = True
    return ({"E": e, "I": idx, "U": u},
            {"Y": y.astype(np.float64), "F": (where, f[where])})


CASES = {
    "transposed_gather_scatter": _transposed_gather_scatter,
    "transposed_access": _transposed_access,
    "reshape_rows": _reshape_rows,
    "reshape_total": _reshape_total,
    "reshape_scalar": _reshape_scalar,
    "scalar_into_a_column": _scalar_into_a_column,
    "reshape_chain": _reshape_chain,
    "reshape_between_computes": _reshape_between_computes,
    "slice_of_sum": _slice_of_sum,
    "carried_recurrence": _carried_recurrence,
    "gathered_page_reshape": _gathered_page_reshape,
    "paged_copy": _paged_copy,
    "paged_gather_scatter": _paged_gather_scatter,
    "paged_scatter_of_sum": _paged_scatter_of_sum,
    "paged_scores": _paged_scores,
    "paged_attention_step": _paged_attention_step,
    "paged_rows_from_tile_row": _paged_rows_from_tile_row,
    "max_from_bit_pattern": _max_from_bit_pattern,
    "mapped_axpy": _mapped_axpy,
    "causal_mask_positions": _causal_mask_positions,
    "reshape_strided_runs": _reshape_strided_runs,
    "online_softmax_sum": _online_softmax_sum,
    "block_accumulator": _block_accumulator,
    "grid_stride_rows": _grid_stride_rows,
    "chunked_normalize": _chunked_normalize,
    "rms_scalar_chain": _rms_scalar_chain,
    "rotate_halves": _rotate_halves,
    "select_relu_max": _select_relu_max,
    "grid_3d": _grid_3d,
    "grid_past_rank": _grid_past_rank,
    "i32_counters": _i32_counters,
    "split_index_copy": _split_index_copy,
    "column_sharded": _column_sharded,
    "subscript_expression": _subscript_expression,
    "in_place_scale": _in_place_scale,
    "overlapping_views": _overlapping_views,
    "extract_softmax": _extract_softmax,
    "dead_value": _dead_value,
    "sum_onto_loaded": _sum_onto_loaded,
    "half_sum": _half_sum,
    "guarded_store": _guarded_store,
    "plain_copy": _plain_copy,
    "constant_store": _constant_store,
    "bias_broadcast": _bias_broadcast,
    "chunked_row_sum": _chunked_row_sum,
    "layernorm_resident": _layernorm,
    "tiled_add": _tiled_add,
    "softmax_truncf": _softmax,
}


def test_every_kernel_has_a_case() -> None:
    assert sorted(p.stem for p in KERNELS.glob("*.mlir")) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_kernel_matches_reference_and_numpy(name: str) -> None:
    import spyre_sched

    inputs, expected = CASES[name](np.random.default_rng(7))
    result = spyre_sched.run(str(KERNELS / f"{name}.mlir"), inputs, device="spyre")
    assert result.matches, result.mismatches
    for out, want in expected.items():
        got = result.outputs[out].astype(np.float64)
        if isinstance(want, tuple):
            where, want = want
            got = got[where]
        assert got.shape == want.shape
        # f16 results: a few units in the last place of f16 (the kernels round
        # intermediates to f16 where they say so)
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)


_SHIFTED_IN_PLACE = """
#rows7 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @shift_down(%X: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f16
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Rt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #rows7, access_tile_order = #id2}
      : memref<8x256xf16> -> !ktdp.access_tile<7x256xindex>
  %Wt = ktdp.construct_access_tile %Xv[%c1, %c0] {access_tile_set = #rows7, access_tile_order = #id2}
      : memref<8x256xf16> -> !ktdp.access_tile<7x256xindex>
  %x = ktdp.load %Rt : !ktdp.access_tile<7x256xindex> -> tensor<7x256xf16>
  %ones = tensor.splat %one : tensor<7x256xf16>
  %y = arith.addf %x, %ones : tensor<7x256xf16>
  ktdp.store %y, %Wt : tensor<7x256xf16>, !ktdp.access_tile<7x256xindex>
  return
}
"""


def test_a_store_one_row_below_its_load_stays_refused(tmp_path: Path) -> None:
    """Rows 0..6 loaded, rows 1..7 stored: a later tile of the schedule would read a row an
    earlier one already wrote, so in-place ordering per iteration is not enough."""
    import spyre_sched
    from spyre_sched.errors import SpyreSchedError

    path = tmp_path / "shift_down.mlir"
    path.write_text(_SHIFTED_IN_PLACE)
    with pytest.raises(SpyreSchedError, match="no pipeline stage orders the two"):
        spyre_sched.run(str(path), {}, device="spyre")


def test_overlapping_chunks_are_summed_iteration_by_iteration(tmp_path) -> None:
    """Chunks of 128 columns starting 4 apart overlap, so the loop is not folded into one
    sum (columns would be counted once): it runs iteration by iteration, its accumulator
    carried in a scratchpad slot, and counts them as the kernel says."""
    import spyre_sched

    text = (KERNELS / "chunked_row_sum.mlir").read_text().replace(
        "%col = arith.muli %k, %c128 : index", "%col = arith.muli %k, %c4 : index")
    kernel = tmp_path / "overlapping_chunks.mlir"
    kernel.write_text(text)
    x = _f16(np.random.default_rng(3), 16, 512)
    result = spyre_sched.run(str(kernel), {"X": x}, device="spyre")
    assert result.matches, result.mismatches
    xd = x.astype(np.float64)
    want = sum(xd[:, 4 * k:4 * k + 128].sum(axis=1) for k in range(4))
    np.testing.assert_allclose(result.outputs["S"].astype(np.float64), want, rtol=1e-5,
                               atol=1e-3)


def test_paged_scores_on_a_device_whose_scratchpad_is_not_named_lx(tmp_path) -> None:
    """The address buffer of a gather copied into a scratchpad slot lives in the device's
    scratchpad, whatever the device calls it (the sample device's is not `LX`): one
    sequence on the one-core sample device."""
    import spyre_sched

    text = (KERNELS / "paged_scores.mlir").read_text().replace("grid = [2 : i64]",
                                                              "grid = [1 : i64]")
    kernel = tmp_path / "paged_scores_one_core.mlir"
    kernel.write_text(text)
    inputs, expected = _paged_scores(np.random.default_rng(5))
    result = spyre_sched.run(str(kernel), inputs, device="sample_device")
    assert result.matches, result.mismatches
    np.testing.assert_allclose(result.outputs["S"].astype(np.float64)[0], expected["S"][0],
                               rtol=2e-2, atol=2e-2)
