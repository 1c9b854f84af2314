"""An access tile's type must have the shape of its set, permuted by its order."""

from __future__ import annotations

from pathlib import Path


from spyre_sched.frontend import parse_kernel

ADD = (Path(__file__).parents[2] / "examples" / "add_96x64.mlir").read_text()


def test_transposed_order_without_a_transposed_type_is_a_warning():
    # The dialect checks only the rank (its own examples disagree on the direction), so
    # a type that is not the set's extents permuted by the order is a warning naming both.
    text = ADD.replace(
        "#rowmajor = affine_map<(d0, d1) -> (d0, d1)>", "#rowmajor = affine_map<(d0, d1) -> (d1, d0)>"
    )
    kernel = parse_kernel(text, "t.mlir")
    first = kernel.warnings[0]
    assert first.severity == "warning" and first.code == "tile-shape"
    assert str(kernel.location_of(first.op)) == "t.mlir:17:3"
    assert first.message.startswith(
        "ktdp.construct_access_tile: the tile type says 3x64 but its set spans 64x3 "
        "(extents permuted by its order)")


def test_transposed_order_with_a_transposed_type_is_accepted():
    text = ADD.replace(
        "#rowmajor = affine_map<(d0, d1) -> (d0, d1)>", "#rowmajor = affine_map<(d0, d1) -> (d1, d0)>"
    ).replace("!ktdp.access_tile<3x64xindex>", "!ktdp.access_tile<64x3xindex>").replace(
        "tensor<3x64xf16>", "tensor<64x3xf16>"
    )
    assert parse_kernel(text, "t.mlir").name == "add"


def test_indirect_tile_type_follows_its_variables_space():
    path = Path(__file__).parents[1] / "emulator" / "kernels" / "gather_scatter.mlir"
    text = path.read_text()
    assert "construct_indirect_access_tile" in text
    bad = text.replace("!ktdp.access_tile<8x64xindex>", "!ktdp.access_tile<9x64xindex>").replace(
        "tensor<8x64xf16>", "tensor<9x64xf16>"
    )
    warnings = parse_kernel(bad, "g.mlir").warnings
    assert warnings and all("the tile type says 9x64 but its set spans 8x64" in w.message
                            for w in warnings)
