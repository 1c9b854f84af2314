"""Scalar numerics shared by the KTIR reference interpreter and the device emulator.

Everything works on whole numpy arrays.  The rules both executors follow:

* **Types and representations** (`element_types`): every element type has a *value* dtype
  (what ops take and return: f16 -> float16, df16/bf16 -> float32 on the type's grid, ints ->
  signed numpy ints of the width, i1 -> bool, index -> int64), a *compute* dtype (float32 for
  16-bit floats, float64 for f32/f64) and a *storage* dtype (df16/bf16 -> uint16 codes).
  `to_memory`/`from_memory` convert between values and stored arrays.
* **One rounding per op**: an elementwise op computes in the compute dtype and rounds its
  result to the element type once.  So f16 is rounded to f16 after every operation:
  ``addf(a, b) == f16(f32(a) + f32(b))``; df16 likewise through the DLFloat16 encoder.
* **DLFloat16** (`dlfloat16`): 1-6-9, bias 31, no subnormals (flush to signed zero), one
  special code 0x7FFF/0xFFFF for NaN, infinities and overflow (decodes to NaN), rounding half
  away from zero.
* **Integers** wrap modulo 2**width (two's complement); undefined cases are pinned down in
  `arith_ops` (division by zero is an error).
* **Reductions** (`reductions.reduce`): a float sum or product is the exact result of the
  exact values, rounded once to the element type (order-independent); float64 accumulation
  is used where it is provably exact (always for up to 8192 f16 values), exact arithmetic
  elsewhere. An executor accumulating in hardware order is compared with it within the
  bounds of `error_bounds`: each reordered sum's bound, carried through the elementwise ops
  after it to every output (the formulas are in docs/numerics.md).
* The op table (`op_table.OPS`, entry point `apply_op`) holds arith, math and spyreop
  semantics under their IR names; formulas of the spyreop intrinsics are in `spyreop_ops`.
"""

from . import arith_ops, math_ops, spyreop_ops  # noqa: F401  (register the op table)
from .dlfloat16 import (
    DF16_MAX,
    DF16_MIN_POSITIVE,
    DF16_NEG_SPECIAL,
    DF16_POS_SPECIAL,
    df16_from_f32,
    df16_from_float,
    df16_round,
    df16_to_f32,
)
from .element_types import (
    ELEMENT_TYPES,
    ElementType,
    compute_dtype,
    constant,
    element_size,
    element_type,
    from_bits,
    from_memory,
    round_to,
    storage_dtype,
    to_bits,
    to_memory,
    value_dtype,
    wrap_int,
)
from .erf import erf, erfc
from .f16_products import exact_f16_product_sums
from .op_table import OPS, OpSpec, apply_op, op_spec
from .error_bounds import (
    accumulation_error,
    compare_with_bound,
    comparison_classes,
    elementwise_error_bound,
    hardware_sum_error_bound,
    matches_hardware_order_sum,
    reduction_error_bound,
    sum_error_bound,
)
from .reductions import (
    FLOAT_KINDS,
    INT_KINDS,
    REDUCTION_KIND_OF_OP,
    float64_sum_is_exact,
    reduce,
)
from .spyreop_ops import LAYERNORM_EPS, STICK_BYTES

__all__ = [
    "DF16_MAX", "DF16_MIN_POSITIVE", "DF16_NEG_SPECIAL", "DF16_POS_SPECIAL",
    "ELEMENT_TYPES", "ElementType", "FLOAT_KINDS", "INT_KINDS", "LAYERNORM_EPS", "OPS",
    "OpSpec", "REDUCTION_KIND_OF_OP", "STICK_BYTES",
    "apply_op", "compare_with_bound", "comparison_classes", "compute_dtype", "constant", "df16_from_f32", "df16_from_float", "df16_round",
    "df16_to_f32", "element_size", "element_type", "elementwise_error_bound", "erf", "erfc", "exact_f16_product_sums", "float64_sum_is_exact",
    "from_bits", "from_memory", "hardware_sum_error_bound",
    "matches_hardware_order_sum",
    "op_spec", "reduce", "reduction_error_bound", "round_to", "storage_dtype", "sum_error_bound", "to_bits", "to_memory", "value_dtype",
    "wrap_int",
]
