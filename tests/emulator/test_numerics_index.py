"""The interpreter's Python-int fast path for `index` agrees with the op table."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from emulator.numerics import apply_op
from emulator.numerics.arith_ops import CMPI_PREDICATES
from emulator.numerics.index_scalars import INDEX_BINARY_OPS, index_binary, index_compare
from spyre_sched.errors import ExecutionError

EDGES = (-(2**63), -(2**63) + 1, -(2**32), -5, -1, 0, 1, 2, 5, 2**32, 2**63 - 2, 2**63 - 1)
PAIRS = list(itertools.product(EDGES, EDGES))


def _table(name: str, a: int, b: int, **attrs):
    return apply_op(name, "index", np.int64(a), np.int64(b), **attrs)


@pytest.mark.parametrize("name", sorted(INDEX_BINARY_OPS))
def test_index_binary_matches_the_table(name):
    for a, b in PAIRS:
        try:
            want = int(_table(name, a, b))
        except ExecutionError:
            with pytest.raises(ExecutionError, match="division by zero"):
                index_binary(name, a, b)
            continue
        try:
            got = index_binary(name, a, b)
        except ExecutionError as err:
            # The only refusal: a signed result that the table wraps (address overflow).
            assert "overflows a 64-bit index" in err.message, (name, a, b)
            assert not name.endswith(("ui", "andi", "ori", "xori")), (name, a, b)
            continue
        assert type(got) is int and got == want, (name, a, b, got, want)


@pytest.mark.parametrize("number,predicate", list(enumerate(CMPI_PREDICATES)))
def test_index_compare_matches_the_table(number, predicate):
    for a, b in PAIRS:
        want = bool(_table("arith.cmpi", a, b, predicate=number))
        assert index_compare(number, a, b) == want, (predicate, a, b)


def test_the_cases_the_issue_names():
    assert index_binary("arith.maxui", -1, 5) == -1          # 2**64 - 1 as unsigned
    assert index_binary("arith.minui", -1, 5) == 5
    assert index_compare(CMPI_PREDICATES.index("ult"), -1, 5) is False
    assert index_binary("arith.divui", -1, 5) == (2**64 - 1) // 5
    assert index_binary("arith.remui", -1, 5) == (2**64 - 1) % 5


def test_the_interpreter_uses_the_fast_path_for_unsigned_index_ops(tmp_path):
    from pathlib import Path

    import emulator.reference as reference
    from spyre_sched.frontend import load_kernel

    root = Path(__file__).resolve().parents[2]
    text = (root / "examples" / "add_96x64.mlir").read_text()
    # row0 = maxui(id * 3, -1) would be -1 (out of bounds) unsigned; minui keeps id * 3.
    text = text.replace("%row0 = arith.muli %id, %c3",
                        "%m1 = arith.constant -1 : index\n"
                        "  %r = arith.muli %id, %c3 : index\n"
                        "  %row0 = arith.minui %r, %m1")
    path = tmp_path / "k.mlir"
    path.write_text(text)
    kernel = load_kernel(path)
    inputs = reference.make_inputs(kernel, seed=0)
    out = reference.run(kernel, inputs)
    np.testing.assert_array_equal(out["C"], (inputs["A"].astype(np.float32)
                                             + inputs["B"].astype(np.float32)).astype(np.float16))
