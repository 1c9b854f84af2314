"""The ktdf dialect (ScheduleIR): round trip and FileCheck of every op, type and
attribute, the generic form, and one negative case per verifier rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.utils.exceptions import ParseError, VerifyException

from spyre_sched.dialects.ktdf import KTDF, LoopType, LoopTypeAttr, ReserveSizeOp
from dialect_ir import check_round_trip_and_filecheck, parse, print_ir

HERE = Path(__file__).parent
ROUNDTRIP = HERE / "ktdf_roundtrip.mlir"


def test_every_ktdf_op_and_type_is_covered() -> None:
    text = ROUNDTRIP.read_text()
    for op in KTDF.operations:
        assert re.search(rf"{re.escape(op.name)}[ (:]", text), op.name
    for attr in KTDF.attributes:
        assert attr.name in text or attr.name == "ktdf.open", attr.name


def test_round_trip_and_filecheck() -> None:
    check_round_trip_and_filecheck(ROUNDTRIP)


def test_generic_form_round_trips() -> None:
    module = parse(ROUNDTRIP.read_text())
    again = parse(print_ir(module, generic=True))
    assert print_ir(again) == print_ir(module)


def test_open_and_solved_decisions() -> None:
    module = parse(ROUNDTRIP.read_text())
    sizes = [op for op in module.walk() if isinstance(op, ReserveSizeOp)]
    assert [s.is_open for s in sizes] == [True, False]
    assert sizes[1].legal_values() == [64]
    assert sizes[0].legal_values() == [1, 2, 3]
    assert LoopTypeAttr(LoopType.REDUCTION).loop_type is LoopType.REDUCTION


# ---------------------------------------------------------------------------------------
# Negative cases: each breaks one verifier rule
# ---------------------------------------------------------------------------------------

PRELUDE = """
func.func @k(%A: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %w = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  BODY
  func.return
}
"""

SLOT = '!ktdf.fifo.slot<"load" -> "sfu", 64xf16>'

PIPE = """ktdf.pipeline MOD {
    %p:3 = ktdf.private -> (memref<4x64xf16, "LX">, SLOT, !ktdf.token) {
      %b = ktdf.buffer {role = "input", operand = "A",
          access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [4, 64]} : memref<4x64xf16, "LX">
      %f = ktdf.fifo : SLOT
      %t = ktdf.token : !ktdf.token
      ktdf.private_yield %b, %f, %t : memref<4x64xf16, "LX">, SLOT, !ktdf.token
    }
    ktdf.stage depends_in(none) depends_out(%p#2) {
      STAGE
    } {applicable_units = ["load"]}
  }""".replace("SLOT", SLOT)


def body(text: str) -> str:
    return PRELUDE.replace("BODY", text)


def pipe(stage: str = "", modulo: str = "") -> str:
    return body(PIPE.replace("MOD", modulo).replace("STAGE", stage))


def test_valid_base_case_parses() -> None:
    parse(pipe("ktdf.data_transfer from %p#0[0, 0] size [1, 64] to %p#1 size [1, 64] "
               f': memref<4x64xf16, "LX">, {SLOT}'))
    parse(pipe(modulo='modulo(size: ?, decision = "p0.pipe.modulo")'))
    parse(pipe(modulo="modulo(size: 3)"))


NEGATIVE = {
    "open modulo without a decision name": (
        pipe(modulo="modulo(size: ?)"), "needs a non-empty `decision` name"),
    "modulo zero": (pipe(modulo="modulo(size: 0)"), "modulo size must be >= 1"),
    "pipeline child that is not a stage": (
        pipe().replace("ktdf.stage depends_in(none)", '%x = arith.constant 1 : index\n'
                       "    ktdf.stage depends_in(none)"),
        "only children are one ktdf.private and its stages"),
    "pipeline without private": (
        body('ktdf.pipeline {\n ktdf.stage depends_in(none) depends_out(none) {\n } '
             '{applicable_units = ["dma"]}\n }'), "first child must be its ktdf.private"),
    "unknown buffer role": (pipe().replace('role = "input"', 'role = "scratch"'),
                            "role must be one of"),
    "buffer without memory": (
        pipe().replace('memref<4x64xf16, "LX">', "memref<4x64xf16>"), "must name the memory"),
    "buffer map and tile dims disagree": (
        pipe().replace("tile_dims = [4, 64]", "tile_dims = [4]"), "tile_dims has 1 entries"),
    "private makes something else": (
        pipe().replace("%t = ktdf.token : !ktdf.token",
                       "%t = ktdf.token : !ktdf.token\n      %z = arith.constant 0 : index"),
        "only ktdf.buffer, ktdf.fifo and ktdf.token"),
    "stage with an empty unit kind": (pipe().replace('["load"]', '[""]'), "empty unit kind"),
    "fifo to fifo": (
        pipe(f"ktdf.data_transfer from %p#1 size [1, 64] to %p#1 size [1, 64] : {SLOT}, {SLOT}"),
        "FIFO to FIFO"),
    "subscripts count": (
        pipe(f'ktdf.data_transfer from %v[0] size [1, 64] to %p#1 size [1, 64] '
             f': memref<4x64xf16>, {SLOT}'), "rank 2 but 1 subscripts"),
    "element types differ": (
        pipe(f'ktdf.data_transfer from %w[0, 0] size [1, 64] to %p#1 size [1, 64] '
             f': memref<4x64xf32>, {SLOT}'), "element types differ"),
    "element counts differ": (
        pipe(f'ktdf.data_transfer from %v[0, 0] size [1, 32] to %p#1 size [1, 64] '
             f': memref<4x64xf16>, {SLOT}'), "source moves 32 elements"),
    "unknown transfer mode": (
        pipe(f'ktdf.data_transfer from %v[0, 0] size [1, 64] to %p#1 size [1, 64] '
             f'{{transfer_mode = "gather"}} : memref<4x64xf16>, {SLOT}'),
        "transfer_mode must be one of"),
    "fifo read of the wrong shape": (
        pipe(f"%x = ktdf.read_from_fifo %p#1 : {SLOT} -> tensor<1x32xf16>"),
        "holds 32 elements but a FIFO slot 64"),
    "fifo write of the wrong type": (
        pipe("%e = tensor.empty() : tensor<1x64xf32>\n"
             f"ktdf.write_to_fifo %e, %p#1 : tensor<1x64xf32>, {SLOT}"), "is not the FIFO's"),
    "buffer phase outside a pipeline": (body("%k = ktdf.buffer_phase : index"),
                                        "only inside a ktdf.pipeline"),
    "select of different types": (
        pipe('%k = ktdf.buffer_phase : index\n'
             '%m = ktdf.select_memref %k [%v] : memref<4x64xf16, "LX">'),
        None),  # the operand type is fixed by the result: a parse-time mismatch
    "instances out of range": (
        body('ktdf.parallel (%i) = (%c0) to (%c4) step (%c1) distribute(num_instances = 3) '
             '{decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2} {\n'
             '}'), "outside its legal range 1..2"),
    "illegal solved tile size": (
        body('%t = ktdf.tiling.reserve_size {decision = "p0.tile.d1", extent = 96, '
             'min_value = 64, divisibility = 64, value = 80} : index'), "value 80 of"),
    "keep value not 0 or 1": (
        body('ktdf.keep_resident {decision = "p0.keep.X", operand = "X", value = 2}'),
        "must be 0 (re-read) or 1 (keep)"),
    "keep without a decision name": (
        body('ktdf.keep_resident {decision = "", operand = "X"}'), "non-empty `decision`"),
    "share value not 0 or 1": (
        body('ktdf.share_fetch {decision = "p0.share.B", operand = "B", parts = 4, '
             'fetch_program = 1, value = 3}'), "must be 0 (every core reads device memory)"),
    "share without parts": (
        body('ktdf.share_fetch {decision = "p0.share.B", operand = "B", parts = 0, '
             'fetch_program = 1}'), "needs at least one part"),
    "minimum above extent": (
        body('%t = ktdf.tiling.reserve_size {decision = "p0.tile.d1", extent = 32, '
             'min_value = 64, divisibility = 64} : index'), "exceeds the extent"),
}


@pytest.mark.parametrize("case", sorted(NEGATIVE), ids=lambda c: c.replace(" ", "_"))
def test_verifier_rejects(case: str) -> None:
    text, message = NEGATIVE[case]
    with pytest.raises((VerifyException, ParseError)) as err:
        parse(text)
    if message is not None:
        assert message in str(err.value)


def test_unknown_loop_type_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="parallel_loop"):
        parse(body("scf.for %i = %c0 to %c4 step %c1 {\n} "
                   "{loop_type = #ktdf.loop_type<vector_loop>}"))
