"""Element types: how values of each scalar type are held in compute, in memory, and rounded.

Three representations exist for every type:

* **value** (``value_dtype``): what ops take and return.  f16 -> float16, f32 -> float32,
  f64 -> float64, bf16 and df16 -> float32 holding only values exactly representable in the
  16-bit format, integers -> signed numpy ints of the width (signless MLIR integers are held in
  two's complement), i1 -> bool, index -> int64.
* **compute** (``compute_dtype``): the precision an elementwise op works in before rounding
  its result to the value representation once.  16-bit floats compute in float32, f32 and f64
  in float64 (so add/sub/mul/div/sqrt on f16 and f32 are correctly rounded: the intermediate
  has more than 2p+2 bits).
* **storage** (``storage_dtype``): what sits in device memory.  Identical to the value dtype
  except bf16 and df16, which are stored as uint16 codes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spyre_sched.errors import ExecutionError, UnsupportedError

from . import bfloat16, dlfloat16


@dataclass(frozen=True)
class ElementType:
    """One scalar element type and the numpy dtypes that represent it."""

    name: str
    kind: str  # "float" | "int"  (index is an int of width 64)
    width: int  # bits as stored (i1: 1, stored in one byte)
    value_dtype: np.dtype
    compute_dtype: np.dtype
    storage_dtype: np.dtype

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_int(self) -> bool:
        return self.kind == "int"

    @property
    def size(self) -> int:
        """Bytes per element in memory."""
        return self.storage_dtype.itemsize

    def __str__(self) -> str:
        return self.name


def _float(name: str, width: int, value: str, compute: str, storage: str) -> ElementType:
    return ElementType(name, "float", width, np.dtype(value), np.dtype(compute), np.dtype(storage))


def _int(name: str, width: int, dtype: str) -> ElementType:
    return ElementType(name, "int", width, np.dtype(dtype), np.dtype(dtype), np.dtype(dtype))


ELEMENT_TYPES: dict[str, ElementType] = {
    t.name: t
    for t in (
        _float("f16", 16, "float16", "float32", "float16"),
        _float("bf16", 16, "float32", "float32", "uint16"),
        _float("df16", 16, "float32", "float32", "uint16"),
        _float("f32", 32, "float32", "float64", "float32"),
        _float("f64", 64, "float64", "float64", "float64"),
        _int("i1", 1, "bool"),
        _int("i8", 8, "int8"),
        _int("i16", 16, "int16"),
        _int("i32", 32, "int32"),
        _int("i64", 64, "int64"),
        _int("index", 64, "int64"),
    )
}

# Spellings the IR printer may hand us for the same types.
_ALIASES = {"!spyreop.df16": "df16", "spyreop.df16": "df16", "!spyreop<df16>": "df16"}


def element_type(name: str | ElementType) -> ElementType:
    """Look up an element type by name ("f16", "df16", "!spyreop.df16", "index", ...)."""
    if isinstance(name, ElementType):
        return name
    key = _ALIASES.get(str(name).strip(), str(name).strip())
    try:
        return ELEMENT_TYPES[key]
    except KeyError:
        known = ", ".join(ELEMENT_TYPES)
        raise UnsupportedError(f"element type '{name}' is not supported (known: {known})") from None


def storage_dtype(name: str | ElementType) -> np.dtype:
    """numpy dtype of the type in device memory (df16/bf16: uint16 codes)."""
    return element_type(name).storage_dtype


def value_dtype(name: str | ElementType) -> np.dtype:
    """numpy dtype of the type's values in compute arrays (df16/bf16: float32)."""
    return element_type(name).value_dtype


def compute_dtype(name: str | ElementType) -> np.dtype:
    """numpy dtype an elementwise op on this type computes in before its one rounding."""
    return element_type(name).compute_dtype


def element_size(name: str | ElementType) -> int:
    """Bytes per element in memory (df16 = 2, i1 = 1, index = 8)."""
    return element_type(name).size


def wrap_int(name: str | ElementType, array) -> np.ndarray:
    """Reduce integers modulo 2**width into the type's two's-complement value dtype."""
    et = element_type(name)
    arr = np.asarray(array)
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int8)
    if arr.dtype.kind not in "iu":
        raise ExecutionError(f"expected integers for {et.name}, got {arr.dtype}")
    if et.width == 1:
        return (arr & 1).astype(bool)
    # numpy's unsafe integer cast keeps the low bits: exactly two's-complement wrap.
    return arr.astype(et.value_dtype, copy=False)


def round_to(name: str | ElementType, array) -> np.ndarray:
    """Round (floats) or wrap (integers) an array into the value representation of a type.

    f16: float16 round-to-nearest-even; bf16: round-to-nearest-even on the float32 bits;
    df16: through the DLFloat16 encoder (round half away from zero, flush, one special code
    that decodes to NaN); f32: float32 round-to-nearest-even.
    """
    et = element_type(name)
    arr = np.asarray(array)
    if et.is_int:
        if arr.dtype.kind == "f":
            raise ExecutionError(f"cannot round floats to integer type {et.name}; use a cast op")
        return wrap_int(et, arr)
    if et.name == "df16":
        return dlfloat16.df16_to_f32(dlfloat16.df16_from_float(arr))
    if et.name == "bf16":
        return bfloat16.bf16_to_f32(bfloat16.bf16_from_float(arr))
    if arr.dtype == et.value_dtype:
        return arr  # already of the type: nothing to round (the astype below is a no-op)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow to inf is the IEEE result
        return arr.astype(et.value_dtype, copy=False)


def to_memory(name: str | ElementType, values) -> np.ndarray:
    """Values (value representation) -> array of the storage dtype (df16/bf16: uint16 codes)."""
    et = element_type(name)
    if et.name == "df16":
        return dlfloat16.df16_from_float(np.asarray(values))
    if et.name == "bf16":
        return bfloat16.bf16_from_float(np.asarray(values))
    return round_to(et, values).astype(et.storage_dtype, copy=False)


def from_memory(name: str | ElementType, raw) -> np.ndarray:
    """Stored array -> values.  An array of another dtype with the same item size is
    reinterpreted bit for bit (so uint16 bits can be read as f16)."""
    et = element_type(name)
    arr = np.asarray(raw)
    if arr.dtype != et.storage_dtype:
        if arr.dtype.itemsize != et.storage_dtype.itemsize:
            raise ExecutionError(
                f"cannot read {et.name} from an array of {arr.dtype} "
                f"({arr.dtype.itemsize} bytes per element, need {et.size})"
            )
        arr = arr.view(et.storage_dtype)
    if et.name == "df16":
        return dlfloat16.df16_to_f32(arr)
    if et.name == "bf16":
        return bfloat16.bf16_to_f32(arr)
    return arr.astype(et.value_dtype, copy=False)


def bits_dtype(name: str | ElementType) -> np.dtype:
    """Unsigned integer dtype with the type's storage width (i1: uint8)."""
    return np.dtype(f"uint{8 * element_size(name)}")


def to_bits(name: str | ElementType, values) -> np.ndarray:
    """Values -> their raw bit patterns as unsigned integers of the storage width."""
    et = element_type(name)
    return np.asarray(to_memory(et, values)).view(bits_dtype(et))


def from_bits(name: str | ElementType, bits) -> np.ndarray:
    """Raw bit patterns (any integers; low bits used) -> values."""
    et = element_type(name)
    raw = np.asarray(bits).astype(bits_dtype(et))
    if et.width == 1:
        return (raw & 1).astype(bool)
    return from_memory(et, raw.view(et.storage_dtype))


def constant(name: str | ElementType, value, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """A typed constant array (`arith.constant`): floats rounded to the type, integers wrapped
    modulo 2**width (so `255 : i8` and `-1 : i8` are the same value), booleans for i1.
    With `shape`, a scalar value is broadcast (a splat); otherwise the value's own shape is used."""
    et = element_type(name)
    if et.is_int:
        if isinstance(value, (bool, np.bool_)) or isinstance(value, (int, np.integer)):
            # Python ints may exceed int64 (e.g. 2**64-1 : i64); wrap them exactly first.
            v = int(value) & ((1 << et.width) - 1)
            if et.width > 1 and v >= 1 << (et.width - 1):
                v -= 1 << et.width
            arr = np.asarray(v, dtype=np.int64)
        else:
            arr = np.asarray(value)
            if arr.dtype.kind == "f":
                if not np.all(np.isfinite(arr)) or np.any(arr != np.trunc(arr)):
                    raise ExecutionError(f"constant {value!r} is not an integer of type {et.name}")
                arr = arr.astype(np.int64)
        out = wrap_int(et, arr)
    else:
        arr = np.asarray(value)
        if arr.dtype.kind not in "fiub":
            raise ExecutionError(f"constant {value!r} is not a number of type {et.name}")
        out = round_to(et, arr.astype(np.float64))
    if shape is not None:
        out = np.broadcast_to(out, tuple(shape)).copy()
    return out
