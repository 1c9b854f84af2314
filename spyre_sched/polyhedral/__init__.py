"""The polyhedral layer: KTIR memory views and access tiles as islpy sets, and the
questions the verifier, scheduler, solver and interpreter ask of them.

islpy stays inside this package: callers get plain Python / numpy answers.

- `point_sets`: numpy enumeration of affine sets (interpreter / emulator fast path)
- `affine_values`: index values as affine forms over the kernel's variables
- `views`, `accesses`, `kernel_model`: the models
- `footprint`, `placement`, `out_of_bounds`, `races` (write and read/write), `dependences`, `invariance`: the questions
- `checks`: diagnostics for `spyre-sched check`
"""

from spyre_sched.polyhedral.affine_values import AffineForm, AffineValues, Variable, VariableKind
from spyre_sched.polyhedral.out_of_bounds import OutOfBounds, find_out_of_bounds
from spyre_sched.polyhedral.checks import Diagnostic, check_kernel
from spyre_sched.polyhedral.dependences import Dependence, find_dependences
from spyre_sched.polyhedral.point_sets import (
    bounding_box,
    contains,
    enumerate_points,
    eval_affine_exprs,
    tile_extents,
    tile_positions,
)
from spyre_sched.polyhedral.footprint import Footprint, access_points, footprint
from spyre_sched.polyhedral.invariance import hoistable_loops, is_invariant, loop_dependences
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.placement import (
    Piece,
    all_tile_pieces,
    memories_touched,
    pieces,
    tile_pieces,
)
from spyre_sched.polyhedral.races import (
    Coverage,
    ReadWriteRace,
    WriteRace,
    find_read_write_races,
    find_write_races,
    store_coverage,
)
from spyre_sched.polyhedral.views import DistributedViewModel, MemoryRef, ViewModel

__all__ = [
    "AffineForm", "AffineValues", "Variable", "VariableKind", "OutOfBounds",
    "find_out_of_bounds", "Diagnostic", "check_kernel", "Dependence", "find_dependences",
    "bounding_box", "contains", "enumerate_points", "eval_affine_exprs", "tile_extents",
    "tile_positions", "Footprint", "access_points", "footprint", "hoistable_loops",
    "is_invariant", "loop_dependences", "KernelModel", "Piece", "all_tile_pieces",
    "memories_touched", "pieces", "tile_pieces", "Coverage", "WriteRace",
    "find_write_races", "store_coverage", "ReadWriteRace", "find_read_write_races", "DistributedViewModel", "MemoryRef", "ViewModel",
]
