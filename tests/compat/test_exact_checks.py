"""`check` is exact on guarded writers, min bounds, tile-id x run-time products and bound
scalars; an error's witness always replays."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from spyre_sched.cli import main
from spyre_sched.frontend import load_kernel, parse_kernel
from spyre_sched.polyhedral.checks import check_kernel

KERNELS = Path(__file__).resolve().parent / "kernels"


def diagnostics(name: str, **arguments):
    return check_kernel(load_kernel(KERNELS / name).func, arguments=arguments or None)


def test_guarded_writer_has_no_race_and_without_the_guard_it_does():
    assert diagnostics("guarded_writer.mlir") == []
    text = (KERNELS / "guarded_writer.mlir").read_text()
    unguarded = text.replace("scf.if %is_writer {", "").replace("  }\n  return", "  return")
    # every tile then stores the same constant at one place: repeated work, not a race
    found = [(d.code, d.severity) for d in check_kernel(parse_kernel(unguarded, "u.mlir").func)]
    assert found == [("redundant-store", "warning")]
    # a value that differs by tile races
    racy = unguarded.replace(
        "%is_writer = arith.cmpi eq, %id, %c0 : index",
        "%is_writer = arith.cmpi eq, %id, %c0 : index\n"
        "  %w = scf.if %is_writer -> (tensor<1x8xf16>) {\n"
        "    scf.yield %v : tensor<1x8xf16>\n"
        "  } else {\n"
        "    %v3 = arith.constant dense<3.0> : tensor<1x8xf16>\n"
        "    scf.yield %v3 : tensor<1x8xf16>\n"
        "  }").replace("ktdp.store %v,", "ktdp.store %w,")
    races = [d for d in check_kernel(parse_kernel(racy, "r.mlir").func) if d.code == "write-race"]
    assert [d.severity for d in races] == ["error"]


def test_guard_that_is_not_a_comparison_is_only_a_warning():
    # A condition read from memory cannot be modelled: the race becomes a "may" warning.
    text = (KERNELS / "guarded_writer.mlir").read_text().replace(
        "%is_writer = arith.cmpi eq, %id, %c0 : index",
        "%flag = arith.index_cast %id : index to i64\n"
        "  %is_writer = arith.trunci %flag : i64 to i1")
    races = [d for d in check_kernel(parse_kernel(text, "g.mlir").func) if d.code == "write-race"]
    assert [d.severity for d in races] == ["warning"]


def test_min_bound_is_modelled():
    assert diagnostics("min_bound.mlir") == []


def test_tile_times_runtime_product_is_exact():
    assert diagnostics("tile_times_runtime.mlir") == []


def test_unbound_scalar_gives_warnings_naming_values_never_errors():
    diags = diagnostics("scalar_block.mlir")
    assert diags and all(d.severity == "warning" for d in diags)
    race = next(d for d in diags if d.code == "write-race")
    assert "for BLOCK = " in race.message
    masked = next(d for d in diags if d.code == "masked-access")
    assert "BLOCK = " in masked.message


def test_bound_scalar_makes_the_check_exact():
    assert diagnostics("scalar_block.mlir", BLOCK=4) == []
    errors = [d for d in diagnostics("scalar_block.mlir", BLOCK=2) if d.severity == "error"]
    assert [d.code for d in errors] == ["write-race"]
    w = errors[0].witness
    rows = lambda t: range(2 * t, 2 * t + 4)  # noqa: E731 - tile t writes rows 2t..2t+3
    assert w["tile"] != w["tile2"] and w["coordinate"][0] in rows(w["tile"])
    assert w["coordinate"][0] in rows(w["tile2"])


def test_cli_arg_accepts_integers_and_floats_and_runtime_arg_alias():
    runner = CliRunner()
    path = str(KERNELS / "scalar_block.mlir")
    done = runner.invoke(main, ["check", path, "--arg", "BLOCK=4", "--arg", "scale=0.088"])
    assert done.exit_code == 0, done.output
    racy = runner.invoke(main, ["check", path, "--runtime-arg", "BLOCK=2"])
    assert racy.exit_code == 1 and "error: write race" in racy.output
    ran = runner.invoke(main, ["reference", path, "--arg", "BLOCK=4", "--arg", "scale=0.088"])
    assert ran.exit_code == 0, ran.output
    assert ran.output.startswith("%Y: 16x8 float16")
    bad = runner.invoke(main, ["check", path, "--arg", "BLOCK=four"])
    assert bad.exit_code == 1 and "NAME=NUMBER" in bad.output
    unknown = runner.invoke(main, ["check", path, "--arg", "WIDTH=4"])
    assert unknown.exit_code == 1 and "'WIDTH' is not an argument" in unknown.output


# ---- property: every error's witness replays, and races are found exactly -------------

KERNEL = """
func.func @blocks(%Out: index, %BLOCK: index) attributes {{grid = [{grid}]}} {{
  %c0 = arith.constant 0 : index
  %cb = arith.constant {offset} : index
  %ck = arith.constant {guard_at} : index
  %id = ktdp.get_compute_tile_id : index
  %step = {step}
  %scaled = arith.muli %id, %step : index
  %lo = arith.addi %scaled, %cb : index
  %ov = ktdp.construct_memory_view %Out, sizes: [{rows}, 2], strides: [2, 1] {{
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + {last} >= 0, d1 >= 0, -d1 + 1 >= 0)>,
    memory_space = #ktdp.memory_space<global> }} : memref<{rows}x2xf16>
  %ot = ktdp.construct_access_tile %ov[%lo, %c0] {{
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + {hlast} >= 0, d1 >= 0, -d1 + 1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> }} : memref<{rows}x2xf16> -> !ktdp.access_tile<{h}x2xindex>
  %v = arith.constant dense<1.0> : tensor<{h}x2xf16>
  %writes = arith.cmpi {predicate}, %id, %ck : index
  scf.if %writes {{
    ktdp.store %v, %ot : tensor<{h}x2xf16>, <{h}x2xindex>
  }}
  return
}}
"""

PREDICATES = {"sge": lambda t, k: t >= k, "ne": lambda t, k: t != k, "ult": lambda t, k: t < k}


@settings(max_examples=40, deadline=None)
@given(grid=st.integers(1, 5), rows=st.integers(1, 12), h=st.integers(1, 4),
       stride=st.integers(0, 5), offset=st.integers(-3, 3), guard_at=st.integers(0, 4),
       predicate=st.sampled_from(sorted(PREDICATES)), scalar=st.booleans())
def test_error_witnesses_replay_and_races_are_exact(grid, rows, h, stride, offset, guard_at,
                                                    predicate, scalar):
    step = ("arith.addi %BLOCK, %c0 : index" if scalar
            else f"arith.constant {stride} : index")
    text = KERNEL.format(grid=grid, rows=rows, last=rows - 1, h=h, hlast=h - 1,
                         offset=offset, guard_at=guard_at, predicate=predicate, step=step)
    func = parse_kernel(text, "blocks.mlir").func
    diags = check_kernel(func, arguments={"BLOCK": stride} if scalar else None)

    def written(t):  # ground truth: rows tile t really writes (masked ones excluded)
        if not PREDICATES[predicate](t, guard_at):
            return set()
        return {r for r in range(stride * t + offset, stride * t + offset + h) if 0 <= r < rows}

    racing = any(written(a) & written(b) for a in range(grid) for b in range(a + 1, grid))
    errors = [d for d in diags if d.severity == "error"]
    assert all(d.code == "write-race" for d in errors)
    assert bool(errors) == racing
    for d in errors:  # the witness replays: both tiles write the coordinate
        w = d.witness
        assert w["tile"] != w["tile2"]
        assert w["coordinate"][0] in written(w["tile"]) & written(w["tile2"])
    sticks_out = any(PREDICATES[predicate](t, guard_at) and (
        stride * t + offset < 0 or stride * t + offset + h > rows) for t in range(grid))
    masked = [d for d in diags if d.code == "masked-access"]
    assert bool(masked) == sticks_out
    for d in masked:
        t = d.witness["tile"]
        lo = stride * t + offset
        assert d.witness["masked"] == sum(1 for r in range(lo, lo + h) if not 0 <= r < rows) * 2


def test_race_inside_affine_for_replays_with_the_loop_bounds():
    (race,) = [d for d in diagnostics("affine_rows.mlir") if d.code == "write-race"]
    w = race.witness
    assert race.severity == "error" and {w["tile"], w["tile2"]} == {0, 1}
    assert w["coordinate"][0] in (3, 4)
