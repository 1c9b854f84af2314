"""Rules and spellings of the public KTIR producers. The
round-trips of the accepted spellings are FileCheck tests in
tests/dialects/ktdp_producers.mlir."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from spyre_sched.cli import main
from spyre_sched.device.load import DEVICES_DIR
from spyre_sched.errors import ParseError, VerifyError
from spyre_sched.frontend import parse_kernel

KERNELS = Path(__file__).resolve().parent / "kernels"

COPY = """{decl}
func.func @copy(%A: index, %B: index{extra}) attributes {{grid = [{grid}]}} {{
  %c0 = arith.constant 0 : index
  %id = ktdp.get_compute_tile_id : index
  %av = ktdp.construct_memory_view %A, sizes: [{n}], strides: [1] {{
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + {last} >= 0)>,
    memory_space = {space} }} : memref<{n}xf16>
  %bv = ktdp.construct_memory_view %B, sizes: [{n}], strides: [1] {{
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + {last} >= 0)>,
    memory_space = #ktdp.memory_space<global> }} : memref<{n}xf16>
  %at = ktdp.construct_access_tile %av[%id] {{
    access_tile_set = affine_set<(d0) : (d0 == 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> }} : memref<{n}xf16> -> !ktdp.access_tile<1xindex>
  %bt = ktdp.construct_access_tile %bv[%id] {{
    access_tile_set = affine_set<(d0) : (d0 == 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> }} : memref<{n}xf16> -> !ktdp.access_tile<1xindex>
  %x = ktdp.load %at : <1xindex> -> tensor<1xf16>
  ktdp.store %x, %bt : tensor<1xf16>, <1xindex>
  return
}}
"""


def copy_kernel(decl="", extra="", grid="2", n=2, space="#ktdp.memory_space<global>"):
    return COPY.format(decl=decl, extra=extra, grid=grid, n=n, last=n - 1, space=space)


def test_empty_grid_is_rejected():
    with pytest.raises(VerifyError, match="'grid' must have at least one dimension"):
        parse_kernel(copy_kernel(grid=""), "g.mlir")


@pytest.mark.parametrize("space, tile", [
    ("#ktdp.spyre_memory_space<HBM>", None),
    ("#ktdp.spyre_memory_space<unspecified>", None),
    ("#ktdp.spyre_memory_space<LX, core = 1>", 1),
    ("#ktdp.spyre_memory_space<L0, core = 0>", 0),
    ("#ktdp.spyre_memory_space<L0>", None),
])
def test_spyre_memory_spaces(space, tile):
    kernel = parse_kernel(copy_kernel(space=space), "s.mlir")
    view = next(op for op in kernel.func.walk() if op.name == "ktdp.construct_memory_view")
    attr = view.memory_space
    local = space.split("<")[1].split(",")[0].rstrip(">") in ("LX", "L0")
    assert attr.space == ("ct_local" if local else "global") and attr.tile == tile


@pytest.mark.parametrize("space", ["#ktdp.spyre_memory_space<HBM, core = 1>",
                                   "#ktdp.spyre_memory_space<unspecified, core = 0>"])
def test_core_affinity_only_for_lx_and_l0(space):
    with pytest.raises((ParseError, VerifyError), match="core affinity is only valid for LX or L0"):
        parse_kernel(copy_kernel(space=space), "s.mlir")


def test_runtime_arg_bounds_optional_any_order_no_multiple_rule():
    kernel = parse_kernel(copy_kernel(
        extra=", %m: !ktdp.runtime_arg<index, upperbound = 300, granularity = 32>"), "r.mlir")
    rtype = kernel.func.body.block.args[2].type
    assert (rtype.granularity_value, rtype.upperbound_value) == (32, 300)
    with pytest.raises(ParseError, match="duplicate 'upperbound'"):
        parse_kernel(copy_kernel(
            extra=", %m: !ktdp.runtime_arg<index, upperbound = 3, upperbound = 4>"), "r.mlir")


def test_unbounded_runtime_shape_is_reported_and_needs_a_value():
    runner = CliRunner()
    done = runner.invoke(main, ["check", str(KERNELS / "triton_add.mlir")])
    assert done.exit_code == 0, done.output
    assert "%n: index (run-time: no static upper bound)" in done.output


def test_declared_device_is_used_without_device_option(tmp_path):
    runner = CliRunner()
    # The import path is not there: the shipped device of that name (one core) is used,
    # which cannot serve two tiles; --device overrides the declaration.
    missing = tmp_path / "k.mlir"
    missing.write_text(copy_kernel(decl='ktdf_arch.device @sample_device attributes {} '
                                        'import("nowhere/sample_device.mlir")'))
    done = runner.invoke(main, ["check", str(missing)])
    assert done.exit_code == 1 and "device sample_device has 1" in done.output
    assert runner.invoke(main, ["check", str(missing), "--device", "spyre"]).exit_code == 0
    # An import path relative to the kernel file is followed; the mapping written on the
    # declaration (attribute keys, as the dataflow scheduler writes them) is applied.
    (tmp_path / "arch").mkdir()
    (tmp_path / "arch" / "chip.mlir").write_text((DEVICES_DIR / "spyre.mlir").read_text())
    found = tmp_path / "f.mlir"
    found.write_text(copy_kernel(decl=(
        'ktdf_arch.device @chip attributes {mem_space_mapping = #ktdf_arch.map<'
        '#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "NOSUCH">} '
        'import("arch/chip.mlir")')))
    done = runner.invoke(main, ["check", str(found)])
    assert done.exit_code == 1
    assert "maps 'ct_local' to memory kind 'NOSUCH'" in done.output
    unknown = tmp_path / "u.mlir"
    unknown.write_text(copy_kernel(decl='ktdf_arch.device @nosuch attributes {} import("x.mlir")'))
    done = runner.invoke(main, ["check", str(unknown)])
    assert done.exit_code == 1 and "declares device @nosuch" in done.output


LOOSE_VIEW = """
func.func @loose(%A: index, %k: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %av = ktdp.construct_memory_view %A, sizes: [%k], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<?xf16>
  %at = ktdp.construct_access_tile %av[%c0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<?xf16> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %at : <4xindex> -> tensor<4xf16>
  ktdp.store %x, %at : tensor<4xf16>, <4xindex>
  return
}
"""


def test_stricter_rules_are_warnings_and_strict_makes_them_errors(tmp_path):
    # A coordinate set with fewer symbols than the view has dynamic sizes: the dialect
    # allows it, so a warning at the view; --strict turns warnings into errors.
    path = tmp_path / "w.mlir"
    path.write_text(LOOSE_VIEW)
    assert [w.code for w in parse_kernel(LOOSE_VIEW, str(path)).warnings] == ["view-symbols"]
    runner = CliRunner()
    done = runner.invoke(main, ["check", str(path)])
    assert done.exit_code == 0, done.output
    assert f"{path}:4:3: warning: ktdp.construct_memory_view: coordinate_set has 0 symbols" in done.output
    strict = runner.invoke(main, ["check", str(path), "--strict"])
    assert strict.exit_code == 1 and "0 error(s) and 1 warning(s) (--strict)" in strict.output


def test_memref_type_that_differs_from_the_sizes_is_a_warning():
    # The dialect ties only the ranks of sizes, strides and the memref type together.
    text = LOOSE_VIEW.replace(
        "sizes: [%k], strides: [1] {\n    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,\n"
        "    memory_space = #ktdp.memory_space<global> } : memref<?xf16>",
        "sizes: [%k], strides: [1] {\n    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,\n"
        "    memory_space = #ktdp.memory_space<global> } : memref<4xf16>")
    text = text.replace("} : memref<?xf16> -> !ktdp", "} : memref<4xf16> -> !ktdp")
    warnings = parse_kernel(text, "t.mlir").warnings
    assert [w.code for w in warnings] == ["view-symbols", "view-type"]
    assert "dim 0 has a dynamic size but the memref type says 4" in warnings[1].message


def test_view_with_fewer_symbols_runs_on_the_reference(tmp_path):
    path = tmp_path / "w.mlir"
    path.write_text(LOOSE_VIEW)
    done = CliRunner().invoke(main, ["reference", str(path), "--arg", "k=4"])
    assert done.exit_code == 0, done.output
    assert done.output.startswith("%A: 4 float16")


def test_views_at_constant_addresses_get_device_memory(tmp_path):
    # The upstream tests address device memory directly; the reference places such views
    # before any argument.
    text = LOOSE_VIEW.replace("%A: index, %k: index", "%k: index").replace(
        "%c0 = arith.constant 0 : index",
        "%c0 = arith.constant 0 : index\n  %A = arith.constant 4096 : index").replace(
        "sizes: [%k]", "sizes: [4]").replace("memref<?xf16>", "memref<4xf16>")
    path = tmp_path / "c.mlir"
    path.write_text(text)
    done = CliRunner().invoke(main, ["reference", str(path), "--arg", "k=4"])
    assert done.exit_code == 0, done.output


def test_distributed_view_of_other_memrefs_verifies_and_is_unsupported_at_the_access():
    path = KERNELS / "distributed_of_arguments.mlir"
    # every verb that reads the kernel locates it, not only the analyses' own commands
    for command in ("check", "reference", "compile", "run", "explain"):
        done = CliRunner().invoke(main, [command, str(path)])
        assert done.exit_code == 1
        assert f"{path}:9:3: error: the access goes through a memory view that is not built" in done.output
