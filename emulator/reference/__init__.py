"""The KTIR reference interpreter: runs a kernel directly with numpy over a simulated device
(flat global memory plus one scratchpad per compute tile), every tile of the grid as a
cooperating coroutine. Its outputs are what any correct schedule must reproduce.

It depends only on the front end, dialects and polyhedral layer of spyre_sched and on
`emulator.numerics`; never on the scheduler.
"""

from emulator.reference.run import (
    as_kernel,
    constant_address_end,
    loaded_address_ranges,
    make_inputs,
    run,
    run_with_error_bounds,
    stored_address_ranges,
)

__all__ = ["as_kernel", "constant_address_end", "loaded_address_ranges", "make_inputs", "run", "run_with_error_bounds", "stored_address_ranges"]
