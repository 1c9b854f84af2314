"""How parse + verify (+ the static checks) time grows with a kernel's op count.

Generates kernels of N ops (a chain of index arithmetic feeding an access tile, plus a
load/add/store at the end) and times `load_kernel` (parse + verify) and, for the smaller
sizes, `spyre-sched check`'s analysis. Linear growth shows as a constant time per op.

    python bench/parse_scale.py [N ...] [--floor]   (default: 1000 10000 100000)

`--floor` adds, per size, what bare xDSL costs on the same module (its parser on the
custom text and on the generic text, its `module.verify()`): the floor under ours.

Measured 2026-12-01 17:35-17:48 UTC on the shared 2-core machine (load average 9-10),
CPU seconds of `load_kernel`, before -> after the fast path for common op shapes
(spyre_sched/fast_op_parser.py), verification once per op shape and the garbage
collector paused while parsing (see docs/benchmarks.md, "Parse + verify"):
1,002 ops 0.30 -> 0.11 s; 10,002 ops 4.49 -> 0.73 s; 100,002 ops 43.1 -> 6.4 s
(430 -> 64 us/op). `spyre-sched check` on the same files, whole process: 2.3 -> 2.2 s,
6.7 -> 3.1 s, 53.8 -> 12.8 s.

History: the first parse-speed fix made it linear (line numbers had been counted from the
file start per op, the visible-value set copied per op, one recursion per dependent
value: 16,002 ops took 10.4 s CPU and grew quadratically; 4,000 dependent ops hit
Python's recursion limit in `check`). `--floor` then showed bare xDSL at 329 us/op
(parse 280, `module.verify()` 49): the 100k target was below xDSL's own floor, hence a
path that builds common ops without xDSL's per-op parser.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

HEADER = """\
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @big(%A: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v0 = arith.constant 0 : index
"""

FOOTER = """\
  %r = arith.remui %v{last}, %c96 : index
  %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {{
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>}} : memref<96x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {{
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>}} : memref<96x64xf16>
  %At = ktdp.construct_access_tile %Av[%r, %c0] {{access_tile_set = #tile, access_tile_order = #rm}}
      : memref<96x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%r, %c0] {{access_tile_set = #tile, access_tile_order = #rm}}
      : memref<96x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %At : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %Ct : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}}
"""


def generate(num_ops: int) -> str:
    """A kernel of about `num_ops` ops: a chain %v{k+1} = %v{k} + 1 (mod 96 at the end)."""
    body = [f"  %v{k + 1} = arith.addi %v{k}, %c1 : index\n" for k in range(num_ops - 12)]
    last = num_ops - 12
    return (HEADER + "".join(body) + "  %c96 = arith.constant 96 : index\n"
            + FOOTER.format(last=last))


def _cpu(fn):
    start = time.process_time()
    result = fn()
    return result, time.process_time() - start


def floor_rows(text: str) -> list[tuple[str, float]]:
    """CPU seconds of bare xDSL on the same module, no spyre-sched code on the path: the
    parse of the custom text, of the generic text (`print_generic_format`), and xDSL's
    own `module.verify()`. What `load_kernel` costs above these is ours."""
    import io

    from xdsl.parser import Parser
    from xdsl.printer import Printer

    from spyre_sched.dialects.registry import make_context

    module, custom = _cpu(lambda: Parser(make_context(), text).parse_module())
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(module)
    _, generic = _cpu(lambda: Parser(make_context(), stream.getvalue()).parse_module())
    _, verify = _cpu(module.verify)
    return [("xDSL parse (custom text)", custom), ("xDSL parse (generic text)", generic),
            ("xDSL module.verify()", verify)]


def main(sizes: list[int], floor: bool) -> None:
    from spyre_sched.frontend import load_kernel

    # wall time, and CPU time of this process (less sensitive to a shared, busy machine)
    print(f"{'ops':>8} {'MB':>6} {'parse+verify s':>15} {'cpu s':>8} {'cpu us/op':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"k{n}.mlir"
            text = generate(n)
            path.write_text(text)
            start, start_cpu = time.perf_counter(), time.process_time()
            kernel = load_kernel(path)
            seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
            ops = sum(1 for _ in kernel.module.walk())
            print(f"{ops:>8} {len(text) / 1e6:>6.1f} {seconds:>15.2f} {cpu:>8.2f} "
                  f"{cpu / ops * 1e6:>10.1f}")
            if floor:
                for what, cpu in floor_rows(text):
                    print(f"{'':>8} {what:>32}: {cpu:>8.2f} s CPU {cpu / ops * 1e6:>8.1f} us/op")


if __name__ == "__main__":
    args = sys.argv[1:]
    floor = "--floor" in args
    main([int(a) for a in args if a != "--floor"] or [1000, 10000, 100000], floor)
