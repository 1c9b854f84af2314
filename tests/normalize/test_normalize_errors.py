"""What the normal form refuses, it refuses at the op the kernel wrote: FILE:LINE:COL of
that op, even when the op the pass saw was made by an earlier normal-form pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from spyre_sched.errors import SpyreSchedError

KERNELS = Path(__file__).resolve().parent / "kernels"

_SUBTRACTING_REDUCE = (KERNELS / "sum_onto_loaded.mlir").read_text().replace(
    "%sum = arith.addf %in, %acc : f32\n      linalg.yield %sum",
    "%sum = arith.subf %acc, %in : f32\n      linalg.yield %sum")

_OVERLAPPING_CHUNKS = (KERNELS / "chunked_row_sum.mlir").read_text().replace(
    "%col = arith.muli %k, %c128 : index", "%col = arith.muli %k, %c4 : index")

_EXTRACT_OF_A_ROW = (KERNELS / "extract_softmax.mlir").read_text().replace(
    "%m = tensor.extract %mx[%c0] : tensor<1xf16>",
    "%m = tensor.extract %x[%c0, %c0] : tensor<1x128xf16>")


def _schedule(text: str, tmp_path: Path):
    from spyre_sched.frontend import load_kernel
    from spyre_sched.pipeline import schedule

    path = tmp_path / "kernel.mlir"
    path.write_text(text)
    return schedule(load_kernel(str(path)), "spyre")


def _line_of(text: str, needle: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("text,needle,message", [
    (_SUBTRACTING_REDUCE, "= linalg.reduce",
     "a reduction whose initial value is not a fill and whose body does not end in addf"),
    (_OVERLAPPING_CHUNKS, "= scf.for",
     "its iterations' access tiles overlap or leave gaps (the tile moves by 4 per "
     "iteration in dim 1, its extent there is 128)"),
    (_EXTRACT_OF_A_ROW, "= tensor.extract %x",
     "not supported yet: tensor.extract of one element of a tensor<1x128xf16> (only the "
     "element of a one-element tensor"),
], ids=["reduction-combiner", "overlapping-chunks", "extract-of-a-row"])
def test_refusal_is_located_at_the_written_op(text: str, needle: str, message: str,
                                              tmp_path: Path) -> None:
    assert needle in text
    with pytest.raises(SpyreSchedError) as err:
        _schedule(text, tmp_path)
    shown = str(err.value)
    assert message in shown
    assert f"kernel.mlir:{_line_of(text, needle)}:" in shown
