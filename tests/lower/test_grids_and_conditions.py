"""2-D grids through lowering (both tile coordinates looked up per core) and conditions in
the orchestrator (per-core predicates on the tile id, run-time flags evaluated at launch):
compiled, emulated, equal to the reference and to numpy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lower_bundle_checks import check_bundle

KERNELS = Path(__file__).parent / "kernels"


def _bundle(kernel: Path, out: Path, strategy: str = "heuristic") -> Path:
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    bundle = write_bundle(compile_kernel(str(kernel), device="spyre", strategy=strategy), out)
    check_bundle(bundle)
    return bundle


def _inputs(shape, seed: int, *names: str) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {n: rng.uniform(-2, 2, shape).astype(np.float16) for n in names}


def _f16(values: np.ndarray) -> np.ndarray:
    return values.astype(np.float16)


def test_tile_coordinates_count_the_first_grid_dimension_fastest() -> None:
    from emulator.job_plan import tile_coordinates as runtime_coordinates
    from spyre_sched.lower.tile_ids import tile_coordinates

    grid = (4, 8)
    coords = [tile_coordinates(grid, t) for t in range(32)]
    assert coords[:5] == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1)] and coords[31] == (3, 7)
    assert coords == [runtime_coordinates(grid, t) for t in range(32)]
    assert sorted(coords) == [(r, c) for r in range(4) for c in range(8)]


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_add_over_a_4x8_grid(tmp_path: Path, strategy: str) -> None:
    import spyre_sched

    bundle = _bundle(KERNELS / "add_grid_4x8.mlir", tmp_path / "b", strategy)
    assert json.loads((bundle / "jobplan.json").read_text())["grid"] == [4, 8]
    inputs = _inputs((128, 256), 3, "A", "B")
    result = spyre_sched.run(str(bundle), inputs)
    assert result.matches, result.mismatches
    a, b = (inputs[n].astype(np.float32) for n in "AB")
    assert np.array_equal(result.outputs["C"], _f16(a + b))


def test_bias_add_over_a_2x4_grid(tmp_path: Path) -> None:
    import spyre_sched

    bundle = _bundle(KERNELS / "bias_add_grid_2x4.mlir", tmp_path / "b")
    inputs = _inputs((128, 256), 4, "X") | _inputs((256,), 5, "bias")
    result = spyre_sched.run(str(bundle), inputs)
    assert result.matches, result.mismatches
    want = _f16(inputs["X"].astype(np.float32) + inputs["bias"].astype(np.float32)[None, :])
    assert np.array_equal(result.outputs["Y"], want)


@pytest.fixture(scope="module")
def guarded(tmp_path_factory) -> Path:
    return _bundle(KERNELS / "guarded_add.mlir", tmp_path_factory.mktemp("guarded") / "b")


def test_a_condition_on_the_tile_id_and_a_flag_stays_in_the_job_plan(guarded: Path) -> None:
    plan = json.loads((guarded / "jobplan.json").read_text())
    (step,) = plan["execute"]
    assert step["step"] == "if"
    assert step["cond"] == ["and", ["ult", ["tile"], 16], ["ne", ["arg", "flag"], 0]]
    assert [s["step"] for s in step["then"]] == ["evaluate_symbols", "write_symbols", "launch"]
    assert step["else"] == []


def test_prepare_once_launch_with_the_flag_on_and_off(guarded: Path) -> None:
    import emulator.reference as reference
    from emulator.runtime import Runtime

    runtime = Runtime("spyre")
    prepared = runtime.prepare(guarded)
    for flag, seed in ((1, 6), (0, 7)):
        inputs = _inputs((96, 64), seed, "A", "B")
        result = runtime.launch(prepared, dict(inputs) | {"C": runtime.allocate((96, 64), "f16")},
                                {"flag": flag})
        want = reference.run(KERNELS / "guarded_add.mlir", inputs, runtime_args={"flag": flag})["C"]
        # what no tile writes keeps device memory's poison (NaN) in both executors
        assert np.array_equal(result.outputs["C"], want, equal_nan=True)
        expected = np.full((96, 64), np.nan, np.float16)
        if flag:
            expected[:48] = _f16(inputs["A"][:48].astype(np.float32) + inputs["B"][:48].astype(np.float32))
            # only tiles 0..15 launched: 16 cores' DMA units, none of cores 16..31
            assert any(u.startswith("core15.") for u in result.measurements.units)
            assert not any(u.startswith("core16.") for u in result.measurements.units)
        else:
            assert result.cycles == 0 and result.per_program == {}
        assert np.array_equal(want, expected, equal_nan=True)


def test_else_branch_on_a_tile_coordinate_of_a_2d_grid(tmp_path: Path) -> None:
    import spyre_sched

    bundle = _bundle(KERNELS / "guarded_grid.mlir", tmp_path / "b")
    plan = json.loads((bundle / "jobplan.json").read_text())
    (step,) = plan["execute"]
    # the normal form computes grid coordinates from the linear tile id: coordinate 1 of
    # the [4, 8] grid is tile // 4
    assert step["cond"] == ["ult", ["floordiv", ["tile"], 4], 3]
    assert step["then"][0]["program"] == "local_schedule_0" and step["else"][0]["program"] == "local_schedule_1"
    inputs = _inputs((128, 256), 8, "A", "B")
    result = spyre_sched.run(str(bundle), inputs)
    assert result.matches, result.mismatches
    a, b = (inputs[n].astype(np.float32) for n in "AB")
    want = _f16(a - b)
    want[:, :96] = _f16(a + b)[:, :96]
    assert np.array_equal(result.outputs["C"], want)


def test_a_grid_stride_loop_over_an_argument_says_which_value_to_give(tmp_path: Path) -> None:
    """A grid-stride loop whose end is a run-time argument (`scf.for %r = %t to %n step 4`,
    as Triton's persistent kernels write it): without a value for %n its bounds are not
    known per tile, and the refusal names the argument and the option that gives it;
    with `--arg n=10` the loop is rewritten per tile and the kernel runs."""
    import spyre_sched
    from spyre_sched.errors import UnsupportedError

    text = (Path(__file__).parents[1] / "normalize" / "kernels" / "grid_stride_rows.mlir").read_text()
    text = text.replace("(%X: index, %Y: index)", "(%X: index, %Y: index, %n: index)")
    text = text.replace("  %n = arith.constant 10 : index\n", "")
    kernel = tmp_path / "grid_stride_argument.mlir"
    kernel.write_text(text)
    with pytest.raises(UnsupportedError) as err:
        _bundle(kernel, tmp_path / "bundle")
    assert "bounds depend on the compute tile id is not supported yet while they also " \
           "depend on the kernel's argument %n: `--arg n=VALUE` fixes it" in str(err.value)
    result = spyre_sched.run(str(kernel), device="spyre", runtime_args={"n": 10})
    assert result.matches, result.mismatches
