"""The paged-attention decode step at a realistic size, against its roofline.

    python bench/paged_attention.py --write        # (re)write the two kernel files
    python bench/paged_attention.py [--quick]      # compile, report solver cycles / bound

One decode step of 32 heads x 128 head dim over 4096 cached tokens in 256 pages of 16
(`--quick`: 64 tokens in 4 pages), K and V caches laid out [page, slot, head, dim] in a
cache of twice as many pages, the sequence's pages named by a block table; one head per
compute tile (examples/paged_attention_decode.mlir is the same kernel at example size).

Bound: the bytes of the pages the step touches (each head reads its 128-wide slice of
every K and V page of the sequence, plus its query, its output and the block table)
divided by the device memory's bandwidth; the step does ~2 flops per byte moved, so
bandwidth, not compute, is what bounds it. The report gives the solver's predicted cycles
(the schedule's cost model), the bound, their ratio and, with --emulate, the emulated
cycles.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
KERNELS = HERE / "kernels" / "indirect"
HEADS = 32
PAGE = 16


@dataclass(frozen=True)
class Shape:
    dim: int  # head dimension
    pages: int  # pages of the sequence (tokens = pages * PAGE)

    @property
    def cache_pages(self) -> int:
        return 2 * self.pages


FULL = Shape(128, 256)
QUICK = Shape(128, 4)


def kernel(s: Shape) -> str:
    d, p, c = s.dim, s.pages, s.cache_pages
    hd = HEADS * d
    t = p * PAGE
    return f"""// Paged attention, one decode step: {HEADS} heads x {d} head dim, {t} cached tokens in
// {p} pages of {PAGE} (a cache of {c} pages). Written by bench/paged_attention.py; do not
// edit by hand. Same kernel as examples/paged_attention_decode.mlir, at this size.
#kv = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + {c - 1} >= 0, d1 >= 0, -d1 + {PAGE - 1} >= 0, d2 >= 0, -d2 + {HEADS - 1} >= 0, d3 >= 0, -d3 + {d - 1} >= 0)>
#bt = affine_set<(d0) : (d0 >= 0, -d0 + {p - 1} >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + {p - 1} >= 0, d1 >= 0, -d1 + {PAGE - 1} >= 0, d2 >= 0, -d2 + {d - 1} >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + {hd - 1} >= 0)>
#head = affine_set<(d0) : (d0 >= 0, -d0 + {d - 1} >= 0)>
#o3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
#o1 = affine_map<(d0) -> (d0)>
#ps = affine_map<(p, s, d) -> (p, s)>
#pd = affine_map<(p, s, d) -> (p, d)>
#d_of_pd = affine_map<(p, d) -> (d)>
#d_of_psd = affine_map<(p, s, d) -> (d)>
#p_of_ps = affine_map<(p, s) -> (p)>
#p_of_pd = affine_map<(p, d) -> (p)>

func.func @paged_attention(%Q: index, %K: index, %V: index, %BT: index, %O: index) attributes {{grid = [{HEADS}]}} {{
  %c0 = arith.constant 0 : index
  %cd = arith.constant {d} : index
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant {1 / d ** 0.5!r} : f32
  %h = ktdp.get_compute_tile_id : index
  %hd = arith.muli %h, %cd : index
  %Qh = arith.addi %Q, %hd : index
  %Qv = ktdp.construct_memory_view %Qh, sizes: [{d}], strides: [1] {{
      coordinate_set = #head, memory_space = #ktdp.memory_space<global>}} : memref<{d}xf16>
  %Ov = ktdp.construct_memory_view %O, sizes: [{hd}], strides: [1] {{
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>}} : memref<{hd}xf16>
  %Kv = ktdp.construct_memory_view %K, sizes: [{c}, {PAGE}, {HEADS}, {d}], strides: [{PAGE * hd}, {hd}, {d}, 1] {{
      coordinate_set = #kv, memory_space = #ktdp.memory_space<global>}} : memref<{c}x{PAGE}x{HEADS}x{d}xf16>
  %Vv = ktdp.construct_memory_view %V, sizes: [{c}, {PAGE}, {HEADS}, {d}], strides: [{PAGE * hd}, {hd}, {d}, 1] {{
      coordinate_set = #kv, memory_space = #ktdp.memory_space<global>}} : memref<{c}x{PAGE}x{HEADS}x{d}xf16>
  %Bv = ktdp.construct_memory_view %BT, sizes: [{p}], strides: [1] {{
      coordinate_set = #bt, memory_space = #ktdp.memory_space<global>}} : memref<{p}xi32>
  %Kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %s, %d)
      %Kv[ind(%Bv[%p]), (%s), (%h), (%d)] {{variables_space_set = #vars, variables_space_order = #o3}}
      : memref<{c}x{PAGE}x{HEADS}x{d}xf16>, memref<{p}xi32> -> !ktdp.access_tile<{p}x{PAGE}x{d}xindex>
  %Vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %s, %d)
      %Vv[ind(%Bv[%p]), (%s), (%h), (%d)] {{variables_space_set = #vars, variables_space_order = #o3}}
      : memref<{c}x{PAGE}x{HEADS}x{d}xf16>, memref<{p}xi32> -> !ktdp.access_tile<{p}x{PAGE}x{d}xindex>
  %Qt = ktdp.construct_access_tile %Qv[%c0] {{access_tile_set = #head, access_tile_order = #o1}}
      : memref<{d}xf16> -> !ktdp.access_tile<{d}xindex>
  %Ot = ktdp.construct_access_tile %Ov[%hd] {{access_tile_set = #head, access_tile_order = #o1}}
      : memref<{hd}xf16> -> !ktdp.access_tile<{d}xindex>
  %q = ktdp.load %Qt : !ktdp.access_tile<{d}xindex> -> tensor<{d}xf16>
  %k = ktdp.load %Kt : !ktdp.access_tile<{p}x{PAGE}x{d}xindex> -> tensor<{p}x{PAGE}x{d}xf16>
  %v = ktdp.load %Vt : !ktdp.access_tile<{p}x{PAGE}x{d}xindex> -> tensor<{p}x{PAGE}x{d}xf16>
  %s0 = tensor.empty() : tensor<{p}x{PAGE}xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<{p}x{PAGE}xf32>) -> tensor<{p}x{PAGE}xf32>
  %sc = linalg.generic {{indexing_maps = [#d_of_psd, #o3, #ps], iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%q, %k : tensor<{d}xf16>, tensor<{p}x{PAGE}x{d}xf16>) outs(%s1 : tensor<{p}x{PAGE}xf32>) {{
    ^bb0(%a: f16, %b: f16, %acc: f32):
      %af = arith.extf %a : f16 to f32
      %bf = arith.extf %b : f16 to f32
      %m = arith.mulf %af, %bf : f32
      %r = arith.addf %m, %acc : f32
      linalg.yield %r : f32
  }} -> tensor<{p}x{PAGE}xf32>
  %e0 = tensor.empty() : tensor<{p}x{PAGE}xf32>
  %e = linalg.generic {{indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}}
      ins(%sc : tensor<{p}x{PAGE}xf32>) outs(%e0 : tensor<{p}x{PAGE}xf32>) {{
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %scale : f32
      %x = math.exp %m : f32
      linalg.yield %x : f32
  }} -> tensor<{p}x{PAGE}xf32>
  %op0 = tensor.empty() : tensor<{p}x{d}xf32>
  %op1 = linalg.fill ins(%zero : f32) outs(%op0 : tensor<{p}x{d}xf32>) -> tensor<{p}x{d}xf32>
  %opart = linalg.generic {{indexing_maps = [#ps, #o3, #pd], iterator_types = ["parallel", "reduction", "parallel"]}}
      ins(%e, %v : tensor<{p}x{PAGE}xf32>, tensor<{p}x{PAGE}x{d}xf16>) outs(%op1 : tensor<{p}x{d}xf32>) {{
    ^bb0(%a: f32, %b: f16, %c: f32):
      %bf = arith.extf %b : f16 to f32
      %m = arith.mulf %a, %bf : f32
      %r = arith.addf %m, %c : f32
      linalg.yield %r : f32
  }} -> tensor<{p}x{d}xf32>
  %lp0 = tensor.empty() : tensor<{p}xf32>
  %lp1 = linalg.fill ins(%zero : f32) outs(%lp0 : tensor<{p}xf32>) -> tensor<{p}xf32>
  %lpart = linalg.generic {{indexing_maps = [#o2, #p_of_ps], iterator_types = ["parallel", "reduction"]}}
      ins(%e : tensor<{p}x{PAGE}xf32>) outs(%lp1 : tensor<{p}xf32>) {{
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  }} -> tensor<{p}xf32>
  %o0 = tensor.empty() : tensor<{d}xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%o0 : tensor<{d}xf32>) -> tensor<{d}xf32>
  %acc = linalg.generic {{indexing_maps = [#o2, #d_of_pd], iterator_types = ["reduction", "parallel"]}}
      ins(%opart : tensor<{p}x{d}xf32>) outs(%o1 : tensor<{d}xf32>) {{
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  }} -> tensor<{d}xf32>
  %l0 = tensor.empty() : tensor<{d}xf32>
  %l1 = linalg.fill ins(%zero : f32) outs(%l0 : tensor<{d}xf32>) -> tensor<{d}xf32>
  %l = linalg.generic {{indexing_maps = [#p_of_pd, #d_of_pd], iterator_types = ["reduction", "parallel"]}}
      ins(%lpart : tensor<{p}xf32>) outs(%l1 : tensor<{d}xf32>) {{
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  }} -> tensor<{d}xf32>
  %y0 = tensor.empty() : tensor<{d}xf16>
  %y = linalg.generic {{indexing_maps = [#o1, #o1, #o1], iterator_types = ["parallel"]}}
      ins(%acc, %l : tensor<{d}xf32>, tensor<{d}xf32>) outs(%y0 : tensor<{d}xf16>) {{
    ^bb0(%a: f32, %b: f32, %c: f16):
      %r = arith.divf %a, %b : f32
      %t = arith.truncf %r : f32 to f16
      linalg.yield %t : f16
  }} -> tensor<{d}xf16>
  ktdp.store %y, %Ot : tensor<{d}xf16>, !ktdp.access_tile<{d}xindex>
  return
}}
"""


def files() -> dict[Path, str]:
    return {KERNELS / "paged_attention.mlir": kernel(FULL),
            KERNELS / "quick" / "paged_attention.mlir": kernel(QUICK)}


def page_bytes(s: Shape) -> tuple[int, int]:
    """(all cores, one core): bytes of the K and V pages the step gathers, plus the block
    table every head reads (the roofline counts the direct accesses itself)."""
    per_core = 2 * s.pages * PAGE * s.dim * 2 + s.pages * 4
    return HEADS * per_core, per_core


def bound(path: Path, s: Shape) -> tuple[int, str]:
    """The roofline's bound with the gathered pages counted: (cycles, what binds)."""
    import math

    from spyre_sched.device import load_device
    from spyre_sched.frontend import load_kernel
    from spyre_sched.roofline import roofline

    r = roofline(load_kernel(str(path)), load_device("spyre"))
    total, per_core = page_bytes(s)
    port = math.ceil((r.memory_bytes + total) / r.memory_bandwidth)
    reads = [link for link in r.memory_links if not link.egress]
    link = max(math.ceil((l.bytes + per_core) / l.bandwidth) for l in reads)
    terms = {"device memory port": port, "a core's read link": link,
             "vector compute": r.compute_cycles}
    what = max(terms, key=terms.get)
    return terms[what], f"{what} ({', '.join(f'{k} {v}' for k, v in terms.items())})"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the kernel files")
    parser.add_argument("--quick", action="store_true", help="the small shape")
    parser.add_argument("--emulate", action="store_true", help="also emulate (slow at full size)")
    parser.add_argument("--pages", type=int, metavar="N",
                        help="another size: N pages of the sequence (a kernel file written "
                             "to a temporary folder), e.g. the largest the emulator runs "
                             "in a few minutes")
    args = parser.parse_args(argv)
    if args.write:
        for path, text in files().items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(path.relative_to(HERE.parent))
        return 0
    from spyre_sched.api import compile as compile_kernel

    import tempfile

    shape = QUICK if args.quick else FULL
    path = KERNELS / ("quick" if args.quick else "") / "paged_attention.mlir"
    scratch = tempfile.TemporaryDirectory()
    if args.pages is not None:
        if args.pages < 1:
            parser.error("--pages takes a positive number of pages")
        shape = Shape(FULL.dim, args.pages)
        path = Path(scratch.name) / "paged_attention.mlir"
        path.write_text(kernel(shape))
    cycles, what = bound(path, shape)
    schedule = compile_kernel(str(path), device="spyre")
    predicted = schedule.predicted_cycles
    size = "quick" if args.quick else "full" if shape == FULL else f"{shape.pages} pages"
    print(f"paged attention {size}: {HEADS} heads x {shape.dim}, "
          f"{shape.pages * PAGE} tokens in {shape.pages} pages of {PAGE}")
    print(f"bound {cycles} cycles, set by {what}")
    print(f"solver's predicted cycles {predicted}: {predicted / cycles:.2f}x the bound")
    bound_cycles = cycles
    if args.emulate:
        import spyre_sched
        from spyre_sched.lower.bundle import write_bundle

        with tempfile.TemporaryDirectory() as tmp:
            out = write_bundle(schedule, Path(tmp) / "bundle")
            result = spyre_sched.run(str(out), max_seconds=None)
            print(f"emulated {result.cycles} cycles ({result.cycles / bound_cycles:.2f}x the bound), "
                  f"{'MATCH' if result.matches else 'MISMATCH'}; emulation "
                  f"{result.timings['emulate']['wall_s']:.0f} s")
    scratch.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
