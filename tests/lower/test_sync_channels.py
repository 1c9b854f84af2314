"""Sync channels are derived from storage, not from SSA values: every write/read pair of
bytes by two engines is ordered by a pipeline stage pair, or the lowering refuses it.

Variants of `softmax_e_across_corelets.ktdf.mlir` (softmax_rows' program 1 on
sample_device: store units of two corelets write E, load units of two corelets re-read
it in the next stage)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.parser import Parser

from spyre_sched.dialects.registry import make_context
from spyre_sched.errors import UnsupportedError
from spyre_sched.lower.lowering import lower

CASE = (Path(__file__).parent / "softmax_e_across_corelets.ktdf.mlir").read_text()
E_VIEW = ("%Ev = ktdp.construct_memory_view %E_off, sizes: [2, 256], strides: [256, 1] "
          "{coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, "
          "((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : "
          "memref<2x256xf16>")
E_READ = "ktdf.data_transfer from %Ev[%36, %37]"
S_WRITE = "ktdf.data_transfer from %28 size [1] to %Sv[%45] size [1]"


def _channels(text: str) -> set[tuple[str, str]]:
    module = Parser(make_context(), text, "case.ktdf.mlir").parse_module()
    module.verify()
    program = lower(module).programs[0][1]
    found = set()
    for op in program.walk():
        if op.name == "dataflow.sync":
            found.add((op.attributes["sym_name"].data if "sym_name" in op.attributes
                       else str(op).split("@")[1].split()[0], str(op)))
    return {name for name, _ in found}


def _with_view(text: str, name: str, offset: str) -> str:
    assert E_VIEW in text
    view = E_VIEW.replace("%Ev =", f"%{name} =").replace("%E_off,", f"{offset},")
    return text.replace(E_VIEW, f"{E_VIEW}\n      {view}", 1)


def test_e_written_by_stores_is_full_before_loads_read_it():
    names = _channels(CASE)
    assert {"pl0_0_l1_store_to_l1_load_full", "pl0_0_l1_store_to_l1_load_free"} <= names


def test_a_second_view_of_the_same_bytes_is_still_ordered():
    """The sum reads E through another view at the same offset: keyed by SSA value, the
    write and the read would look unrelated and race."""
    assert E_READ in CASE
    text = _with_view(CASE, "Ealias", "%E_off").replace(E_READ, E_READ.replace("%Ev[", "%Ealias["))
    names = _channels(text)
    assert "pl0_0_l1_store_to_l1_load_full" in names


def test_a_disjoint_view_needs_no_tokens():
    """Reading bytes the stores never write (a view past E and the pinned M and S) needs
    no store -> load channel: aliasing is decided by byte ranges."""
    text = _with_view(CASE, "Efar", "%far").replace(E_READ, E_READ.replace("%Ev[", "%Efar["))
    text = text.replace("%E_off = arith.constant 0 : index",
                        "%E_off = arith.constant 0 : index\n      %far = arith.constant 4096 : index", 1)
    names = _channels(text)
    assert not any("l1_store_to_l1_load" in n for n in names)


def test_a_write_after_the_read_in_stage_order_is_an_error():
    """The sum's stores write the row maxima's bytes (an f32 view aliasing M: M's 1024
    bytes offset is 256 f32 elements) in stage 1, while stage 0 reads M: no stage pair
    orders that write before that read, so the lowering refuses it instead of emitting a
    race."""
    m_view = CASE[CASE.index("%Mv = "):].split("\n")[0]
    m32 = (m_view.replace("%Mv =", "%Mf32 =").replace("%M_off,", "%M32_off,")
           .replace("memref<2xf16>", "memref<2xf32>"))
    text = CASE.replace(m_view, f"%M32_off = arith.constant 256 : index\n      {m_view}\n"
                        f"      {m32}", 1)
    assert S_WRITE in text
    text = text.replace(S_WRITE, S_WRITE.replace("%Sv[", "%Mf32["))
    with pytest.raises(UnsupportedError, match="no pipeline stage orders the two") as err:
        _channels(text)
    # the message names the view read and says why it meets the one written
    assert "reads Mv, whose memory may overlap it" in str(err.value)


def test_own_and_named_scratchpad_views_whose_bytes_lie_apart_need_no_order(tmp_path):
    """Split-K's read-back program reads the partials' slots of other cores (bytes 0-2047
    of core 8's scratchpad, ..., through views naming the core per tile) and writes
    buffers of its own scratchpad past the slots: on core 8 they are one scratchpad, but
    never the same bytes. With row tiles
    of 3 (not dividing the 8 rows, so the transfers' regions are not worked out) the views'
    byte ranges alone must say so; the lowering used to refuse the schedule."""
    import spyre_sched.solve.random_schedule as random_schedule
    from click.testing import CliRunner

    from spyre_sched.cli import main
    from spyre_sched.solve.heuristic import v1_choice

    def rows_of_three(problem, seed):
        choice = v1_choice(problem)
        decision = next(d for d in problem.decisions if d.name == "p1.tile.lx.d0")
        choice[decision.name] = next(i for i, c in enumerate(decision.candidates)
                                     if c.value == 3)
        return choice

    kernel = Path(__file__).parents[2] / "bench" / "kernels" / "quick" / "splitk_matmul.mlir"
    original = random_schedule.random_choice
    random_schedule.random_choice = rows_of_three
    try:
        result = CliRunner().invoke(main, ["compile", str(kernel), "--strategy", "random",
                                           "-o", str(tmp_path / "bundle")])
    finally:
        random_schedule.random_choice = original
    assert result.exit_code == 0, result.output
