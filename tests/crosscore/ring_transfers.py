"""The transfers over the ring the cost model prices for a kernel (its extracted problem,
every program and pipeline)."""

from __future__ import annotations

from pathlib import Path

from xdsl.parser import Parser

from spyre_sched import api
from spyre_sched.dialects.registry import make_context
from spyre_sched.solve.extract import extract
from spyre_sched.solve.problem import Transfer, all_pipelines


def ring_transfers(kernel: Path) -> list[Transfer]:
    module, _, _ = api.load_schedule_input(str(kernel), "spyre")
    module = Parser(make_context(), api.print_ir(module)).parse_module()
    problem = extract(module).problem
    return [w for prog in problem.programs for p in all_pipelines(prog) for st in p.stages
            for w in st.work if isinstance(w, Transfer) and w.shared_memory.startswith("ring")]
