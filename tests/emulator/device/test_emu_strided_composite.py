"""A DMA transfer whose source or target is strided (a tile's rows apart in device
memory) and unmasked runs through `UnitRun.composite_fn`'s checked shortcut, not the
general `UnitRun.composite` (docs/emulator.md, "Sixth pass"). The in-place run, where
the shortcut runs, must give the plain run's outputs, cycles, per-program and per-unit
figures, bytes per datapath and trace bytes; and the shortcut must have run on a strided
source and a strided target."""

from __future__ import annotations

from pathlib import Path

import spyre_sched
from emulator.device import codegen, program
from spyre_sched.emulate import compile_bundle

from emu_figures import launch_figures

ROOT = Path(__file__).parents[3]


def test_strided_composites_in_place_give_the_plain_run(tmp_path, monkeypatch):
    bundle = tmp_path / "bundle"
    compile_bundle(ROOT / "examples" / "bias_add.mlir", bundle, "spyre", "latency",
                   "heuristic")
    plans, general = [], []
    make, composite = program.UnitRun.composite_fn, program.UnitRun.composite

    def recording_fn(self, plan):
        plans.append(plan)
        return make(self, plan)

    def counting(self, plan, src_base, dst_base):
        general.append(plan)
        return composite(self, plan, src_base, dst_base)

    monkeypatch.setattr(program.UnitRun, "composite_fn", recording_fn)
    monkeypatch.setattr(program.UnitRun, "composite", counting)
    figures = {}
    for in_place in (False, True):
        monkeypatch.setattr(codegen, "IN_PLACE", in_place)
        general.clear()
        trace = tmp_path / f"trace_{in_place}.json"
        result = spyre_sched.run(bundle, seed=7, trace=trace)
        assert result.matches, result.mismatches
        figures[in_place] = launch_figures(result, trace)
        assert bool(general) != in_place, "the general composite ran on the shortcut's path"
    for key in figures[False]:
        assert figures[True][key] == figures[False][key], f"{key} differs"
    assert any(not p.source_access.contiguous for p in plans), "no strided source"
    assert any(not p.target_access.contiguous for p in plans), "no strided target"
