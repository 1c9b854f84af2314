"""Inserts into a loop-carried tensor update it in place only when nothing else can see
the array: the results are those of copying every time."""

from __future__ import annotations

import numpy as np

from emulator.reference import run

BOX = "affine_set<(d0, d1) : (d0 >= 0, -d0 + {r} >= 0, d1 >= 0, -d1 + {c} >= 0)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"


def view(name: str, arg: str, rows: int, cols: int) -> str:
    return (f"%{name} = ktdp.construct_memory_view %{arg}, sizes: [{rows}, {cols}], "
            f"strides: [{cols}, 1] {{coordinate_set = {BOX.format(r=rows - 1, c=cols - 1)}, "
            f"memory_space = #ktdp.memory_space<global>}} : memref<{rows}x{cols}xf16>")


def tile(name: str, v: str, i: str, rows: int, cols: int, vr: int, vc: int) -> str:
    return (f"%{name} = ktdp.construct_access_tile %{v}[{i}, %c0] {{access_tile_set = "
            f"{BOX.format(r=rows - 1, c=cols - 1)}, access_tile_order = {ID2}}} : "
            f"memref<{vr}x{vc}xf16> -> !ktdp.access_tile<{rows}x{cols}xindex>")


HEAD = """func.func @k(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
"""


def rand(shape, seed=0):
    return np.random.default_rng(seed).uniform(-2, 2, shape).astype(np.float16)


def test_a_loop_re_entered_copies_the_tensor_it_is_handed_again():
    # Outer iteration j hands the inner loop %t, which the inner loop of iteration j - 1
    # built; %t is also stored after the inner loop, so it must keep its values.
    text = HEAD + f"""
  {view("Xv", "X", 8, 4)}
  {view("Yv", "Y", 8, 4)}
  %init = tensor.empty() : tensor<4x4xf16>
  %fin = scf.for %j = %c0 to %c2 step %c1 iter_args(%t = %init) -> (tensor<4x4xf16>) {{
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %t) -> (tensor<4x4xf16>) {{
      %row = affine.apply affine_map<(i, j) -> (i + j * 4)>(%i, %j)
      {tile("Xt", "Xv", "%row", 1, 4, 8, 4)}
      %x = ktdp.load %Xt : !ktdp.access_tile<1x4xindex> -> tensor<1x4xf16>
      %n = tensor.insert_slice %x into %acc[%i, 0] [1, 4] [1, 1] : tensor<1x4xf16> into tensor<4x4xf16>
      scf.yield %n : tensor<4x4xf16>
    }}
    %out = affine.apply affine_map<(j) -> (j * 4)>(%j)
    {tile("Yt", "Yv", "%out", 4, 4, 8, 4)}
    ktdp.store %t, %Yt : tensor<4x4xf16>, !ktdp.access_tile<4x4xindex>
    scf.yield %r : tensor<4x4xf16>
  }}
  return
}}
"""
    x = rand((8, 4))
    y = run(text, {"X": x})["Y"]
    assert np.array_equal(y[:4], np.zeros((4, 4), np.float16))
    assert np.array_equal(y[4:], x[:4])


def test_the_initial_tensor_keeps_its_values():
    text = HEAD + f"""
  {view("Xv", "X", 4, 4)}
  {view("Yv", "Y", 8, 4)}
  {tile("Xt", "Xv", "%c0", 4, 4, 4, 4)}
  %init = ktdp.load %Xt : !ktdp.access_tile<4x4xindex> -> tensor<4x4xf16>
  %z = tensor.empty() : tensor<1x4xf16>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<4x4xf16>) {{
    %n = tensor.insert_slice %z into %acc[%i, 0] [1, 4] [1, 1] : tensor<1x4xf16> into tensor<4x4xf16>
    scf.yield %n : tensor<4x4xf16>
  }}
  {tile("Y0", "Yv", "%c0", 4, 4, 8, 4)}
  {tile("Y1", "Yv", "%c4", 4, 4, 8, 4)}
  ktdp.store %init, %Y0 : tensor<4x4xf16>, !ktdp.access_tile<4x4xindex>
  ktdp.store %r, %Y1 : tensor<4x4xf16>, !ktdp.access_tile<4x4xindex>
  return
}}
"""
    x = rand((4, 4), 1)
    y = run(text, {"X": x})["Y"]
    assert np.array_equal(y[:4], x) and np.array_equal(y[4:], np.zeros((4, 4), np.float16))


def test_element_by_element_build_with_tensor_insert():
    # The carried value is also read inside the loop (a second use): copied every time,
    # so each step sees the previous step's tensor, and the result is the row reversed.
    text = HEAD + f"""
  %c3 = arith.constant 3 : index
  {view("Xv", "X", 1, 4)}
  {view("Yv", "Y", 2, 4)}
  {tile("Xt", "Xv", "%c0", 1, 4, 1, 4)}
  %x = ktdp.load %Xt : !ktdp.access_tile<1x4xindex> -> tensor<1x4xf16>
  %init = tensor.empty() : tensor<1x4xf16>
  %rev, %same = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init, %cp = %init)
      -> (tensor<1x4xf16>, tensor<1x4xf16>) {{
    %src = arith.subi %c3, %i : index
    %v = tensor.extract %x[%c0, %src] : tensor<1x4xf16>
    %w = tensor.extract %x[%c0, %i] : tensor<1x4xf16>
    %n = tensor.insert %v into %acc[%c0, %i] : tensor<1x4xf16>
    %m = tensor.insert %w into %cp[%c0, %i] : tensor<1x4xf16>
    %keep = tensor.extract %m[%c0, %c0] : tensor<1x4xf16>
    scf.yield %n, %m : tensor<1x4xf16>, tensor<1x4xf16>
  }}
  {tile("Y0", "Yv", "%c0", 1, 4, 2, 4)}
  {tile("Y1", "Yv", "%c1", 1, 4, 2, 4)}
  ktdp.store %rev, %Y0 : tensor<1x4xf16>, !ktdp.access_tile<1x4xindex>
  ktdp.store %same, %Y1 : tensor<1x4xf16>, !ktdp.access_tile<1x4xindex>
  return
}}
"""
    x = rand((1, 4), 2)
    y = run(text, {"X": x})["Y"]
    assert np.array_equal(y[0], x[0, ::-1]) and np.array_equal(y[1], x[0])
