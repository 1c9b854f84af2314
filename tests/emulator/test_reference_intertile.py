"""Inter-tile produce / consume / reduce on the reference interpreter."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from emulator.reference import make_inputs, run
from spyre_sched.errors import ExecutionError

KERNELS = Path(__file__).resolve().parent / "kernels"


def _run(name: str, seed: int = 1):
    path = KERNELS / f"{name}.mlir"
    inputs = make_inputs(path, seed)
    return inputs["X"], run(path, inputs)["Y"]


def test_all_reduce_folds_partials_in_ascending_tile_order():
    x, y = _run("allreduce")
    acc = np.zeros(64, np.float16)
    for row in x:  # f16 addition, rounded after every step, from the identity
        acc = (acc.astype(np.float32) + row.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(y, np.broadcast_to(acc, (4, 64)))


def test_broadcast_consumers_wait_for_a_later_producer():
    x, y = _run("broadcast")  # tiles 0 and 1 consume before tile 2 has produced
    np.testing.assert_array_equal(y, np.broadcast_to(x[2], (4, 64)))


def test_routed_consume_pairs_producer_and_consumer_ranks():
    x, y = _run("routed")
    np.testing.assert_array_equal(y, x[::-1])


def test_each_group_broadcasts_to_its_own_consumers():
    x, y = _run("pair_groups")
    np.testing.assert_array_equal(y, x[[0, 0, 2, 2]])


def _variant(name: str, old: str, new: str, tmp_path) -> Path:
    text = (KERNELS / f"{name}.mlir").read_text()
    assert old in text
    path = tmp_path / f"{name}_variant.mlir"
    path.write_text(text.replace(old, new))
    return path


def test_a_non_consumer_using_the_result_is_an_error(tmp_path):
    path = _variant("broadcast", "#cons = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>",
                    "#cons = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>", tmp_path)
    with pytest.raises(ExecutionError) as info:
        run(path, make_inputs(path, 0))
    text = str(info.value)
    assert "tile 2: ktdp.store" in text and "consumer in no group" in text


def test_broadcast_with_several_producers_needs_a_dependency(tmp_path):
    path = _variant("broadcast", "#prod = affine_set<(i)[g] : (i - 2 == 0, g == 0)>",
                    "#prod = affine_set<(i)[g] : (i - 2 >= 0, g == 0)>", tmp_path)
    with pytest.raises(ExecutionError, match=r"group 0 has 2 producers \[2, 3\]"):
        run(path, make_inputs(path, 0))


def test_dependency_giving_no_producer_is_an_error(tmp_path):
    path = _variant("routed", "(p + c - 3 == 0)", "(p + c - 9 == 0)", tmp_path)
    with pytest.raises(ExecutionError, match="consumer #0 \\(tile 0\\) of group 0 0 producers"):
        run(path, make_inputs(path, 0))


def test_deadlock_is_reported_not_hung():
    path = KERNELS / "deadlock.mlir"
    with pytest.raises(ExecutionError) as info:
        run(path, make_inputs(path, 0))
    text = str(info.value)
    assert "deadlock" in text
    assert "tile 1 at ktdp.inter_tile_consume" in text
    assert "deadlock.mlir:30:5" in text  # the waiting consume
    assert "tile(s) [0] in group 0 of ktdp.inter_tile_produce" in text
    assert "deadlock.mlir:25:5" in text  # the produce it waits on
