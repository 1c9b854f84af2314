"""Program units compiled to Python generator functions (once, at prepare).

Interpreting DataflowIR op by op costs a closure call, dictionary traffic and a chain of
nested generators per op, per chunk; on a 4096x4096 add that is most of the run time. So
each `dataflow.program_unit` is translated into the source of one Python generator
function: SSA values become local variables, `arith` ops become Python expressions,
`scf.for`/`scf.if` become Python `for`/`if`, and every op that involves the simulated
device (transfers, FIFO traffic, tokens, vector compute) becomes a `yield` of a simulator
command. Numpy does the data work a whole vector or tile at a time. Semantics and timing
are those of docs/dataflowir.md; the helpers that do the data work live on `UnitRun`
(emulator/device/program.py).

Ready times (when a loaded or computed vector can be used) are local variables `t_<value>`;
an op waits for its operands (stalled on input) before it starts.

Issue cycles: a unit issues at most one instruction per cycle, scalar, loop control or
device op alike (docs/emulator.md, "Every instruction costs time"). The generated code
counts the cycle its sequencer has reached in a local `q`, added up per straight-line
segment (no statement per scalar op); a device op starts no earlier than its issue cycle
(`Simulator.issue_wait`, skipped right after an op that kept the pipeline busy: then the
pipeline cannot be behind), and every loop iteration compares `q` with the next
checkpoint (`Simulator.issue_check`: the cycle and wall-clock budgets), so a loop of
scalar instructions takes time and stops at the budget like any other.
"""

from __future__ import annotations

from xdsl.dialects import affine, arith, func, scf
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, VectorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from spyre_sched.dialects import agen, dataflow, symbol, uniform, vectorchain
from spyre_sched.errors import SourceLocation, UnsupportedError

from emulator.device import bulk, sim

_BINARY = {
    "arith.addi": "({a} + {b})", "arith.subi": "({a} - {b})", "arith.muli": "({a} * {b})",
    "arith.maxsi": "max({a}, {b})", "arith.maxui": "max({a}, {b})",
    "arith.minsi": "min({a}, {b})", "arith.minui": "min({a}, {b})",
    "arith.andi": "({a} & {b})", "arith.ori": "({a} | {b})", "arith.xori": "({a} ^ {b})",
    "arith.shli": "({a} << {b})", "arith.shrsi": "({a} >> {b})", "arith.shrui": "({a} >> {b})",
}
_DIVIDING = {
    "arith.divui": "({a} // {b})", "arith.floordivsi": "({a} // {b})",
    "arith.remui": "({a} % {b})", "arith.divsi": "_div_trunc({a}, {b})",
    "arith.remsi": "_rem_trunc({a}, {b})", "arith.ceildivsi": "(-((-{a}) // {b}))",
    "arith.ceildivui": "(-((-{a}) // {b}))",
}
_CMPI = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">=", 6: "<", 7: "<=", 8: ">", 9: ">="}
_PASS = {"arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci"}


def _div_trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _rem_trunc(a: int, b: int) -> int:
    return a - b * _div_trunc(a, b)


#: Ops that cannot block run in place (the `*_now` helpers of emulator.device.sim and the
#: op functions of UnitRun). False: every op is a command yielded to the event loop, the
#: plain path; tests/emulator/device/test_emu_in_place.py checks both give the same run.
IN_PLACE = True

#: An innermost loop that only receives and computes, in a unit that reads no memory, runs
#: the iterations whose entries are already in its FIFOs in bulk (emulator.device.bulk),
#: untraced and with the in-place path on. False: iteration by iteration;
#: tests/emulator/device/test_emu_bulk.py checks both give the same run.
BULK = True

#: Such a loop whose one carried value is a matrix accumulator leaves its instructions'
#: sums to the loop's end, computed for all of them at once
#: (`UnitRun.deferred_matmul_fn`). False: each instruction computes its own; test_emu_bulk.py
#: checks both give the same run.
DEFER_MATMUL = True


class UnitCode:
    """The generated source of one program unit (or, with `top`, of the program's uniform
    top level, a plain function returning the values of `shared`) and its constants."""

    def __init__(self, image, tag: str, block: Block, shared: list[SSAValue], top: bool = False):
        self.image = image
        self.tag = tag
        self.names: dict[SSAValue, str] = {}
        self.consts: list[object] = []
        self.lines: list[str] = []
        self.fifos: dict[str, str] = {}  # fifo name -> local variable of its instance
        self.shared = shared
        for i, value in enumerate(shared):
            self.names[value] = f"s{i}"
        self.ready: set[str] = set()
        self.send_sizes: set[tuple[str, int]] = set()
        self.recv_sizes: set[tuple[str, int]] = set()  # (fifo, entries): a prebuilt RECV
        self.op_fns: list[tuple[str, str, str]] = []  # (local name, UnitRun maker, plan)
        self.tokens: list[str] = []  # locals holding a sync op's token once resolved
        self.in_place = IN_PLACE
        # The unit reads no memory: it may run ahead of the simulation's time (AHEAD).
        self.ahead = not top and not _reads_memory(block)
        self._plans: dict[Operation, object] = {}
        self.bulk_fns: list[tuple[str, str, str]] = []  # (local, UnitRun maker, arguments)
        self.bulk_locals: list[str] = []  # a bulk loop's per-op cycles, once known
        # A K loop's matrix instruction whose sums wait for the loop's end
        # (`UnitRun.deferred_matmul_fn`): op -> (its pending list, its function)
        self.deferred: dict[Operation, tuple[str, str]] = {}
        self._counter = 0
        self.top = top
        # Values that depend only on constants, symbols, the instance index and the
        # program's top level: computed when the program is loaded, like the top level
        # itself, so they take no issue cycle.
        self.invariant: set[SSAValue] = set(shared)
        self.cost = 0  # issue cycles taken since `q` was last brought up to date
        # The instruction just before is a device op that keeps the pipeline busy for at
        # least one cycle from no earlier than its issue cycle: the next instruction's
        # issue cycle cannot be later than the pipeline's time, so it needs no check.
        self.after_busy = False
        body = []
        if top:
            self.names = {}
            for op in block.ops:
                if not isinstance(op, (dataflow.FifoOp, dataflow.SyncOp, dataflow.ProgramUnitOp,
                                       func.ReturnOp)):
                    self._op(op, body, 1)
            values = ", ".join(self.name(v) for v in shared)
            self.source = "\n".join(["def top_level(r, K):", *body, f"    return [{values}]"]) + "\n"
            return
        self._block(block, body, 1)
        # The unit has not finished before the cycle it issued its last instruction in
        # (a device op's own time is the timing model's: already in proc.local).
        self._flush(body, "    ")
        body.append("    if q - 1 > proc.local: ISSUE(proc, q - 1)")
        head = ["def unit_main(r, S, K):",
                "    SIM = r.launch.sim",
                "    proc = r.proc",
                "    SEND_NOW, RECV_NOW, WAIT = SIM.send_now, SIM.recv_now, SIM.wait_until_now",
                "    SYNC_SEND_NOW, SYNC_RECV_NOW = SIM.sync_send_now, SIM.sync_recv_now",
                "    ISSUE, CHECK = SIM.issue_wait, SIM.issue_check",
                "    CL = r.compute_latency",
                # Untraced: the cycle below which the generated code may do a wait's or
                # a one-cycle op's accounting itself (-1: traced, every op calls the
                # simulator, which records the trace).
                "    LIM = SIM._limit if SIM.trace is None else -1",
                # Untraced, and the unit reads no memory: it may take FIFO entries and
                # tokens at its own time ahead of the simulation's (Simulator.recv_ahead).
                f"    AHEAD = SIM.trace is None and {self.ahead}",
                "    ST = proc.stats",
                "    q = proc.local",
                "    QL = CHECK(proc, q, 'start')"]
        for i in range(len(shared)):
            head.append(f"    s{i} = S[{i}]")
        for name, var in self.fifos.items():
            head.append(f"    {var}, {var}_dp = r.fifo({name!r})")
            head.append(f"    {var}_lat = {var}_dp.latency")
            # Whether this unit is the FIFO's sender / receiver: only then may an op on it
            # run in place (otherwise the yielded command reports the fault).
            head.append(f"    {var}_out = {var}.producer == r.unit")
            head.append(f"    {var}_in = {var}.consumer == r.unit")
        for var, nbytes in sorted(self.send_sizes):
            head.append(f"    {var}_b{nbytes} = {var}_dp.occupancy({nbytes})")
            head.append(f"    {var}_v{nbytes} = {var}_b{nbytes} + {var}_lat")
        for var, count in sorted(self.recv_sizes):
            head.append(f"    {var}_r{count} = (RECV, {var}, {count})")
        for fn, maker, k in self.op_fns:
            head.append(f"    {fn} = r.{maker}({k})")
        for token in self.tokens:
            head.append(f"    {token} = None")
        for fn, maker, args in self.bulk_fns:
            head.append(f"    {fn} = r.{maker}({args})")
        for name in self.bulk_locals:
            head.append(f"    {name} = None")
        self.source = "\n".join(head + body + ["    return", "    yield"]) + "\n"

    # ---- names ---------------------------------------------------------------------

    def _new(self, prefix: str = "v") -> str:
        self._counter += 1
        return f"{prefix}{self._counter}"

    def name(self, value: SSAValue) -> str:
        found = self.names.get(value)
        if found is None:
            found = self._new()
            self.names[value] = found
        return found

    def ready_name(self, value: SSAValue) -> str:
        return "t_" + self.name(value)

    def const(self, value: object) -> str:
        self.consts.append(value)
        return f"K[{len(self.consts) - 1}]"

    def label(self, op: Operation) -> str:
        """The op's name and, when known, its source location (for error messages)."""
        where = self.image.locations.get(op)
        if isinstance(where, SourceLocation):
            return f"{op.name} at {where.file}:{where.line}:{where.col}"
        return op.name

    def op_fn(self, maker: str, plan: object) -> str:
        """A local bound (in the prologue) to `r.<maker>(plan)`: the op's in-place function."""
        k = self.const(plan)
        fn = f"X{len(self.op_fns)}"
        self.op_fns.append((fn, maker, k))
        return fn

    def compute_plan(self, op: Operation):
        """The op's ComputePlan, one object per op (the per-op and the bulk path share it)."""
        plan = self._plans.get(op)
        if plan is None:
            plan = self._plans[op] = self.image.compute_plan(op)
        return plan

    def fifo_var(self, name: str) -> str:
        if name not in self.fifos:
            self.fifos[name] = f"F{len(self.fifos)}"
        return self.fifos[name]

    # ---- emission ------------------------------------------------------------------

    def _block(self, block: Block, out: list[str], depth: int) -> None:
        self.after_busy = False
        for op in block.ops:
            self._op(op, out, depth)
        self.after_busy = False

    def _wait_ready(self, values, out: list[str], ind: str) -> None:
        tracked = [self.ready_name(v) for v in values if self.ready_name(v) in self.ready]
        if not tracked:
            return
        latest = tracked[0] if len(tracked) == 1 else f"max({', '.join(tracked)})"
        out.append(f"{ind}_t = {latest}")
        if self.in_place:
            # Untraced and within the cycle budget (LIM): Simulator.wait_until_now's
            # accounting written out, the same figures without a call per operand wait.
            out.append(f"{ind}if _t > proc.local:")
            out.append(f"{ind}    if proc.local <= LIM: ST.instructions += 1; "
                       "ST.stalled_input += _t - proc.local; proc.local = _t")
            out.append(f"{ind}    else: WAIT(proc, _t, 'for its operands to be ready')")
        else:
            out.append(f"{ind}if _t > proc.local: yield (WAIT_UNTIL, _t, 'for its operands to be ready')")

    def _flush(self, out: list[str], ind: str) -> None:
        """Bring `q` up to date with the issue cycles counted since."""
        if self.cost and not self.top:
            out.append(f"{ind}q += {self.cost}")
        self.cost = 0

    def _scalar(self, op: Operation) -> None:
        """An op computed by the unit's sequencer: one issue cycle, unless its value is
        known when the program is loaded."""
        if all(v in self.invariant for v in op.operands):
            self.invariant.update(op.results)
        else:
            self.cost += 1
            self.after_busy = False

    def _op(self, op: Operation, out: list[str], depth: int) -> None:
        ind = "    " * depth
        label = self.label(op)
        n = self.name
        if not isinstance(op, (scf.ForOp, scf.IfOp, scf.YieldOp, func.ReturnOp)) \
                and op.name.split(".")[0] in ("arith", "affine", "uniform", "symbol") \
                or isinstance(op, dataflow.InstanceIndexOp):
            self._scalar(op)

        if isinstance(op, arith.ConstantOp):
            value = op.value
            if not isinstance(value, (IntegerAttr, FloatAttr)):
                raise UnsupportedError(f"arith.constant of {value} is not a scalar", label)
            out.append(f"{ind}{n(op.result)} = {value.value.data!r}")
        elif op.name in _BINARY:
            a, b = n(op.operands[0]), n(op.operands[1])
            out.append(f"{ind}{n(op.results[0])} = {_BINARY[op.name].format(a=a, b=b)}")
        elif op.name in _DIVIDING:
            a, b = n(op.operands[0]), n(op.operands[1])
            out.append(f"{ind}if {b} == 0: raise r.fault({(op.name + ' divides by zero')!r}, {label!r})")
            out.append(f"{ind}{n(op.results[0])} = {_DIVIDING[op.name].format(a=a, b=b)}")
        elif isinstance(op, arith.CmpiOp):
            cmp = _CMPI[op.predicate.value.data]
            out.append(f"{ind}{n(op.result)} = ({n(op.lhs)} {cmp} {n(op.rhs)})")
        elif isinstance(op, arith.SelectOp):
            out.append(f"{ind}{n(op.result)} = {n(op.lhs)} if {n(op.cond)} else {n(op.rhs)}")
        elif op.name in _PASS:
            out.append(f"{ind}{n(op.results[0])} = {n(op.operands[0])}")
        elif isinstance(op, affine.ApplyOp):
            amap = op.map.data
            args = [n(v) for v in op.mapOperands]
            dims, syms = args[:amap.num_dims], args[amap.num_dims:]
            out.append(f"{ind}{n(op.result)} = {self.const(amap)}.eval([{', '.join(dims)}], "
                       f"[{', '.join(syms)}])[0]")
        elif isinstance(op, dataflow.InstanceIndexOp):
            out.append(f"{ind}{n(op.result)} = r.{'core' if op.level.data == 'core' else 'corelet'}")
        elif isinstance(op, uniform.QueryMapOp):
            out.append(f"{ind}{n(op.result)} = r.query({n(op.map)}, {n(op.key)}, {label!r})")
        elif isinstance(op, symbol.CreateSymbolOp):
            out.append(f"{ind}{n(op.result)} = r.symbol({op.id}, {label!r})")
        elif isinstance(op, uniform.DefImmutableMappingOp):
            entries = ", ".join(n(v) for v in op.entries)
            out.append(f"{ind}{n(op.result)} = dict(zip({op.key_list!r}, [{entries}]))")
        elif isinstance(op, scf.ForOp):
            self._for(op, out, depth)
        elif isinstance(op, scf.IfOp):
            self._if(op, out, depth)
        elif isinstance(op, (scf.YieldOp, func.ReturnOp)):
            return
        else:
            self._device_op(op, out, ind, label)

    def _for(self, op: scf.ForOp, out: list[str], depth: int) -> None:
        ind = "    " * depth
        n = self.name
        block = op.body.block
        iv, carried = block.args[0], list(block.args[1:])
        label = self.label(op)
        step = n(op.step)
        out.append(f"{ind}if {step} <= 0: raise r.fault('scf.for step ' + str({step}) + ' is not positive', {label!r})")
        self._flush(out, ind)
        acc = [self._new("c") for _ in carried]
        for a, init in zip(acc, op.iter_args):
            out.append(f"{ind}{a} = {n(init)}")
        inner = "    " * (depth + 1)
        steps = self._bulk_plan(op) if self.in_place and BULK and self.ahead else None
        matmuls = [s for s in steps or () if s[0] == "matmul"] if DEFER_MATMUL else []
        if len(matmuls) == 1:
            # The loop's one carried value is a matrix accumulator nothing else reads
            # (_bulk_plan): its instructions' sums wait until the loop ends, then are
            # computed for all of them at once.
            _, mm, slot = matmuls[0]
            pending = self._new("P")
            self.deferred[mm] = (pending, self.op_fn("deferred_matmul_fn", self.compute_plan(mm)))
            out.append(f"{ind}{pending} = []")
        if steps is None:
            out.append(f"{ind}for {n(iv)} in range({n(op.lb)}, {n(op.ub)}, {step}):")
        else:
            # Iteration by iteration, but each time the iterations ahead can run in bulk
            # (their entries are in the FIFOs), they do (_bulk).
            j, count = self._new("j"), self._new("n")
            out.append(f"{ind}{count} = len(range({n(op.lb)}, {n(op.ub)}, {step}))")
            out.append(f"{ind}{j} = 0")
            out.append(f"{ind}while {j} < {count}:")
            self._bulk(op, steps, acc, j, count, out, depth + 1)
            out.append(f"{inner}{n(iv)} = {n(op.lb)} + {j} * {step}")
            out.append(f"{inner}{j} += 1")
        for a, arg in zip(acc, carried):
            out.append(f"{inner}{n(arg)} = {a}")
        self.cost = 1  # the iteration's test and branch
        self._block(block, out, depth + 1)
        last = block.last_op
        if isinstance(last, scf.YieldOp):
            for a, v in zip(acc, last.operands):
                out.append(f"{inner}{a} = {n(v)}")
        if not self.top:
            self._flush(out, inner)
            out.append(f"{inner}if q > QL: QL = CHECK(proc, q, {label!r})")
        else:
            out.append(f"{inner}pass")
        if len(matmuls) == 1:
            a = acc[slot]
            out.append(f"{ind}{a} = {self.deferred[mm][1]}.settle({pending}, {a})")
        for res, a in zip(op.results, acc):
            out.append(f"{ind}{n(res)} = {a}")
        self.cost = 1  # the test that leaves the loop

    # ---- bulk advancement (emulator.device.bulk) ------------------------------------

    def _bulk_plan(self, op: scf.ForOp) -> list[tuple] | None:
        """The steps of a loop whose iterations can run in bulk, or None. It qualifies when
        its body (no nested loop or branch, no scalar op but constants) only receives, at
        most once per FIFO, and computes with ops that have a stacked form
        (`bulk.batch_op`) on at least one value received or computed in the iteration
        (ops on values that are the same in every iteration are computed once); every
        carried value is updated by one binary op with such a value, or is the
        accumulator of a matrix instruction whose operands are such values, and is
        yielded as it is; the induction variable is not used."""
        block = op.body.block
        iv, carried = block.args[0], list(block.args[1:])
        if _uses(iv):
            return None
        last = block.last_op
        yields = list(last.operands) if isinstance(last, scf.YieldOp) else []
        if len(yields) != len(carried):
            return None
        varying: set[SSAValue] = set()  # values that differ per iteration
        constant: set[SSAValue] = set()  # values of the body that are the same in each
        fifos: set[str] = set()
        steps: list[tuple] = []
        updated = 0

        def fixed(value) -> bool:  # the same in every iteration
            if value in constant:
                return True
            where = value.block if isinstance(value, BlockArgument) else value.owner.parent_block()
            return where is not block

        for inner in block.ops:
            if isinstance(inner, (arith.ConstantOp, scf.YieldOp)):
                continue
            if isinstance(inner, dataflow.ReceiveOp):
                name = inner.fifo.root_reference.data
                entry = self.image.fifos[name].entry
                count = _numel(inner.result.type.get_shape()) // _numel(entry.get_shape())
                if name in fifos or count < 1:
                    return None
                fifos.add(name)
                varying.add(inner.result)
                steps.append(("receive", inner, name, count))
            elif isinstance(inner, vectorchain.ConstantBitstreamOp):
                constant.add(inner.result)
                steps.append(("bitstream", inner))
            elif isinstance(inner, vectorchain.MatmulOp):
                # a K loop's matrix instruction: its operands this iteration's, its
                # accumulator carried
                plan = self.compute_plan(inner)
                value = inner.acc
                if value not in carried or inner.lhs not in varying \
                        or inner.rhs not in varying or _uses(value) != 1 \
                        or _uses(inner.results[0]) != 1 \
                        or yields[carried.index(value)] is not inner.results[0] \
                        or bulk.matmul_op(plan) is None:
                    return None
                updated += 1
                steps.append(("matmul", inner, carried.index(value)))
            elif isinstance(inner, (vectorchain.BinaryOp, vectorchain.ApplyOp,
                                    vectorchain.ShuffleOp, vectorchain.ReduceOp)):
                plan = self.compute_plan(inner)
                operands = list(inner.operands)
                own = [v for v in operands if v in carried]
                if own:
                    value = own[0]
                    other = [v for v in operands if v is not value]
                    slot = carried.index(value)
                    if len(own) != 1 or len(other) != 1 or other[0] not in varying \
                            or _uses(value) != 1 or _uses(inner.results[0]) != 1 \
                            or yields[slot] is not inner.results[0] \
                            or bulk.carried_op(plan, operands[0] is value) is None:
                        return None
                    updated += 1
                    steps.append(("carried", inner, slot, operands[0] is value))
                    continue
                flags = tuple(v in varying for v in operands)
                if not all(f or fixed(v) for v, f in zip(operands, flags)):
                    return None
                if not any(flags):
                    if bulk.fixed_op(plan) is None:
                        return None
                    constant.add(inner.results[0])
                    steps.append(("fixed", inner))
                    continue
                if bulk.batch_op(plan, flags) is None:
                    return None
                varying.add(inner.results[0])
                steps.append(("compute", inner, flags))
            else:
                return None
        if updated != len(carried) or not fifos:
            return None
        return steps

    def _bulk(self, op: scf.ForOp, steps: list[tuple], acc: list[str], j: str, count: str,
              out: list[str], depth: int) -> None:
        """At the head of each iteration, when the next k >= 2 iterations' entries are all in
        their FIFOs: count their cycles as the per-op code would (a receive at max(the
        unit's time, the entry's visible time), each op after its operands are ready,
        issue cycles as `q` counts them), up to the first iteration that would pass a
        budget or meet a chunk of another size; unless the data cannot be stacked, do the
        data work of the iterations counted, one numpy call per op over all of them, take
        their entries (slots freed at the receives' cycles, as `Simulator.recv_ahead`
        frees them) and go on after them."""
        n = self.name
        i1, i2, i3, i4, i5 = ("    " * (depth + d) for d in range(5))
        tag = self._new("B")
        receives = [(s[1], self.fifo_var(s[2]), s[3]) for s in steps if s[0] == "receive"]
        computes = [s for s in steps if s[0] in ("compute", "carried", "fixed", "matmul")]
        cycles = f"{tag}_cy"
        self.bulk_locals.append(cycles)
        plans = [self.const(self.compute_plan(s[1])) for s in computes]
        fns = {}
        for s, k in zip(computes, plans):
            fn = f"{tag}_f{len(fns)}"
            fns[s[1]] = fn
            if s[0] == "compute":
                self.bulk_fns.append((fn, "bulk_op", f"{k}, {s[2]!r}"))
            elif s[0] == "carried":
                self.bulk_fns.append((fn, "bulk_carried", f"{k}, {s[3]!r}"))
            elif s[0] == "matmul":
                if s[1] not in self.deferred:
                    self.bulk_fns.append((fn, "bulk_matmul", k))
            else:
                self.bulk_fns.append((fn, "bulk_fixed", k))
        ready_in = [f"{f}_in and {f}.trace is None" for _, f, _ in receives]
        out.append(f"{i1}if {count} - {j} >= 2 and {' and '.join(ready_in)}:")
        sizes = ", ".join(f"len({f}.chunks)" for _, f, _ in receives)
        out.append(f"{i2}_k = min({count} - {j}, {sizes})")
        out.append(f"{i2}if _k >= 2 and {cycles} is None: "
                   f"{cycles} = r.bulk_cycles(({''.join(k + ', ' for k in plans)}))")
        out.append(f"{i2}if _k >= 2 and {cycles} is not None:")
        names = [f"{tag}_c{i}" for i in range(len(computes))]
        if names:
            out.append(f"{i3}{''.join(c + ', ' for c in names)}= {cycles}")
        cycle_of = {s[1]: c for s, c in zip(computes, names)}
        out.append(f"{i3}b_L = proc.local; b_q = q; b_ni = b_busy = b_si = b_done = 0; b_save = None")
        for _, f, _ in receives:
            out.append(f"{i3}{f}_at = []")
        out.append(f"{i3}for _i in range(_k):")
        # The timing, as the per-op code counts it (the issue cycles of `_block` and `_for`).
        self.cost = 1
        self.after_busy = False
        ready: set[SSAValue] = set()
        last_label = ""
        block = op.body.block

        def wait(values) -> None:
            tracked = [f"b_t_{n(v)}" if v in ready else self.ready_name(v) for v in values
                       if v in ready or self.ready_name(v) in self.ready]
            if tracked:
                latest = tracked[0] if len(tracked) == 1 else f"max({', '.join(tracked)})"
                out.append(f"{i4}_t = {latest}")
                out.append(f"{i4}if _t > b_L: b_ni += 1; b_si += _t - b_L; b_L = _t")

        for inner in block.ops:
            if isinstance(inner, arith.ConstantOp):
                self._scalar(inner)
                continue
            if isinstance(inner, scf.YieldOp):
                continue
            last_label = self.label(inner)
            if not self.after_busy:
                if self.cost:
                    out.append(f"{i4}b_q += {self.cost}")
                self.cost = 0
                out.append(f"{i4}if b_q > b_L: b_busy += b_q - b_L; b_L = b_q")
            self.cost += 1
            self.after_busy = self._keeps_busy(inner)
            if isinstance(inner, dataflow.ReceiveOp):
                f = self.fifo_var(inner.fifo.root_reference.data)
                k = next(c for o, _, c in receives if o is inner)
                out.append(f"{i4}_c = {f}.chunks[_i]")
                out.append(f"{i4}if _c[2] != {k}: break")
                out.append(f"{i4}b_ni += 1")
                out.append(f"{i4}if _c[0] > b_L: b_si += _c[0] - b_L; b_L = _c[0]")
                out.append(f"{i4}{f}_at.append(b_L)")
                continue
            if isinstance(inner, vectorchain.ConstantBitstreamOp):
                out.append(f"{i4}b_ni += 1; b_busy += 1; b_L += 1")
            else:
                # (a matrix instruction waits for its operands, not for its accumulator:
                # the per-op code's rule)
                wait([inner.lhs, inner.rhs] if isinstance(inner, vectorchain.MatmulOp)
                     else list(inner.operands))
                c = cycle_of[inner]
                out.append(f"{i4}b_ni += 1; b_busy += {c}; b_L += {c}")
            ready.add(inner.results[0])
            out.append(f"{i4}b_t_{n(inner.results[0])} = b_L + CL")
        if self.cost:
            out.append(f"{i4}b_q += {self.cost}")
        self.cost = 0
        out.append(f"{i4}if b_q > QL: break")
        out.append(f"{i4}b_done = _i + 1; b_save = (b_L, b_q, b_ni, b_busy, b_si)")
        # The iterations counted in full (the rest are left to the per-op code).
        out.append(f"{i3}if b_done and b_save[0] <= LIM:")
        out.append(f"{i4}_k = b_done; b_L, b_q, b_ni, b_busy, b_si = b_save")
        for _, f, _ in receives:
            out.append(f"{i4}del {f}_at[_k:]")
        # The data work, one call per op over the k iterations (stacked on a first axis).
        out.append(f"{i4}try:")
        updates = []
        deferred = None
        for s in steps:
            inner = s[1]
            if s[0] == "receive":
                f = self.fifo_var(s[2])
                shape = tuple(inner.result.type.get_shape())
                out.append(f"{i5}{n(inner.result)} = STACKED({f}, _k, {shape!r})")
            elif s[0] == "bitstream":
                out.append(f"{i5}{n(inner.result)} = {self.const(self.image.bitstream_value(inner))}")
            elif s[0] in ("compute", "fixed"):
                args = ", ".join(n(v) for v in inner.operands)
                head = "_k, " if s[0] == "compute" else ""
                out.append(f"{i5}{n(inner.results[0])} = {fns[inner]}({head}{args})")
            elif s[0] == "carried":
                slot = s[2]
                other = next(v for v in inner.operands if v is not block.args[1 + slot])
                new = f"{tag}_a{slot}"
                out.append(f"{i5}{new} = {fns[inner]}(_k, {acc[slot]}, {n(other)})")
                updates.append((acc[slot], new))
            elif s[0] == "matmul" and inner in self.deferred:
                deferred = s  # (emitted last: it changes its pending list)
            elif s[0] == "matmul":
                slot = s[2]
                new = f"{tag}_a{slot}"
                out.append(f"{i5}{new} = {fns[inner]}(_k, {acc[slot]}, {n(inner.lhs)}, "
                           f"{n(inner.rhs)})")
                updates.append((acc[slot], new))
        if deferred is not None:
            _, inner, slot = deferred
            pending, fn = self.deferred[inner]
            new = f"{tag}_a{slot}"
            out.append(f"{i5}{new} = {fn}.many({pending}, _k, {n(inner.lhs)}, {n(inner.rhs)}, "
                       f"{acc[slot]})")
            updates.append((acc[slot], new))
        out.append(f"{i4}except UNBATCHED: pass")
        out.append(f"{i4}else:")
        for _, f, k in receives:
            out.append(f"{i5}SIM.bulk_take({f}, {k}, {f}_at)")
        out.append(f"{i5}ST.instructions += b_ni; ST.busy += b_busy; ST.stalled_input += b_si")
        out.append(f"{i5}proc.local = b_L; q = b_q")
        out.append(f"{i5}proc.instruction = {last_label!r}")
        for a, new in updates:
            out.append(f"{i5}{a} = {new}")
        out.append(f"{i5}{j} += _k")
        out.append(f"{i5}continue")

    def _if(self, op: scf.IfOp, out: list[str], depth: int) -> None:
        ind = "    " * depth
        n = self.name
        inner = "    " * (depth + 1)
        self.cost += 1  # the branch
        self._flush(out, ind)
        for region, head in ((op.true_region, f"if {n(op.cond)}:"), (op.false_region, "else:")):
            out.append(f"{ind}{head}")
            start = len(out)
            if region.blocks:
                self._block(region.block, out, depth + 1)
                last = region.block.last_op
                if isinstance(last, scf.YieldOp):
                    for res, v in zip(op.results, last.operands):
                        out.append(f"{inner}{n(res)} = {n(v)}")
            self._flush(out, inner)
            if len(out) == start:
                out.append(f"{inner}pass")

    def _device_op(self, op: Operation, out: list[str], ind: str, label: str) -> None:
        n = self.name
        if self.top:
            raise UnsupportedError(f"{op.name} may not stand at the top level of a program "
                                   "(only constants, symbols and maps do)", label)
        out.append(f"{ind}proc.instruction = {label!r}")
        # Issued at cycle q (+ the cycles counted since): it starts no earlier.
        if not self.after_busy:
            self._flush(out, ind)
            out.append(f"{ind}if q > proc.local: ISSUE(proc, q)")
        self.cost += 1  # its own issue cycle
        self.after_busy = self._keeps_busy(op)
        if isinstance(op, dataflow.SendOp):
            name = op.fifo.root_reference.data
            fifo = self.fifo_var(name)
            entry = self.image.fifos[name].entry
            count = _numel(op.value.type.get_shape()) // _numel(entry.get_shape())
            nbytes = count * _numel(entry.get_shape()) * _elem_bytes(entry)
            self._wait_ready([op.value], out, ind)
            self.send_sizes.add((fifo, nbytes))
            busy = f"{fifo}_b{nbytes}"
            visible = f"{fifo}_v{nbytes}"
            command = (f"yield (SEND_BUSY, {fifo}, {n(op.value)}.reshape({count}, -1), "
                       f"{count}, {visible}, {busy})")
            if self.in_place and count >= 1:  # (an empty send goes the plain way)
                out.append(f"{ind}if {fifo}_out and {fifo}.depth - {fifo}.held >= {count} and "
                           f"({fifo}.queue is None or {fifo}.room() >= {count}): "
                           f"SEND_NOW(proc, {fifo}, {n(op.value)}, {count}, {visible}, {busy})")
                out.append(f"{ind}else: {command}")
            else:
                out.append(f"{ind}{command}")
        elif isinstance(op, dataflow.ReceiveOp):
            name = op.fifo.root_reference.data
            fifo = self.fifo_var(name)
            entry = self.image.fifos[name].entry
            count = _numel(op.result.type.get_shape()) // _numel(entry.get_shape())
            shape = tuple(op.result.type.get_shape())
            if self.in_place:
                self.recv_sizes.add((fifo, count))
                out.append(f"{ind}_v = RECV_NOW(proc, {fifo}, {count}) if {fifo}_in and "
                           f"(proc.local == SIM.now or AHEAD and {fifo}.chunks and "
                           f"{fifo}.chunks[0][0] <= proc.local) else None")
                out.append(f"{ind}if _v is None: _v = yield {fifo}_r{count}")
            else:
                out.append(f"{ind}_v = yield (RECV, {fifo}, {count})")
            out.append(f"{ind}{n(op.result)} = _v if _v.shape == {shape!r} else _v.reshape({shape!r})")
        elif isinstance(op, (dataflow.SyncSendOp, dataflow.SyncRecvOp)):
            sending = isinstance(op, dataflow.SyncSendOp)
            name = op.channel.root_reference.data
            if name not in self.image.syncs:
                raise UnsupportedError(f"no dataflow.sync @{name} is declared", label)
            peer = n(op.peer) if op.peer is not None else "None"
            cmd = "SYNC_SEND" if sending else "SYNC_RECV"
            resolve = f"r.token({name!r}, {peer}, {sending})"
            if op.peer is None or op.peer in self.invariant:
                # The same token every time this op runs: resolved on its first run (a
                # fault belongs to that instruction) and kept in a local.
                token = self._new("T")
                self.tokens.append(token)
                out.append(f"{ind}if {token} is None: {token} = {resolve}")
            else:
                token = resolve
            if not self.in_place:
                out.append(f"{ind}yield ({cmd}, {token})")
            elif sending:
                out.append(f"{ind}if not SYNC_SEND_NOW(proc, {token}): yield (SYNC_SEND, {token})")
            else:
                out.append(f"{ind}if not SYNC_RECV_NOW(proc, {token}, AHEAD): yield (SYNC_RECV, {token})")
        elif isinstance(op, agen.VectorLoadOp):
            res = n(op.result)
            if self.in_place:
                fn = self.op_fn("load_fn", self.image.load_plan(op))
                out.append(f"{ind}{res}, _cmd, _lat = {fn}({n(op.base)})")
                out.append(f"{ind}if _cmd is not None: yield _cmd")
            else:
                k = self.const(self.image.load_plan(op))
                out.append(f"{ind}{res}, _cmd, _lat = r.vector_load({k}, {n(op.base)})")
                out.append(f"{ind}yield _cmd")
            out.append(f"{ind}{self.ready_name(op.result)} = proc.local + _lat")
            self.ready.add(self.ready_name(op.result))
        elif isinstance(op, agen.VectorStoreOp):
            self._wait_ready([op.value], out, ind)
            if self.in_place:
                fn = self.op_fn("store_fn", self.image.store_plan(op))
                out.append(f"{ind}_cmd = {fn}({n(op.base)}, {n(op.value)})")
                out.append(f"{ind}if _cmd is not None: yield _cmd")
            else:
                k = self.const(self.image.store_plan(op))
                out.append(f"{ind}yield r.vector_store({k}, {n(op.base)}, {n(op.value)})")
        elif isinstance(op, agen.CompositeLoadAndStoreOp):
            if op.clip is not None:
                k = self.const(self.image.composite_plan(op))
                vals = "".join(f"{n(v)}, " for v in op.clip_values)
                out.append(f"{ind}yield r.composite_clipped({k}, {n(op.source_base)}, "
                           f"{n(op.target_base)}, ({vals}))")
            elif self.in_place:
                fn = self.op_fn("composite_fn", self.image.composite_plan(op))
                out.append(f"{ind}yield {fn}({n(op.source_base)}, {n(op.target_base)})")
            else:
                k = self.const(self.image.composite_plan(op))
                out.append(f"{ind}yield r.composite({k}, {n(op.source_base)}, {n(op.target_base)})")
        elif isinstance(op, agen.IndirectLoadAndStoreOp):
            k = self.const(self.image.indirect_plan(op))
            bases = "".join(f"{n(b)}, " for b in op.index_bases)
            out.append(f"{ind}yield (SETTLE,)")  # the address buffer's fetch has landed
            out.append(f"{ind}yield r.indirect({k}, {n(op.source_base)}, {n(op.target_base)}, ({bases}))")
        elif isinstance(op, vectorchain.ConstantBitstreamOp):
            k = self.const(self.image.bitstream_value(op))
            out.append(f"{ind}{n(op.result)} = {k}")
            self._one_cycle(out, ind)
            out.append(f"{ind}{self.ready_name(op.result)} = proc.local + CL")
            self.ready.add(self.ready_name(op.result))
        elif isinstance(op, vectorchain.SplatBitsOp):
            k = self.const(self.image.splat_bits_fn(op))
            out.append(f"{ind}{n(op.result)} = {k}({n(op.bits)})")
            self._one_cycle(out, ind)
            out.append(f"{ind}{self.ready_name(op.result)} = proc.local + CL")
            self.ready.add(self.ready_name(op.result))
        elif isinstance(op, (vectorchain.BinaryOp, vectorchain.ApplyOp, vectorchain.ShuffleOp,
                             vectorchain.ReduceOp, vectorchain.MatmulOp)):
            # A matrix instruction continues its accumulator inside the array (output
            # stationary): it waits for its operands, not for the latency of the sum.
            waits = [op.lhs, op.rhs] if isinstance(op, vectorchain.MatmulOp) else list(op.operands)
            self._wait_ready(waits, out, ind)
            args = ", ".join(n(v) for v in op.operands)
            if op in self.deferred:
                pending, fn = self.deferred[op]
                out.append(f"{ind}{n(op.results[0])} = {fn}({pending}, {args})")
            elif self.in_place:
                fn = self.op_fn("compute_fn", self.compute_plan(op))
                out.append(f"{ind}{n(op.results[0])} = {fn}({args})")
            else:
                k = self.const(self.compute_plan(op))
                out.append(f"{ind}{n(op.results[0])}, _cmd = r.compute({k}, ({args},))")
                out.append(f"{ind}yield _cmd")
            out.append(f"{ind}{self.ready_name(op.results[0])} = proc.local + CL")
            self.ready.add(self.ready_name(op.results[0]))
        else:
            raise UnsupportedError(f"the emulator does not execute {op.name}", label)


    def _one_cycle(self, out: list[str], ind: str) -> None:
        """The unit is busy one cycle (`Simulator.delay_now(proc, 1)`, written out when
        untraced and within the cycle budget)."""
        if not self.in_place:
            out.append(f"{ind}yield (DELAY, 1)")
            return
        out.append(f"{ind}if proc.local <= LIM: ST.instructions += 1; ST.busy += 1; proc.local += 1")
        out.append(f"{ind}else: SIM.delay_now(proc, 1)")

    def _keeps_busy(self, op: Operation) -> bool:
        """Whether `op` occupies its unit for at least one cycle from its start (a transfer
        of at least one byte, a vector op on at least one element)."""
        if isinstance(op, (agen.VectorLoadOp, agen.VectorStoreOp)):
            plan = (self.image.load_plan(op) if isinstance(op, agen.VectorLoadOp)
                    else self.image.store_plan(op))
            return plan.access.box_bytes > 0
        if isinstance(op, agen.CompositeLoadAndStoreOp):
            return self.image.composite_plan(op).source_access.box_bytes > 0
        if isinstance(op, agen.IndirectLoadAndStoreOp):
            return False  # it may wait for its address buffer first
        if isinstance(op, dataflow.SendOp):  # (as the send's own code counts its entries)
            entry = self.image.fifos[op.fifo.root_reference.data].entry
            return _numel(op.value.type.get_shape()) // _numel(entry.get_shape()) >= 1
        if isinstance(op, (vectorchain.BinaryOp, vectorchain.ApplyOp, vectorchain.ShuffleOp,
                           vectorchain.ReduceOp, vectorchain.MatmulOp)):
            return self.compute_plan(op).elements > 0
        return isinstance(op, vectorchain.ConstantBitstreamOp | vectorchain.SplatBitsOp)  # (DELAY, 1)


def _uses(value: SSAValue) -> int:
    return sum(1 for _ in value.uses)


def _reads_memory(block: Block) -> bool:
    """Whether a unit's body reads a memory (a load or a transfer from one)."""
    return any(isinstance(op, (agen.VectorLoadOp, agen.CompositeLoadAndStoreOp,
                               agen.IndirectLoadAndStoreOp)) for op in block.walk())


def _numel(shape) -> int:
    out = 1
    for d in shape:
        out *= d
    return out


def _elem_bytes(type_: VectorType) -> int:
    from emulator.numerics import element_type
    from spyre_sched.polyhedral.views import element_name

    return element_type(element_name(type_.element_type)).size


def compile_unit(image, tag: str, block: Block, shared: list[SSAValue], top: bool = False):
    """(generator function taking (run, shared values, constants), constants, source); with
    `top`, a function taking (run, constants) and returning the shared values."""
    code = UnitCode(image, tag, block, shared, top)
    namespace = {"DELAY": sim.DELAY, "RECV": sim.RECV, "SEND_BUSY": sim.SEND_BUSY,
                 "SYNC_SEND": sim.SYNC_SEND, "SYNC_RECV": sim.SYNC_RECV,
                 "WAIT_UNTIL": sim.WAIT_UNTIL, "SETTLE": sim.SETTLE, "STACKED": bulk.stacked,
                 "UNBATCHED": (bulk.Unbatched, ValueError, IndexError), "_div_trunc": _div_trunc, "_rem_trunc": _rem_trunc}
    exec(compile(code.source, f"<program unit @{tag} of {image.name}>", "exec"), namespace)
    return namespace["top_level" if top else "unit_main"], code.consts, code.source
