"""spyre-sched: a compiler back end for Spyre-shaped dataflow accelerators."""
