"""Fingerprints of emulated runs, to show a change to the emulator's speed changed nothing else.

    python bench/emulator_fingerprints.py compile DIR      # write bundles to DIR (once)
    python bench/emulator_fingerprints.py run DIR OUT.json # fingerprint every bundle in DIR
    python bench/emulator_fingerprints.py compare A.json B.json

`compile` writes a bundle of every example kernel and of the benchmark suite's quick kernels
(both strategies; the examples also on sample_device, one core) plus bench/add_bundle.py's
bundle at three DMA-tile / chunk ratios. `run` runs each bundle both ways
(`emulator.device.codegen.IN_PLACE` on and off; off, no loop runs in bulk either, and a
traced run never does), with and without a trace, and records per
run: whether it matches the reference, a hash of the outputs' bytes, cycles, cycles per
program, a hash of every unit's figures (busy, stalls, instructions, finish time), a hash
of the bytes per datapath, and a hash of the trace file. Run it with one tree's code, then
with another's (`PYTHONPATH=...`), on the same bundles, and `compare`: any difference is
printed and the exit status is 1.

Used for the emulator speed work of 2026-12-01 (docs/emulator.md, "Speed"): the bundles of
this script gave the same fingerprints before and after. The baseline since the lowering
makes loop-invariant vector instructions once, before their loops (docs/dataflowir.md),
is bench/results/emulator-fingerprints-2026-12-03-hoisted.json, of bundles compiled into
/tmp/emufast/fp (trace hashes include the bundles' paths); the one before it, since
same-cycle requests for shared bandwidth are served in a fixed order (docs/emulator.md,
"Same-cycle arbitration"), is bench/results/emulator-fingerprints-2026-12-02-arbitration.json.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib.util
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def _figures(unit) -> dict:
    if dataclasses.is_dataclass(unit):
        return dataclasses.asdict(unit)
    return unit.as_dict() if hasattr(unit, "as_dict") else vars(unit)


def compile_all(out: Path) -> None:
    from spyre_sched.emulate import compile_bundle
    from spyre_sched.errors import SpyreSchedError

    out.mkdir(parents=True, exist_ok=True)
    sources = [(p, ("spyre", "sample_device")) for p in sorted((ROOT / "examples").glob("*.mlir"))]
    sources += [(p, ("spyre",)) for p in sorted((ROOT / "bench" / "kernels" / "quick").glob("*.mlir"))]
    for source, devices in sources:
        for strategy in ("solver", "heuristic"):
            for device in devices:
                src = source
                if device == "sample_device":  # one core: the kernel's first compute tile
                    src = out / f"{source.stem}_one_core.mlir"
                    src.write_text(source.read_text().replace("grid = [32]", "grid = [1]"))
                name = f"{source.parent.name}_{source.stem}_{strategy}_{device}"
                try:
                    compile_bundle(src, out / name, device, "latency", strategy)
                except SpyreSchedError as err:  # (a grid the one-core device cannot hold)
                    print("skipped", name, "-", err.message.splitlines()[0], flush=True)
                    continue
                print("wrote", name, flush=True)
    spec = importlib.util.spec_from_file_location("add_bundle", ROOT / "bench" / "add_bundle.py")
    add_bundle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(add_bundle)
    for tile_rows, chunk in ((2, 8), (4, 4), (8, 2)):
        add_bundle.write(out / f"add_bundle_{tile_rows}_{chunk}", 256, 1024, tile_rows=tile_rows,
                         chunk=chunk)


def fingerprint(bundle: Path, in_place: bool) -> dict:
    import spyre_sched
    from emulator.device import codegen

    codegen.IN_PLACE = in_place
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "trace.json"
        traced = spyre_sched.run(bundle, seed=7, trace=trace)
        plain = spyre_sched.run(bundle, seed=7)
        out = {"matches": traced.matches, "trace": hashlib.sha256(trace.read_bytes()).hexdigest()[:16]}
    for tag, r in (("", traced), ("untraced_", plain)):
        outputs = hashlib.sha256()
        for name, value in sorted(r.outputs.items()):
            outputs.update(name.encode())
            outputs.update(np.ascontiguousarray(value).view(np.uint8).tobytes())
        out.update({f"{tag}outputs": outputs.hexdigest()[:16], f"{tag}cycles": r.cycles,
                    f"{tag}per_program": r.per_program,
                    f"{tag}units": _digest({k: _figures(v) for k, v in r.units.items()}),
                    f"{tag}datapath_bytes": _digest(r.datapath_bytes)})
    return out


def run_all(bundles: Path, out: Path) -> None:
    result = {}
    for bundle in sorted(p for p in bundles.iterdir() if p.is_dir()):
        for in_place in (True, False):
            result[f"{bundle.name} in_place={in_place}"] = fingerprint(bundle, in_place)
        print(bundle.name, result[f"{bundle.name} in_place=True"]["cycles"], flush=True)
        out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")


def compare(a: Path, b: Path) -> int:
    left, right = json.loads(a.read_text()), json.loads(b.read_text())
    differences = 0
    for key in sorted(set(left) | set(right)):
        if left.get(key) != right.get(key):
            differences += 1
            print(f"{key}:\n  {left.get(key)}\n  {right.get(key)}")
    print(f"{len(set(left) & set(right))} runs in both, {differences} differ")
    return 1 if differences else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["compile", "run", "compare"])
    parser.add_argument("paths", nargs="+", type=Path)
    args = parser.parse_args()
    if args.command == "compile":
        compile_all(args.paths[0])
    elif args.command == "run":
        run_all(args.paths[0], args.paths[1])
    else:
        sys.exit(compare(args.paths[0], args.paths[1]))


if __name__ == "__main__":
    main()
