"""A mixed-precision matmul body (extf, extf, mulf f32, addf f32) runs through numpy.matmul
(`emulator/reference/contraction.py`) with the reference's numerics: bit for bit what the
general path (every term materialised, the exact sum rounded once) gives, on data where
float64 sums are exact, where they are not (tiny and huge values in one row), with exact
zeros of either sign, non-finite values, a non-zero init, and operands or the result
indexed transposed; in a launch that tracks error bounds, the same values and the same
bounds (within float64's own summation error) as the general path, also where the operands
or the init carry bounds of their own (never smaller than the general path's)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from emulator.reference import run, run_with_error_bounds

contraction = importlib.import_module("emulator.reference.contraction")
f16_products = importlib.import_module("emulator.numerics.f16_products")

M, N, K = 24, 20, 40
MAPS = {
    "plain": ("(d0, d2)", "(d2, d1)", "(d0, d1)"),
    "a_transposed": ("(d2, d0)", "(d2, d1)", "(d0, d1)"),
    "b_transposed": ("(d0, d2)", "(d1, d2)", "(d0, d1)"),
    "c_transposed": ("(d0, d2)", "(d2, d1)", "(d1, d0)"),
    "reduction_first": ("(d1, d0)", "(d0, d2)", "(d1, d2)"),  # d0 reduces
}


def _kernel(maps: tuple[str, str, str], accumulate: bool) -> tuple[str, dict]:
    """C (+)= A x B with the given indexing maps; returns the text and the shapes."""
    a_map, b_map, c_map = maps
    reduce_dim = ({"d0", "d1", "d2"} - set(c_map.strip("()").replace(" ", "").split(","))).pop()
    iterators = ", ".join('"reduction"' if d == reduce_dim else '"parallel"'
                          for d in ("d0", "d1", "d2"))
    # extents of d0, d1, d2 so that the named operands take M x K, K x N, M x N shapes
    if reduce_dim == "d2":
        ext = {"d0": M, "d1": N, "d2": K}
    else:  # reduction_first: d1 = M rows, d0 = K, d2 = N
        ext = {"d1": M, "d0": K, "d2": N}

    def shape(amap: str) -> list[int]:
        return [ext[d.strip()] for d in amap.strip("()").split(",")]

    shapes = {"A": shape(a_map), "B": shape(b_map), "C": shape(c_map)}

    def view(name: str, etype: str) -> str:
        r, c = shapes[name]
        box = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {r - 1} >= 0, d1 >= 0, -d1 + {c - 1} >= 0)>"
        return (f"  %{name}v = ktdp.construct_memory_view %{name}, sizes: [{r}, {c}], strides: "
                f"[{c}, 1] {{coordinate_set = {box}, memory_space = #ktdp.memory_space<global>}}"
                f" : memref<{r}x{c}x{etype}>\n"
                f"  %{name}t = ktdp.construct_access_tile %{name}v[%c0, %c0] {{access_tile_set = "
                f"{box}, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}} : "
                f"memref<{r}x{c}x{etype}> -> !ktdp.access_tile<{r}x{c}xindex>\n")

    def t(name: str, etype: str) -> str:
        r, c = shapes[name]
        return f"tensor<{r}x{c}x{etype}>"

    init = (f"  %init = ktdp.load %Ct : !ktdp.access_tile<{shapes['C'][0]}x{shapes['C'][1]}xindex>"
            f" -> {t('C', 'f32')}\n" if accumulate else
            f"  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : {t('C', 'f32')}\n"
            f"  %init = linalg.fill ins(%z : f32) outs(%e : {t('C', 'f32')}) -> {t('C', 'f32')}\n")
    text = f"""func.func @mm(%A: index, %B: index, %C: index) {{
  %c0 = arith.constant 0 : index
{view("A", "f16")}{view("B", "f16")}{view("C", "f32")}
  %a = ktdp.load %At : !ktdp.access_tile<{shapes['A'][0]}x{shapes['A'][1]}xindex> -> {t('A', 'f16')}
  %b = ktdp.load %Bt : !ktdp.access_tile<{shapes['B'][0]}x{shapes['B'][1]}xindex> -> {t('B', 'f16')}
{init}  %c = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> {a_map}>, affine_map<(d0, d1, d2) -> {b_map}>, affine_map<(d0, d1, d2) -> {c_map}>], iterator_types = [{iterators}]}} ins(%a, %b : {t('A', 'f16')}, {t('B', 'f16')}) outs(%init : {t('C', 'f32')}) {{
  ^bb0(%x: f16, %y: f16, %o: f32):
    %x32 = arith.extf %x : f16 to f32
    %y32 = arith.extf %y : f16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }} -> {t('C', 'f32')}
  ktdp.store %c, %Ct : {t('C', 'f32')}, !ktdp.access_tile<{shapes['C'][0]}x{shapes['C'][1]}xindex>
  return
}}
"""
    return text, shapes


def _data(kind: str, shapes: dict, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    everything = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    finite = everything[np.isfinite(everything)]
    a = rng.uniform(-2, 2, shapes["A"]).astype(np.float16)
    b = rng.uniform(-2, 2, shapes["B"]).astype(np.float16)
    c = np.zeros(shapes["C"], np.float32)
    if kind == "any_finite":  # every exponent: many outputs beyond float64's exact range
        a = rng.choice(finite, shapes["A"])
        b = rng.choice(finite, shapes["B"])
    elif kind == "tiny_and_huge":  # a few subnormals and large values among ordinary ones
        a.flat[rng.choice(a.size, 30)] = np.float16(6e-8)
        b.flat[rng.choice(b.size, 30)] = np.float16(-3e4)
        a.flat[rng.choice(a.size, 10)] = np.float16(-6.1e-5)
    elif kind == "zeros":  # exact zeros of either sign: all-(-0) terms give -0
        c[...] = -0.0  # (accumulated onto)
        b = np.abs(b)
        b[b == 0] = np.float16(1.0)
        a[: a.shape[0] // 2] = np.float16(-0.0)  # -0 * positive: -0 products
        b[:, : b.shape[1] // 2] = np.float16(0.0)  # +0 products with the positive a's
        a[a.shape[0] // 2:] = np.abs(a[a.shape[0] // 2:])
    elif kind == "init":  # accumulate onto C, itself spanning float32's range
        c = (rng.uniform(-1, 1, shapes["C"]) * 2.0 ** rng.integers(-60, 60, shapes["C"])
             ).astype(np.float32)
        c.flat[:5] = [0.0, -0.0, 1e-45, -3e38, 7.0]
    elif kind == "non_finite":
        a.flat[3] = np.inf
        b.flat[5] = np.nan
    return {"A": a, "B": b, "C": c}


def _general(monkeypatch, text: str, inputs: dict) -> np.ndarray:
    with monkeypatch.context() as patch:
        patch.setattr(contraction, "contract", lambda *args: None)
        return run(text, inputs)["C"]


def _count_contractions(monkeypatch) -> list[bool]:
    """Spy on `contraction.contract`: one entry per call, whether it took the call."""
    calls: list[bool] = []
    real = contraction.contract

    def counting(*args):
        result = real(*args)
        calls.append(result is not None)
        return result

    monkeypatch.setattr(contraction, "contract", counting)
    return calls


@pytest.mark.parametrize("maps", sorted(MAPS))
@pytest.mark.parametrize("kind", ["uniform", "any_finite", "tiny_and_huge", "zeros", "init",
                                  "non_finite"])
def test_matmul_path_is_bit_identical_to_the_general_path(monkeypatch, maps, kind):
    text, shapes = _kernel(MAPS[maps], accumulate=kind in ("init", "zeros"))
    inputs = _data(kind, shapes, seed=len(maps) * 7 + len(kind))
    calls = _count_contractions(monkeypatch)
    fast = run(text, inputs)["C"]
    assert calls == [kind != "non_finite"]  # taken whenever the operands are finite
    want = _general(monkeypatch, text, inputs)
    assert np.array_equal(fast.view(np.uint32), want.view(np.uint32))
    if kind == "zeros" and maps not in ("a_transposed", "b_transposed"):  # rows are M there
        assert np.signbit(want[want == 0]).any() and (~np.signbit(want[want == 0])).any()


def _bounds_against_the_general_path(monkeypatch, text: str, inputs: dict, depth,
                                     looser: float) -> np.ndarray:
    """Run the launch with bounds as it is, then with every contraction refused (the
    general path): the same values, NaN and infinite bounds in the same places, and every
    finite bound never smaller than the general path's and larger by at most `looser`
    relative. Returns the general path's bounds."""
    values, bounds = run_with_error_bounds(text, inputs, "f32", max_roundings=depth)
    monkeypatch.setattr(contraction, "contract", lambda *args: None)
    want, want_bounds = run_with_error_bounds(text, inputs, "f32", max_roundings=depth)
    assert np.array_equal(values["C"].view(np.uint32), want["C"].view(np.uint32))
    fast, slow = bounds["C"], want_bounds["C"]
    assert np.array_equal(np.isnan(fast), np.isnan(slow))
    assert np.array_equal(np.isinf(fast), np.isinf(slow))
    finite = np.isfinite(slow)
    assert np.all(fast[finite] >= slow[finite])
    assert np.all(fast[finite] <= slow[finite] * (1 + looser))
    return slow


@pytest.mark.parametrize("maps", sorted(MAPS))
@pytest.mark.parametrize("kind", ["uniform", "any_finite", "tiny_and_huge", "zeros", "init"])
@pytest.mark.parametrize("depth", [None, 8])
def test_tracked_matmul_path_bounds_match_the_general_path(monkeypatch, maps, kind, depth):
    text, shapes = _kernel(MAPS[maps], accumulate=kind in ("init", "zeros"))
    inputs = _data(kind, shapes, seed=len(maps) * 5 + len(kind))
    calls = _count_contractions(monkeypatch)
    slow = _bounds_against_the_general_path(monkeypatch, text, inputs, depth, 1e-12)
    assert calls == [True]
    assert np.isfinite(slow).any()


@pytest.mark.parametrize("kind", ["any_finite", "tiny_and_huge"])
def test_sums_beyond_float64_are_settled_or_taken_in_integer_pieces(monkeypatch, kind):
    # outputs float64 cannot sum exactly are settled by float64's error interval or go
    # through the pieces (no term materialised but for exact zeros), and give the
    # general path's values bit for bit
    text, shapes = _kernel(MAPS["plain"], accumulate=False)
    inputs = _data(kind, shapes, seed=11)
    pieces = []
    real = f16_products._sums_by_parts
    monkeypatch.setattr(f16_products, "_sums_by_parts",
                        lambda *args: pieces.append(1) or real(*args))
    fast = run(text, inputs)["C"]
    assert len(pieces) <= 1
    want = _general(monkeypatch, text, inputs)
    assert np.array_equal(fast.view(np.uint32), want.view(np.uint32))


def test_the_matmul_path_is_the_exact_sum_rounded_once():
    # Against an independent computation: each output's exact sum (fractions of the f16
    # values); the f32 result is the nearest float32 to it (ties aside, none here).
    from fractions import Fraction

    text, shapes = _kernel(MAPS["plain"], accumulate=False)
    inputs = _data("tiny_and_huge", shapes, seed=5)
    got = run(text, inputs)["C"]
    a, b = inputs["A"].astype(np.float64), inputs["B"].astype(np.float64)
    tiny_rows = np.nonzero(np.abs(a).min(axis=1) < 1e-4)[0]
    assert len(tiny_rows)
    for i, j in [(0, 0), (3, 7), (M - 1, N - 1)] + [(int(r), 1) for r in tiny_rows[:5]]:
        exact = sum(Fraction(float(a[i, k])) * Fraction(float(b[k, j])) for k in range(K))
        r = got[i, j]
        error = abs(Fraction(float(r)) - exact)
        for neighbour in (np.nextafter(r, np.float32(np.inf)), np.nextafter(r, np.float32(-np.inf))):
            assert error <= abs(Fraction(float(neighbour)) - exact)


def test_only_the_exact_product_body_is_a_contraction():
    from emulator.reference import linalg
    from spyre_sched.frontend import load_kernel, parse_kernel

    def sides(kernel):
        (op,) = [o for o in kernel.func.walk() if o.name in ("linalg.generic", "linalg.matmul")]
        return contraction.matmul_body(op.body.block, linalg._reduction_combiners(
            op.body.block, 2, op))

    text, _ = _kernel(MAPS["plain"], accumulate=False)
    assert sides(parse_kernel(text, "<mm>")) == (0, 1)
    swapped = text.replace("%p = arith.mulf %x32, %y32", "%p = arith.mulf %y32, %x32")
    assert sides(parse_kernel(swapped, "<mm>")) == (1, 0)
    # one more op in the body (the product scaled): not the pattern
    scaled = text.replace("    %s = arith.addf %o, %p : f32",
                          "    %q = arith.mulf %p, %p : f32\n    %s = arith.addf %o, %q : f32")
    assert sides(parse_kernel(scaled, "<mm>")) is None
    # f16 products (linalg.matmul on f16): each product rounded to f16, not exact
    matmul_f16 = load_kernel(contraction.__file__.replace(
        "emulator/reference/contraction.py", "bench/interpreter_kernels/matmul_256.mlir"))
    assert sides(matmul_f16) is None


def _chained(bounded: str) -> tuple[str, dict]:
    """C = H @ B (+ init) where a reordered sum reaches the operands `bounded` names:
    "a" (H = f16(X @ W), an FFN's down projection), "both" (B = f16(V @ U) too) or
    "init" (the init is another matmul's f32 result)."""
    k0 = 16

    def view(name: str, rows: int, cols: int, etype: str) -> str:
        box = (f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {rows - 1} >= 0, d1 >= 0, "
               f"-d1 + {cols - 1} >= 0)>")
        return (f"  %{name}v = ktdp.construct_memory_view %{name}, sizes: [{rows}, {cols}], "
                f"strides: [{cols}, 1] {{coordinate_set = {box}, memory_space = "
                f"#ktdp.memory_space<global>}} : memref<{rows}x{cols}x{etype}>\n"
                f"  %{name}t = ktdp.construct_access_tile %{name}v[%c0, %c0] {{access_tile_set"
                f" = {box}, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}} : "
                f"memref<{rows}x{cols}x{etype}> -> !ktdp.access_tile<{rows}x{cols}xindex>\n"
                f"  %t_{name.lower()} = ktdp.load %{name}t : !ktdp.access_tile<{rows}x{cols}xindex>"
                f" -> tensor<{rows}x{cols}x{etype}>\n")

    def matmul(out: str, lhs: str, rhs: str, rows: int, depth: int, cols: int,
               init: str | None = None) -> str:
        t = f"tensor<{rows}x{cols}xf32>"
        head = "" if init else (f"  %{out}_e = tensor.empty() : {t}\n  %{out}_i = linalg.fill "
                                f"ins(%zero : f32) outs(%{out}_e : {t}) -> {t}\n")
        return head + (
            f"  %{out} = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,"
            f" affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], "
            f"iterator_types = [\"parallel\", \"parallel\", \"reduction\"]}} ins(%{lhs}, %{rhs} "
            f": tensor<{rows}x{depth}xf16>, tensor<{depth}x{cols}xf16>) outs(%{init or out + '_i'}"
            f" : {t}) {{\n  ^bb0(%x: f16, %y: f16, %o: f32):\n"
            f"    %x32 = arith.extf %x : f16 to f32\n    %y32 = arith.extf %y : f16 to f32\n"
            f"    %p = arith.mulf %x32, %y32 : f32\n    %s = arith.addf %o, %p : f32\n"
            f"    linalg.yield %s : f32\n  }} -> {t}\n")

    def to_f16(out: str, source: str, rows: int, cols: int) -> str:
        return (f"  %{out}_e = tensor.empty() : tensor<{rows}x{cols}xf16>\n"
                f"  %{out} = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,"
                f" affine_map<(d0, d1) -> (d0, d1)>], iterator_types = [\"parallel\", "
                f"\"parallel\"]}} ins(%{source} : tensor<{rows}x{cols}xf32>) outs(%{out}_e : "
                f"tensor<{rows}x{cols}xf16>) {{\n  ^bb0(%v: f32, %o: f16):\n"
                f"    %r = arith.truncf %v : f32 to f16\n    linalg.yield %r : f16\n"
                f"  }} -> tensor<{rows}x{cols}xf16>\n")

    shapes = {"X": [M, k0], "W": [k0, K], "B": [K, N], "V": [K, k0], "U": [k0, N],
              "P": [M, k0], "Q": [k0, N], "C": [M, N]}
    body = view("X", M, k0, "f16") + view("W", k0, K, "f16")
    body += matmul("s1", "t_x", "t_w", M, k0, K) + to_f16("h1", "s1", M, K)
    if bounded == "both":
        body += view("V", K, k0, "f16") + view("U", k0, N, "f16")
        body += matmul("r1", "t_v", "t_u", K, k0, N) + to_f16("b1", "r1", K, N)
    else:
        body += view("B", K, N, "f16")
    init = None
    if bounded == "init":
        body += view("P", M, k0, "f16") + view("Q", k0, N, "f16")
        body += matmul("g1", "t_p", "t_q", M, k0, N)
        init = "g1"
    body += matmul("c1", "h1", "b1" if bounded == "both" else "t_b", M, K, N, init)
    names = ["X", "W"] + (["V", "U"] if bounded == "both" else ["B"]) + \
        (["P", "Q"] if bounded == "init" else []) + ["C"]
    box = "affine_set<(d0, d1) : (d0 >= 0, -d0 + {} >= 0, d1 >= 0, -d1 + {} >= 0)>".format(M - 1, N - 1)
    text = (f"func.func @chained({', '.join('%' + n + ': index' for n in names)}) {{\n"
            f"  %c0 = arith.constant 0 : index\n  %zero = arith.constant 0.0 : f32\n{body}"
            f"  %Cv = ktdp.construct_memory_view %C, sizes: [{M}, {N}], strides: [{N}, 1] "
            f"{{coordinate_set = {box}, memory_space = #ktdp.memory_space<global>}} : "
            f"memref<{M}x{N}xf32>\n"
            f"  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {{access_tile_set = {box}, "
            f"access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}} : memref<{M}x{N}xf32> -> "
            f"!ktdp.access_tile<{M}x{N}xindex>\n"
            f"  ktdp.store %c1, %Ct : tensor<{M}x{N}xf32>, !ktdp.access_tile<{M}x{N}xindex>\n"
            f"  return\n}}\n")
    return text, {n: shapes[n] for n in names}


@pytest.mark.parametrize("bounded", ["a", "both", "init"])
@pytest.mark.parametrize("kind", ["uniform", "tiny_and_huge"])
@pytest.mark.parametrize("depth", [None, 8])
def test_operands_that_carry_bounds_stay_on_the_matmul_path(monkeypatch, bounded, kind, depth):
    """A matmul whose operands (or init) a reordered sum reaches: its terms' bounds summed
    by matrix products (`carried_sum_bound`), the same values as the general path and
    bounds never smaller than its (a verdict cannot change with the path) and larger by
    no more than float64's summation error."""
    text, shapes = _chained(bounded)
    rng = np.random.default_rng(len(bounded) * 3 + len(kind))
    inputs = {n: rng.uniform(-2, 2, s).astype(np.float16) for n, s in shapes.items() if n != "C"}
    if kind == "tiny_and_huge":
        inputs["X"].flat[rng.choice(inputs["X"].size, 8)] = np.float16(6e-8)
        inputs["X"].flat[rng.choice(inputs["X"].size, 8)] = np.float16(-3e2)
    carried = []
    real = contraction.carried_sum_bound
    monkeypatch.setattr(contraction, "carried_sum_bound",
                        lambda *args: carried.append(1) or real(*args))
    # where both operands vary, one expression bounds the four corners of every term
    # (and a product's rounding is counted wherever both vary): a little looser there
    slow = _bounds_against_the_general_path(monkeypatch, text, inputs, depth,
                                            2.0**-12 if bounded == "both" else 1e-9)
    assert carried  # the last matmul took the matrix-product path
    assert np.isfinite(slow).all() and (slow > 0).all()


def test_a_bound_the_matrix_path_cannot_carry_goes_the_general_way():
    """Not finite, or a corner past f16's largest value: the general path decides."""
    a = np.full((2, 3), 65504.0)
    b = np.ones((3, 2))
    how = contraction.SumBounds("f32", None, "f32")
    init = np.zeros((2, 2))
    assert contraction.carried_sum_bound(a, b, np.full((2, 3), 32.0), None, None, init,
                                         a @ b, how) is None
    assert contraction.carried_sum_bound(a / 4, b, np.full((2, 3), 1.0), None, None, init,
                                         (a / 4) @ b, how) is not None
    ins = [np.ones((2, 1, 3), np.float16), np.ones((1, 2, 3), np.float16)]
    maps = [None, None]
    args = (ins, maps, [2, 2, 3], [2], np.zeros((2, 2)), how)
    from xdsl.ir.affine import AffineMap
    maps[:] = [AffineMap.from_callable(lambda i, j, k: (i, k)),
               AffineMap.from_callable(lambda i, j, k: (k, j))]
    assert contraction.contract(*args, (np.full((2, 1, 3), np.inf), None, None)) is None
    assert contraction.contract(*args, (np.full((2, 1, 3), np.nan), None, None)) is None
    assert contraction.contract(*args, (np.full((2, 1, 3), 0.5), None, None)) is not None
