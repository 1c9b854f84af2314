"""Fuzzing through the whole pipeline (`spyre-sched fuzz`, docs/fuzzing.md).

- `choices`: the choice tape every random decision is drawn from (and replayed from);
- `generator`: random valid KTIR kernels from a tape;
- `runner`: one kernel checked, compiled in every configuration, emulated, compared with
  the reference and the roofline bound; outcomes classified;
- `shrinker`: delta-debugging of a failing kernel's tape;
- `campaign`: many kernels (in parallel through `spyre_sched.parallel`), counts, shrunk
  failures written out;
- `commands`: a `spyre-sched` command run in this process under a time limit;
- `mutations`, `mutants`: text mutations, and mutation fuzzing of kernels, device files
  and bundles through the command line.

It sits above the compiler and the emulator (like `spyre_sched.bench`): it drives both
through their public entry points and imports nothing private from either.
"""
