"""Stages that stream into each other through FIFOs overlap (docs/solver.md, "Streaming
stages overlap").

A pipeline whose stages are joined only by FIFOs (no buffers, no modulo clause:
`Pipeline.streams`) does not wait for one stage to end before the next starts: each unit
takes the FIFO entries as they come. Its one pass through the stages (`fill_drain` in the
cost model, the whole cost when it runs once) is therefore not the sum of the stages'
times but that of the slowest stage, plus the time until its first input reaches it and
the time the later stages need after its last output:

    one pass = max over k of ( Σ_{j<k} head_j + T_k + Σ_{j>k} tail_j )

with T_k the stage's own time (its fill), head_j the time until stage j hands its first
result on, tail_j the time stage j needs after its last input arrives. Only what is known
from the problem is used, and every other stage counts whole (head = tail = T), which is
the sum again: so only the form `chunk-reductions` writes changes, a stage that runs a
nested pipeline (a chunk at a time: DMA into the scratchpad, load into the FIFO) ahead
of a carried reduction (docs/scheduleir.md, section 9):

- a stage running one nested pipeline hands on its first result after one pass of that
  pipeline (the first chunk is in the FIFO), and needs one pass after its last input;
- a stage running one carried compute of s dependent steps needs one step after its last
  input (the last vector's step and the result's send); its result comes at the end;
- a stage running n matrix instructions (each output block's K steps, chunk by chunk:
  the array keeps the partial sums, so an instruction waits only for its operands) needs
  the last instruction and the unit's latency after its last input;
- a stage of transfers alone that feeds such a stage (the load unit reading each
  instruction's operands from the scratchpad into the FIFOs) hands on the first
  instruction's operands after 1/n of its time: the matrix unit starts on them while the
  loads of the next ones go on (`fed_instructions`).

Before this, the 1 x 16384 row sums on tests/reductions' small_lx device were predicted
~25% high (the chunks' DMA counted after the sfu's sum instead of under it), and a core
that runs its matmul tile once (4 rows of C over a K of 512) ~9% high: the loads of all
K chunks counted before the matrix unit's first instruction.
"""

from __future__ import annotations

from collections.abc import Callable

from spyre_sched.solve.problem import Choice, Compute, Pipeline, Quantity, Stage, Transfer


def overlaps(p: Pipeline) -> bool:
    """Does the streaming formula differ from the sum for `p`: its stages stream through
    FIFOs and one of them runs a nested pipeline, or is transfers that feed a matrix
    compute's instructions (`fed_instructions`)."""
    return p.streams and (any(_nested(st) is not None for st in p.stages)
                          or any(fed_instructions(a, b) is not None
                                 for a, b in zip(p.stages, p.stages[1:])))


def fed_instructions(stage: Stage, consumer: Stage | None) -> Quantity | None:
    """The instructions of the matrix compute `consumer` runs per iteration when `stage`
    is transfers alone that feed it (None otherwise): the stage reads each instruction's
    operands in turn, so the first ones are in the FIFOs after 1/n of its time."""
    if consumer is None or not stage.work or not all(isinstance(w, Transfer)
                                                     for w in stage.work):
        return None
    if len(consumer.work) != 1 or not isinstance(consumer.work[0], Compute):
        return None
    instructions = consumer.work[0].instructions
    return instructions if instructions.most() > 1 and instructions.least() >= 1 else None


def consumers(p: Pipeline) -> list[Stage | None]:
    """Per stage of `p`, the stage after it (None for the last): `ends`' `consumer`."""
    return [*p.stages[1:], None]


def _nested(stage: Stage) -> Pipeline | None:
    if len(stage.work) == 1 and isinstance(stage.work[0], Pipeline):
        return stage.work[0]
    return None


def ends(stage: Stage, whole: int, choice: Choice,
         one_pass: Callable[[Pipeline], int],
         consumer: Stage | None = None) -> tuple[int, int]:
    """(head, tail) of a stage whose own time is `whole`; `one_pass(q)` is one pass of a
    nested pipeline `q` through its stages; `consumer` the stage after it (None: the
    last)."""
    nested = _nested(stage)
    if nested is not None:
        first = min(whole, one_pass(nested))
        return first, first
    fed = fed_instructions(stage, consumer)
    if fed is not None:
        return -(-whole // fed.at(choice)), whole
    if len(stage.work) == 1 and isinstance(stage.work[0], Compute):
        compute = stage.work[0]
        steps = compute.steps.at(choice)
        if steps > 1:
            return whole, -(-whole // steps)
        instructions = compute.instructions.at(choice)
        if instructions > 1:
            latency = min(compute.latency, whole)
            return whole, -(-(whole - latency) // instructions) + latency
    return whole, whole


def one_pass(fills: list[int], heads: list[int], tails: list[int]) -> int:
    """max over k of the stages before k handing on their first result, stage k whole,
    and the stages after k finishing their last input."""
    best = 0
    for k, whole in enumerate(fills):
        best = max(best, sum(heads[:k]) + whole + sum(tails[k + 1:]))
    return best
