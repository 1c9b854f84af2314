"""Write a solution back into ScheduleIR: the same IR with every open decision filled
(`reserve_size {..., value = V}`, `modulo(size: N, ...)`, `distribute(num_instances = N)`),
which the lowering accepts (`ktdf.verify_solved`)."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, StringAttr, i64
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects import ktdf
from spyre_sched.errors import VerifyError
from spyre_sched.solve.extract import Extraction
from spyre_sched.solve.solution import Solution


def write_back(extraction: Extraction, solution: Solution) -> None:
    """Fill every decision of `extraction.module` in place with the solution's value."""
    for decision in extraction.problem.decisions:
        op = extraction.ops[decision.name]
        candidate = decision.candidates[solution.choice[decision.name]]
        value = candidate.value
        if decision.kind == "fifo":  # the entries this FIFO gets of its datapath's queue
            op.attributes[ktdf.FIFO_DEPTH_ATTR] = IntegerAttr(value, i64)
            continue
        if decision.kind == "chunk":  # vectors per instruction of the loop's pipeline
            op.attributes[ktdf.CHUNK_ATTR] = IntegerAttr(value, i64)
            op.attributes[ktdf.CHUNK_MODE_ATTR] = StringAttr(
                "streaming" if candidate.streams else "held")
            continue
        try:
            ktdf.set_decision(op, value)
        except VerifyException as err:
            raise VerifyError(f"writing {decision.name} = {value} back: {err}",
                              f"op {op.name} in pass solve") from None
    try:
        ktdf.verify_solved(extraction.module)
    except VerifyException as err:
        raise VerifyError(str(err), "pass solve") from None
