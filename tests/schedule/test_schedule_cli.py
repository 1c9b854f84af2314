"""`spyre-sched compile --emit ktdf`: output, --print-ir-after-all, --stop-after, saved
ScheduleIR as input, KTIR loops kept by the orchestrator, device patterns applied at
their checkpoints."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from schedule_util import EXAMPLES, parse_ir, scheduled_example
from spyre_sched.cli import main
from spyre_sched.dialects import ktdf
from spyre_sched.errors import VerifyError
from spyre_sched.pipeline import run_steps, step_names

KERNELS = Path(__file__).parent / "kernels"
ADD = str(EXAMPLES / "add_96x64.mlir")


def invoke(*args: str):
    return CliRunner().invoke(main, ["compile", *args])


def test_emit_ktdf_prints_schedule_ir() -> None:
    result = invoke(ADD, "--emit", "ktdf")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == scheduled_example("add_96x64", "spyre") + "\n"


def test_print_ir_after_all_names_every_pass_in_order() -> None:
    result = invoke(ADD, "--print-ir-after-all")
    assert result.exit_code == 0, result.stderr
    headers = [line for line in result.stderr.splitlines() if line.startswith("// ----- IR after")]
    assert headers == [f"// ----- IR after {n} -----" for n in step_names()]
    assert result.stdout == scheduled_example("add_96x64", "spyre") + "\n"


def test_stop_after_stops_there() -> None:
    result = invoke(ADD, "--stop-after", "naive-pipeline")
    assert result.exit_code == 0, result.stderr
    assert '!ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>' in result.stdout
    assert "reserve_size" not in result.stdout
    parse_ir(result.stdout)


def test_a_kernel_saved_from_the_normal_form_compiles_again(tmp_path) -> None:
    """A normal-form pass prints KTIR that names its device: still a kernel (compiled again
    and run), not saved ScheduleIR."""
    saved = tmp_path / "add.normal.mlir"
    result = invoke(ADD, "--stop-after", "stores-after-reads")
    assert result.exit_code == 0, result.stderr
    assert "ktdf.device" in result.stdout
    saved.write_text(result.stdout)
    ran = CliRunner().invoke(main, ["run", str(saved)])
    assert ran.exit_code == 0, ran.output
    assert "result: MATCH" in ran.output


def _resumed_equals_uninterrupted(kernel: str, stops: list[str]) -> None:
    import io

    from xdsl.printer import Printer

    from spyre_sched.api import _parse_schedule_ir
    from spyre_sched.frontend import load_kernel
    from spyre_sched.pipeline import reschedule, schedule

    def text(module) -> str:
        out = io.StringIO()
        Printer(out).print_op(module)
        return out.getvalue()

    whole = text(schedule(load_kernel(kernel), "spyre"))
    for name in stops:
        saved = text(schedule(load_kernel(kernel), "spyre", stop_after=name))
        assert f'ktdf.stopped_after = "{name}"' in saved
        assert text(reschedule(_parse_schedule_ir(saved, "saved.mlir"))) == whole, name


def test_schedule_ir_saved_mid_pipeline_resumes_after_its_pass() -> None:
    _resumed_equals_uninterrupted(ADD, ["naive-pipeline", "program-split", "open-decisions"])


@pytest.mark.slow
def test_every_stop_point_resumes_to_the_same_schedule_ir() -> None:
    _resumed_equals_uninterrupted(str(EXAMPLES / "softmax_rows.mlir"), step_names()[:-1])


def test_a_bundle_compiled_from_mid_pipeline_schedule_ir_runs(tmp_path) -> None:
    saved = tmp_path / "add.naive.mlir"
    saved.write_text(invoke(ADD, "--stop-after", "naive-pipeline").stdout)
    bundle = tmp_path / "add.bundle"
    made = CliRunner().invoke(main, ["compile", str(saved), "-o", str(bundle), "--kernel", ADD])
    assert made.exit_code == 0, made.output
    ran = CliRunner().invoke(main, ["run", str(bundle)])
    assert ran.exit_code == 0 and "result: MATCH" in ran.output, ran.output


def test_unknown_pass_is_an_error() -> None:
    result = invoke(ADD, "--stop-after", "tile-everything")
    assert result.exit_code == 1
    assert "no such pass" in result.stderr and "naive-pipeline" in result.stderr


def test_unknown_device_is_an_error() -> None:
    result = invoke(ADD, "--device", "no_such_device")
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr


def test_saved_schedule_ir_is_accepted_and_round_trips(tmp_path) -> None:
    saved = tmp_path / "add.ktdf.mlir"
    saved.write_text(invoke(ADD).stdout)
    again = invoke(str(saved))
    assert again.exit_code == 0, again.stderr
    assert again.stdout == saved.read_text()


def test_ktir_loops_that_cannot_fold_stay_in_the_orchestrator() -> None:
    """The loop updates its rows in place, so untile-loops cannot fold it."""
    result = invoke(str(KERNELS / "looped_add_in_place.mlir"))
    assert result.exit_code == 0, result.stderr
    module = parse_ir(result.stdout)
    orchestrator = next(op for op in module.ops if op.name == "func.func"
                        and op.sym_name.data == "looped_add_in_place")  # type: ignore[attr-defined]
    loops = [op for op in orchestrator.walk() if op.name == "scf.for"]
    assert len(loops) == 1
    calls = [op for op in loops[0].walk() if op.name == "func.call"]
    assert len(calls) == 1 and calls[0].operands[-1] == loops[0].body.block.args[0]
    assert ktdf.open_decisions(module)


def test_a_self_contained_block_loop_folds_into_the_pipeline_nest() -> None:
    """Each iteration loads, adds and stores its own row: the loop is folded, so the
    orchestrator has no loop and the one program walks both rows."""
    result = invoke(str(KERNELS / "looped_add.mlir"))
    assert result.exit_code == 0, result.stderr
    module = parse_ir(result.stdout)
    orchestrator = next(op for op in module.ops if op.name == "func.func"
                        and op.sym_name.data == "looped_add")  # type: ignore[attr-defined]
    assert not [op for op in orchestrator.walk() if op.name == "scf.for"]
    assert len([op for op in orchestrator.walk() if op.name == "func.call"]) == 1


def test_device_patterns_run_at_pre_mapping(tmp_path) -> None:
    kernel = tmp_path / "silu.mlir"
    kernel.write_text((EXAMPLES / "fused_gelu.mlir").read_text().replace("spyreop.gelu", "spyreop.silu"))
    result = invoke(str(kernel), "--device", "sample_device")
    assert result.exit_code == 0, result.stderr
    assert "spyreop.silu" not in result.stdout
    assert "spyreop.sigmoid" in result.stdout
    on_spyre = invoke(str(kernel), "--device", "spyre", "--stop-after", "device-patterns-pre_mapping")
    assert "spyreop.silu" not in on_spyre.stdout  # spyre's file has the same expansion


def test_device_patterns_run_at_post_scheduling() -> None:
    """A device pattern named for post_scheduling rewrites the scheduled compute (after
    open-decisions), not before."""
    device = str(Path(__file__).parent / "devices" / "post_patterns.mlir")
    gelu = str(EXAMPLES / "fused_gelu.mlir")
    before = invoke(gelu, "--device", device, "--stop-after", "open-decisions")
    assert before.exit_code == 0, before.stderr
    assert "spyreop.gelu" in before.stdout and "spyreop.sigmoid" not in before.stdout
    after = invoke(gelu, "--device", device)
    assert after.exit_code == 0, after.stderr
    assert "spyreop.gelu" not in after.stdout and "spyreop.sigmoid" in after.stdout
    assert "ktdf.pipeline modulo(size: ?" in after.stdout  # rewritten in scheduled IR


class _BreakTheIR(ModulePass):
    """A pass that erases the kernel's `func.return`: a block without its terminator."""
    name = "break-the-ir"

    def apply(self, ctx, op) -> None:
        func = next(o for o in op.walk() if isinstance(o, FuncOp))
        terminator = func.body.block.last_op
        terminator.detach()
        terminator.erase()
        del ctx


class _Nothing(ModulePass):
    name = "nothing"

    def apply(self, ctx, op) -> None:
        del ctx, op


@pytest.mark.parametrize("verify_each, named", [
    (False, "break-the-ir .. nothing (--verify-each names the pass that broke it)"),
    (True, "break-the-ir"),
])
def test_broken_ir_is_found_after_the_last_pass_or_after_each(verify_each, named) -> None:
    module = parse_ir("""
      func.func @k() {
        %a = arith.constant 1 : i32
        %b = arith.addi %a, %a : i32
        func.return
      }""")
    with pytest.raises(VerifyError) as err:
        run_steps(module, [_BreakTheIR(), _Nothing()], verify_each=verify_each)
    assert f"the IR after pass {named} does not verify" in str(err.value)


def test_verify_each_gives_the_same_output() -> None:
    plain, each = invoke(ADD), invoke(ADD, "--verify-each")
    assert plain.exit_code == each.exit_code == 0, plain.stderr + each.stderr
    assert plain.stdout == each.stdout


def test_an_analysis_error_naming_an_op_is_given_the_op_s_line() -> None:
    from spyre_sched.errors import UnsupportedError
    from spyre_sched.frontend.kernel import parse_kernel
    from spyre_sched.polyhedral.affine_values import Variable, VariableKind
    from spyre_sched.polyhedral.iterations import iterations
    from xdsl.dialects.scf import ForOp
    from xdsl.ir.affine import AffineConstantExpr

    kernel = parse_kernel(Path(ADD).read_text(), ADD)
    loop_op = ForOp.__new__(ForOp)  # stands for the loop: only its identity is used
    bounds = (AffineConstantExpr(0), AffineConstantExpr(256))
    loop = Variable("col", VariableKind.LOOP, loop=loop_op, step=None, bounds=bounds)
    with pytest.raises(UnsupportedError) as err:
        list(iterations(_NoValues(), [loop], {}))
    assert err.value.op is loop_op and "the loop over col has a step" in err.value.message

    store = next(op for op in kernel.func.walk() if op.name == "ktdp.store")

    class _Refuse(ModulePass):
        name = "refuse"

        def apply(self, ctx, op) -> None:
            refusal = UnsupportedError("not supported yet: this store")
            refusal.op = store
            raise refusal

    with pytest.raises(UnsupportedError) as err:
        run_steps(kernel.module, [_Refuse()], kernel=kernel)
    assert str(err.value.location) == str(kernel.location_of(store))
    assert str(err.value).startswith(f"{ADD}:")


class _NoValues:
    """AffineValues with no variables: bounds evaluate with no symbols."""
    variables: list = []


def test_what_a_stop_after_prints_is_read_back_as_what_it_is() -> None:
    """After a normal-form pass the module is KTIR still (its `ktdf` attributes, such as
    `ktdf.owner_by_tile`, notwithstanding) and is compiled again; after a scheduling pass
    it is ScheduleIR; comments decide nothing."""
    import io

    from xdsl.printer import Printer

    from spyre_sched.api import _is_schedule_ir
    from spyre_sched.frontend import load_kernel
    from spyre_sched.pipeline import schedule

    kernel = str(Path(__file__).parents[1] / "crosscore" / "kernels" / "neighbour_stores.mlir")
    for name, scheduled in (("resolve-distributed-views", False), ("stores-after-reads", False),
                            ("program-split", True), ("naive-pipeline", True)):
        out = io.StringIO()
        Printer(out).print_op(schedule(load_kernel(kernel), "spyre", stop_after=name))
        assert _is_schedule_ir(out.getvalue()) is scheduled, name
    text = Path(kernel).read_text()
    assert not _is_schedule_ir('builtin.module attributes {ktdf.device = "spyre"} {\n'
                               "// %v = ktdf.buffer ...\n" + text + "}\n")
