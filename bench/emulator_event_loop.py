"""Event-loop choice for the device emulator: SimPy against our hand-written heap.

Both run the same synthetic workload shaped like the 4096x4096 f16 add over 32 tiles on
devices/spyre.mlir, with every unit, FIFO and transfer timed: per core a DMA load unit
brings 2-row tiles of A and B into double-buffered scratchpad, each corelet's scratchpad
load unit streams its row to the vector unit through the 16-deep FIFO a chunk of 16
sticks at a time, the vector unit adds (emulator.numerics) and streams to the store unit,
which writes the scratchpad; the DMA store unit writes tiles back. Tokens hand buffers
back and forth. The numpy work is the same in both; only the event machinery differs.

    python bench/emulator_event_loop.py [--rows 4096] [--cols 4096]

Prints elements per second for each and checks both give the right sum and the same
cycle count.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from emulator.device import sim  # noqa: E402
from emulator.device.machine import EmulatedDevice  # noqa: E402
from emulator.numerics import apply_op  # noqa: E402
from spyre_sched.device import load_device  # noqa: E402

CORES = 32
CORELETS = 2
TILE_ROWS = 2
CHUNK = 16  # sticks per FIFO message (the FIFO depth)
STICK = 64  # f16 per 128-byte stick


def layout(rows: int, cols: int):
    row_bytes = cols * 2
    base = {"A": 0, "B": rows * row_bytes, "C": 2 * rows * row_bytes}
    tile_bytes = TILE_ROWS * row_bytes
    lx = {"A": [0, tile_bytes], "B": [2 * tile_bytes, 3 * tile_bytes],
          "C": [4 * tile_bytes, 5 * tile_bytes]}
    return row_bytes, base, tile_bytes, lx


# ---- hand-written heap (emulator.device.sim) ------------------------------------------------


def run_heap(rows: int, cols: int, a: np.ndarray, b: np.ndarray):
    device = load_device("spyre")
    emu = EmulatedDevice(device)
    launch = emu.new_launch()
    ddr = emu.memory("ddr")
    row_bytes, base, tile_bytes, lx_off = layout(rows, cols)
    ddr.write_bytes(base["A"], a)
    ddr.write_bytes(base["B"], b)
    rows_per_core = rows // CORES
    tiles = rows_per_core // TILE_ROWS
    chunks = cols // STICK // CHUNK

    for c in range(CORES):
        core = f"core{c}"
        lx = emu.memory(f"{core}.lx")
        ld_path = emu.path(f"{core}.dma_load", "ddr", f"{core}.lx")
        st_path = emu.path(f"{core}.dma_store", f"{core}.lx", "ddr")
        ld_res, st_res = launch.resources(ld_path), launch.resources(st_path)
        row0 = c * rows_per_core

        def dma_load(core=core, lx=lx, row0=row0, path=ld_path, res=ld_res):
            unit = f"{core}.dma_load"
            full = [launch.token(f"{core}.full{k}", unit, f"{core}.corelet{k}.lx_load") for k in range(CORELETS)]
            free = [launch.token(f"{core}.free{k}", f"{core}.corelet{k}.lx_load", unit) for k in range(CORELETS)]
            for t in range(tiles):
                buf = t % 2
                if t >= 2:
                    for tok in free:
                        yield sim.sync_recv(tok)
                for name in ("A", "B"):
                    src = base[name] + (row0 + t * TILE_ROWS) * row_bytes
                    dst = lx_off[name][buf]
                    occ, lat = path.timing(tile_bytes)
                    def land(src=src, dst=dst):
                        lx.write_bytes(dst, ddr.read_bytes(src, tile_bytes))
                    yield sim.transfer(occ, lat, res, tile_bytes, land, path.datapaths)
                for tok in full:
                    yield sim.sync_send(tok)

        def dma_store(core=core, lx=lx, row0=row0, path=st_path, res=st_res):
            unit = f"{core}.dma_store"
            full = [launch.token(f"{core}.ofull{k}", f"{core}.corelet{k}.lx_store", unit) for k in range(CORELETS)]
            free = [launch.token(f"{core}.ofree{k}", unit, f"{core}.corelet{k}.lx_store") for k in range(CORELETS)]
            for t in range(tiles):
                buf = t % 2
                for tok in full:
                    yield sim.sync_recv(tok)
                dst = base["C"] + (row0 + t * TILE_ROWS) * row_bytes
                data = lx.read_bytes(lx_off["C"][buf], tile_bytes)
                occ, lat = path.timing(tile_bytes)
                yield sim.transfer(occ, lat, res, tile_bytes,
                                   lambda dst=dst, data=data: ddr.write_bytes(dst, data), path.datapaths)
                for tok in free:
                    yield sim.sync_send(tok)

        launch.sim.spawn(f"{core}.dma_load", dma_load())
        launch.sim.spawn(f"{core}.dma_store", dma_store())
        for k in range(CORELETS):
            cl = f"{core}.corelet{k}"
            to_sfu = launch.fifo(f"{cl}.lx_load", f"{cl}.sfu")
            to_st = launch.fifo(f"{cl}.sfu", f"{cl}.lx_store")
            lpath = emu.path(f"{cl}.lx_load", f"{core}.lx", f"{cl}.sfu")
            spath = emu.path(f"{cl}.lx_store", f"{cl}.lx_store", f"{core}.lx")
            lanes = device.units[f"{cl}.sfu"].lanes("f16")
            sfu_latency = int(device.units[f"{cl}.sfu"].compute.get("latency", 0))

            def lx_load(core=core, cl=cl, k=k, lx=lx, fifo=to_sfu, path=lpath):
                unit = f"{cl}.lx_load"
                full = launch.token(f"{core}.full{k}", f"{core}.dma_load", unit)
                free = launch.token(f"{core}.free{k}", unit, f"{core}.dma_load")
                occ, lat = path.timing(CHUNK * 128)
                for t in range(tiles):
                    buf = t % 2
                    yield sim.sync_recv(full)
                    for ch in range(chunks):
                        for name in ("A", "B"):
                            addr = lx_off[name][buf] + k * row_bytes + ch * CHUNK * 128
                            data = lx.read(addr, (CHUNK, STICK), (128, 2), np.float16)
                            yield sim.delay(occ)
                            yield sim.send(fifo, data, CHUNK, lat)
                    yield sim.sync_send(free)

            def sfu(fin=to_sfu, fout=to_st, lanes=lanes, latency=sfu_latency):
                cycles = CHUNK * STICK // lanes
                for _ in range(tiles * chunks):
                    x = yield sim.recv(fin, CHUNK)
                    y = yield sim.recv(fin, CHUNK)
                    z = apply_op("arith.addf", "f16", x, y)
                    yield sim.delay(cycles)
                    yield sim.send(fout, z, CHUNK, latency)

            def lx_store(core=core, cl=cl, k=k, lx=lx, fifo=to_st, path=spath):
                unit = f"{cl}.lx_store"
                full = launch.token(f"{core}.ofull{k}", unit, f"{core}.dma_store")
                free = launch.token(f"{core}.ofree{k}", f"{core}.dma_store", unit)
                occ, lat = path.timing(CHUNK * 128)
                for t in range(tiles):
                    buf = t % 2
                    if t >= 2:
                        yield sim.sync_recv(free)
                    for ch in range(chunks):
                        z = yield sim.recv(fifo, CHUNK)
                        addr = lx_off["C"][buf] + k * row_bytes + ch * CHUNK * 128
                        yield sim.transfer(occ, lat, (), CHUNK * 128,
                                           lambda addr=addr, z=z: lx.write(addr, z.shape, (128, 2), z))
                    yield sim.sync_send(full)

            launch.sim.spawn(f"{cl}.lx_load", lx_load())
            launch.sim.spawn(f"{cl}.sfu", sfu())
            launch.sim.spawn(f"{cl}.lx_store", lx_store())
    cycles = launch.sim.run()
    out = ddr.read(base["C"], (rows, cols), (row_bytes, 2), np.float16)
    return cycles, out


# ---- SimPy --------------------------------------------------------------------------------


def run_simpy(rows: int, cols: int, a: np.ndarray, b: np.ndarray):
    import simpy

    device = load_device("spyre")
    emu = EmulatedDevice(device)
    ddr = emu.memory("ddr")
    row_bytes, base, tile_bytes, lx_off = layout(rows, cols)
    ddr.write_bytes(base["A"], a)
    ddr.write_bytes(base["B"], b)
    rows_per_core = rows // CORES
    tiles = rows_per_core // TILE_ROWS
    chunks = cols // STICK // CHUNK
    env = simpy.Environment()
    ddr_free = [0]
    ddr_bw = device.memories["ddr"].bandwidth
    tokens: dict[str, simpy.Store] = {}

    def token(name):
        if name not in tokens:
            tokens[name] = simpy.Container(env, init=0)
        return tokens[name]

    def transfer(occ, lat, nbytes, land, shared):
        start = env.now
        if shared:
            start = max(start, ddr_free[0])
            hold = -(-nbytes // ddr_bw)
            ddr_free[0] = start + hold
            occ = max(occ, hold)
        end = start + occ
        ev = env.timeout(end + lat - env.now)
        ev.callbacks.append(lambda _e: land())
        return env.timeout(end - env.now), end + lat

    for c in range(CORES):
        core = f"core{c}"
        lx = emu.memory(f"{core}.lx")
        ld_path = emu.path(f"{core}.dma_load", "ddr", f"{core}.lx")
        st_path = emu.path(f"{core}.dma_store", f"{core}.lx", "ddr")
        row0 = c * rows_per_core

        def dma_load(core=core, lx=lx, row0=row0, path=ld_path):
            landed = 0
            for t in range(tiles):
                buf = t % 2
                if t >= 2:
                    for k in range(CORELETS):
                        yield token(f"{core}.free{k}").get(1)
                for name in ("A", "B"):
                    src = base[name] + (row0 + t * TILE_ROWS) * row_bytes
                    dst = lx_off[name][buf]
                    occ, lat = path.timing(tile_bytes)
                    ev, landed = transfer(occ, lat, tile_bytes,
                                          lambda src=src, dst=dst: lx.write_bytes(dst, ddr.read_bytes(src, tile_bytes)), True)
                    yield ev
                for k in range(CORELETS):
                    tok = token(f"{core}.full{k}")
                    ev = env.timeout(max(0, landed - env.now))
                    ev.callbacks.append(lambda _e, tok=tok: tok.put(1))

        def dma_store(core=core, lx=lx, row0=row0, path=st_path):
            for t in range(tiles):
                buf = t % 2
                for k in range(CORELETS):
                    yield token(f"{core}.ofull{k}").get(1)
                dst = base["C"] + (row0 + t * TILE_ROWS) * row_bytes
                data = lx.read_bytes(lx_off["C"][buf], tile_bytes)
                occ, lat = path.timing(tile_bytes)
                ev, landed = transfer(occ, lat, tile_bytes, lambda dst=dst, data=data: ddr.write_bytes(dst, data), True)
                yield ev
                for k in range(CORELETS):
                    token(f"{core}.ofree{k}").put(1)

        env.process(dma_load())
        env.process(dma_store())
        for k in range(CORELETS):
            cl = f"{core}.corelet{k}"
            to_sfu = simpy.Store(env, capacity=1)  # one chunk of CHUNK entries = depth 16
            to_st = simpy.Store(env, capacity=1)
            lpath = emu.path(f"{cl}.lx_load", f"{core}.lx", f"{cl}.sfu")
            spath = emu.path(f"{cl}.lx_store", f"{cl}.lx_store", f"{core}.lx")
            lanes = device.units[f"{cl}.sfu"].lanes("f16")
            sfu_latency = int(device.units[f"{cl}.sfu"].compute.get("latency", 0))

            def lx_load(core=core, k=k, lx=lx, fifo=to_sfu, path=lpath):
                occ, lat = path.timing(CHUNK * 128)
                for t in range(tiles):
                    buf = t % 2
                    yield token(f"{core}.full{k}").get(1)
                    for ch in range(chunks):
                        for name in ("A", "B"):
                            addr = lx_off[name][buf] + k * row_bytes + ch * CHUNK * 128
                            data = lx.read(addr, (CHUNK, STICK), (128, 2), np.float16)
                            yield env.timeout(occ)
                            yield env.timeout(lat)
                            yield fifo.put(data)
                    token(f"{core}.free{k}").put(1)

            def sfu(fin=to_sfu, fout=to_st, lanes=lanes, latency=sfu_latency):
                cycles = CHUNK * STICK // lanes
                for _ in range(tiles * chunks):
                    x = yield fin.get()
                    y = yield fin.get()
                    z = apply_op("arith.addf", "f16", x, y)
                    yield env.timeout(cycles)
                    yield env.timeout(latency)
                    yield fout.put(z)

            def lx_store(core=core, k=k, lx=lx, fifo=to_st, path=spath):
                occ, lat = path.timing(CHUNK * 128)
                for t in range(tiles):
                    buf = t % 2
                    if t >= 2:
                        yield token(f"{core}.ofree{k}").get(1)
                    landed = 0
                    for ch in range(chunks):
                        z = yield fifo.get()
                        addr = lx_off["C"][buf] + k * row_bytes + ch * CHUNK * 128
                        ev, landed = transfer(occ, lat, CHUNK * 128,
                                              lambda addr=addr, z=z: lx.write(addr, z.shape, (128, 2), z), False)
                        yield ev
                    tok = token(f"{core}.ofull{k}")
                    ev = env.timeout(max(0, landed - env.now))
                    ev.callbacks.append(lambda _e, tok=tok: tok.put(1))

            env.process(lx_load())
            env.process(sfu())
            env.process(lx_store())
    env.run()
    out = ddr.read(base["C"], (rows, cols), (row_bytes, 2), np.float16)
    return env.now, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--skip-simpy", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    a = rng.standard_normal((args.rows, args.cols)).astype(np.float16)
    b = rng.standard_normal((args.rows, args.cols)).astype(np.float16)
    want = (a.astype(np.float32) + b.astype(np.float32)).astype(np.float16)
    n = args.rows * args.cols
    load_device("spyre")  # parsed once, as prepare() does; launches are what we time
    runners = [("heap", run_heap)] + ([] if args.skip_simpy else [("simpy", run_simpy)])
    for name, fn in runners * args.repeat:
        t0, c0 = time.perf_counter(), time.process_time()
        cycles, out = fn(args.rows, args.cols, a, b)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        ok = np.array_equal(out.view(np.uint16), want.view(np.uint16))
        print(f"{name:6s} {dt:7.3f} s wall {cpu:7.3f} s CPU  {n / cpu / 1e6:7.2f} M elements/s (CPU)  "
              f"{cycles} cycles  {'correct' if ok else 'WRONG'}")


if __name__ == "__main__":
    main()
