"""`spyre-sched sweep`: many kernels on many devices, one job per kernel, device point,
strategy and objective (docs/benchmarks.md, "Design-space sweeps").

- `spec`: the sweep file (TOML)
- `device_points`: a device file with some figures changed
- `plan`: the device points and the jobs
- `job`: one job, measured by the bench's code, as one row
- `store`: the output folder (rows appended as jobs end; --resume)
- `summary`, `plot`: the table and the PNGs
- `run`: all of it, on the local process pool or Ray (`spyre_sched.parallel`)
"""
