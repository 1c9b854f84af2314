"""Argument inference: shape, element type, role and memory spaces of each pointer argument."""

from pathlib import Path

import pytest

from spyre_sched.frontend import load_kernel
from spyre_sched.frontend.arguments import infer_arguments

TESTS = Path(__file__).parents[1]
SEARCH = (TESTS.parent / "examples", TESTS / "polyhedral" / "kernels", TESTS / "emulator" / "kernels")


@pytest.fixture
def kernel():
    def load(name: str):
        return load_kernel(next(d / name for d in SEARCH if (d / name).exists()))

    return load


def test_add_arguments(kernel):
    args = infer_arguments(kernel("add_96x64.mlir").func)
    assert [(a.name, a.position, a.role, a.shape, a.element_type) for a in args] == [
        ("A", 0, "in", (96, 64), "f16"),
        ("B", 1, "in", (96, 64), "f16"),
        ("C", 2, "out", (96, 64), "f16"),
    ]
    assert all(a.memory_spaces == ("global",) for a in args)
    assert str(args[2]) == "%C (#2): out [96x64] f16 in global"


def test_runtime_flat_inout_and_scalar_arguments(kernel):
    args = {a.name: a for a in infer_arguments(kernel("loop_runtime.mlir").func)}
    assert args["X"].shape == (16, None) and args["X"].upper_bounds == (16, 512)
    assert args["O"].flat and args["O"].shape == (8 * 1024,) and args["O"].role == "out"
    assert args["T"].role == "inout"
    assert args["n"].role == "scalar" and args["s"].role == "scalar"


def test_distributed_output_argument(kernel):
    args = infer_arguments(kernel("distributed_128x64.mlir").func)
    assert [(a.name, a.role, a.shape) for a in args] == [("O", "out", (128, 64))]


def test_index_tensor_read_through_ind_is_an_input(kernel):
    args = {a.name: a for a in infer_arguments(kernel("gather_scatter.mlir").func)}
    assert args["I"].role == "in" and args["I"].element_type == "i32"
    assert (args["X"].role, args["Y"].role, args["Z"].role) == ("in", "out", "out")


def test_a_view_unbounded_along_a_dim_gives_no_extent_there(tmp_path):
    """A coordinate set with no upper bound on a dim (`0 * d0 + 11 >= 0` where `-d0 + 11 >= 0`
    was meant) leaves that extent unknown (the lowering refuses such a view, located);
    asking isl for its maximum failed with an internal error before."""
    source = (TESTS / "normalize" / "kernels" / "paged_gather_scatter.mlir").read_text()
    broken = source.replace("%Yv = ktdp.construct_memory_view %Y, sizes: [12, 32, 64], strides: "
                            "[2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, "
                            "((d0 * -1) + 11) >= 0",
                            "%Yv = ktdp.construct_memory_view %Y, sizes: [12, 32, 64], strides: "
                            "[2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, "
                            "((d0 * 0) + 11) >= 0")
    assert broken != source
    path = tmp_path / "unbounded.mlir"
    path.write_text(broken)
    args = {a.name: a for a in infer_arguments(load_kernel(path).func)}
    assert args["Y"].shape == (None, 32, 64) and args["Y"].upper_bounds[0] is None
    assert args["X"].shape == (12, 32, 64)
