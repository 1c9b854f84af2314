"""`spyre-sched bench`: the benchmark suite, run through the whole pipeline and measured
against the roofline bound and the heuristic baseline.

- `suite`: where the suite's kernels are (bench/kernels/, full size or `--quick`)
- `measure`: one kernel: bound, solver and heuristic schedules compiled, emulated, checked
- `summary`: the per-kernel ratios, the summary line, the table and the JSON document
- `plot`: emulated cycles against the bound, as SVG (matplotlib, an optional extra)
"""

from spyre_sched.bench.measure import KernelJob, measure_kernel
from spyre_sched.bench.suite import suite_kernels
from spyre_sched.bench.summary import report, summarise

__all__ = ["KernelJob", "measure_kernel", "report", "suite_kernels", "summarise"]
