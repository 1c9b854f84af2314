"""One verify entry point: kernel-level rules run on any module, located or not."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.parser import Parser

from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import SourceLocation, VerifyError
from spyre_sched.frontend import parse_kernel
from spyre_sched.verify import verify_module

ADD = (Path(__file__).parents[2] / "examples" / "add_96x64.mlir").read_text()
# 4 rows per tile in the set, 3 in the type: only the kernel-level tile-shape rule sees it
# (a warning: the dialect itself only checks ranks).
WRONG_SHAPE = ADD.replace("+ 2 >= 0, d1", "+ 3 >= 0, d1", 1)
# An empty grid: a kernel-level rule xDSL's op verifiers do not know.
NO_GRID = ADD.replace("grid = [32]", "grid = []", 1)


def _plain_module(text: str):
    """A module as a pass would hold it: parsed without source positions."""
    return Parser(make_context(), text).parse_module()


def test_module_verify_alone_misses_the_kernel_rules_and_verify_module_does_not():
    module = _plain_module(NO_GRID)
    module.verify()  # xDSL's op verifiers do not know the kernel rules
    with pytest.raises(VerifyError) as info:
        verify_module(module, stage="after pass test-pass")
    err = info.value
    assert not isinstance(err.location, SourceLocation)
    assert err.location.startswith("op func.func @add")
    assert "'grid' must have at least one dimension" in err.message
    assert err.message.endswith("(after pass test-pass)")


def test_rules_stricter_than_the_dialect_are_returned_as_warnings():
    module = _plain_module(WRONG_SHAPE)
    warnings = verify_module(module)
    assert [w.code for w in warnings] == ["tile-shape"] * 3  # the tiles of A, B and C
    assert "the tile type says 3x64 but its set spans 4x64" in warnings[0].message
    assert warnings[0].op.name == "ktdp.construct_access_tile"


def test_use_before_definition_in_a_built_module():
    text = ADD.replace("%c3 = arith.constant 3 : index\n", "").replace(
        "%row0 = arith.muli %id, %c3 : index",
        "%row0 = arith.muli %id, %c3 : index\n  %c3 = arith.constant 3 : index")
    with pytest.raises(VerifyError, match="'arith.muli' uses %c3 before it is defined") as info:
        verify_module(_plain_module(text))
    assert "func.func @add > arith.muli #" in str(info.value.location)


def test_parsed_kernels_are_located_through_the_same_entry_point():
    with pytest.raises(VerifyError) as info:
        parse_kernel(NO_GRID, "k.mlir")
    assert isinstance(info.value.location, SourceLocation)
    assert (info.value.location.file, info.value.location.line) == ("k.mlir", 6)
    kernel = parse_kernel(WRONG_SHAPE, "k.mlir")
    assert [kernel.location_of(w.op).line for w in kernel.warnings] == [17, 19, 21]


def test_an_op_a_pass_added_is_named_by_path_inside_its_located_parent():
    kernel = parse_kernel(ADD, "k.mlir")
    op = next(o for o in kernel.func.walk() if o.name == "ktdp.load")
    clone = op.clone()
    op.parent_block().insert_op_after(clone, op)
    where = kernel.location_of(clone)
    assert isinstance(where, str) and "func.func @add > ktdp.load #" in where
    assert "inside the op at k.mlir:6:1" in where


def test_a_slice_with_fewer_offsets_than_dims_is_a_located_error():
    """A kernel mutant (seed 61) wrote `tensor.extract_slice %x[0] [2, 128] [1, 1]` on a
    2-D tensor: xDSL's verifier takes it, and `slice-to-subtile` crashed on it (exit 2)."""
    text = (Path(__file__).parents[1] / "normalize" / "kernels" / "half_sum.mlir").read_text()
    bad = text.replace("tensor.extract_slice %x[0, 128] [2, 128]",
                       "tensor.extract_slice %x[0] [2, 128]", 1)
    assert bad != text
    with pytest.raises(VerifyError, match="'tensor.extract_slice' op expected 2 offset "
                                          "values, got 1") as info:
        parse_kernel(bad, "half_sum.mlir")
    assert info.value.location.line == text[:text.index("%x[0, 128]")].count("\n") + 1


@pytest.mark.parametrize("sizes, ok", [("[2, 0]", False), ("[2, 64]", False),
                                       ("[1, 2, 128]", False), ("[2, 128]", True)])
def test_a_slice_whose_sizes_are_not_its_result_type_is_a_located_error(sizes, ok):
    """A kernel mutant (seed 1214) wrote `tensor.extract_slice %x[0, 0] [2, 0] [1, 1]` to a
    `tensor<2x128xf16>`: xDSL's verifier takes it, and the reference interpreter failed on
    the empty slice (exit 2). The result type must be the sizes, less some dims of 1."""
    text = (Path(__file__).parents[1] / "normalize" / "kernels" / "half_sum.mlir").read_text()
    bad = text.replace("tensor.extract_slice %x[0, 0] [2, 128]",
                       f"tensor.extract_slice %x[0, 0] {sizes}", 1)
    assert "tensor.extract_slice %x[0, 0] [2, 128]" in text
    if ok:
        parse_kernel(bad, "half_sum.mlir")
        return
    with pytest.raises(VerifyError, match=rf"'tensor.extract_slice' op (sizes \{sizes[:-1]}\] "
                                          r"do not give the result type tensor<2x128xf16>|"
                                          r"expected 2 size values)") as info:
        parse_kernel(bad, "half_sum.mlir")
    assert info.value.location.line == text[:text.index("%x[0, 0] [2, 128]")].count("\n") + 1


@pytest.mark.parametrize("dim", ["1000000000000", "-1", "2"])
def test_a_linalg_index_of_a_loop_its_op_has_not_is_a_located_error(dim):
    """Kernel mutants (seed 61) wrote `linalg.index 1000000000000` and `-1` in a 2-loop
    generic: xDSL's verifier takes them, and the pipeline failed on them (exit 2)."""
    text = (Path(__file__).parents[1] / "normalize" / "kernels"
            / "causal_mask_positions.mlir").read_text()
    bad = text.replace("linalg.index 1 : index", f"linalg.index {dim} : index", 1)
    assert bad != text
    with pytest.raises(VerifyError, match=rf"'linalg.index' op expected dim \({dim}\) to be "
                                          r"lower than the number of loops \(2\)") as info:
        parse_kernel(bad, "k.mlir")
    assert info.value.location.line == text[:text.index("linalg.index 1 :")].count("\n") + 1


@pytest.mark.parametrize("shape, message", [
    ("[2, 9223372036854775808, 64]", "has 1 dynamic output_shape entries but 0 size operands"),
    ("[2, 5, 64]", r"output_shape\[1\] is 5 but the result's dim 1 is 4"),
    ("[2, 4]", "expected number of static shape dims to be equal to the output rank"),
])
def test_an_expand_shape_whose_output_shape_is_not_its_result_is_a_located_error(shape, message):
    """A kernel mutant (seed 3853) wrote `output_shape [2, 9223372036854775808, 64]`: the
    entry out of i64's range reads as the dynamic marker with no size operand for it;
    xDSL's verifier takes it, the compiler reads the result type, and the reference
    interpreter failed internally (exit 2)."""
    text = (Path(__file__).parents[1] / "normalize" / "kernels"
            / "reshape_strided_runs.mlir").read_text()
    bad = text.replace("output_shape [2, 4, 64]", f"output_shape {shape}", 1)
    assert bad != text
    with pytest.raises(VerifyError, match=message) as info:
        parse_kernel(bad, "k.mlir")
    assert info.value.location.line == text[:text.index("output_shape [2, 4, 64]")].count("\n") + 1
