"""f16 +, -, *, / may take numpy's float16 loops: bit for bit the table's rule (compute in
float32, round once to f16), NaN payloads included, on every class of value: zeros,
subnormals, normals, the largest finite values (overflow to inf), infinities and NaN."""

import numpy as np
import pytest

from emulator.numerics import apply_op

OPS = {"arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply,
       "arith.divf": np.divide}


def _values() -> np.ndarray:
    bits = np.arange(0, 2**16, dtype=np.uint32).astype(np.uint16)
    everything = bits.view(np.float16)
    rng = np.random.default_rng(0)
    return everything, rng


@pytest.mark.parametrize("name", sorted(OPS))
def test_f16_native_loops_match_float32_then_round(name):
    everything, rng = _values()
    a = rng.choice(everything, 400_000)
    b = rng.choice(everything, 400_000)
    nan = everything[np.isnan(everything)]
    a = np.concatenate([a, rng.choice(nan, 50_000)])
    b = np.concatenate([b, rng.choice(nan, 50_000)])
    # Every f16 value against a few awkward partners, and random pairs.
    special = np.array([0.0, -0.0, 1.0, -1.0, 6e-8, 65504.0, np.inf, np.nan, 3.0], np.float16)
    a = np.concatenate([a, np.repeat(everything, len(special))])
    b = np.concatenate([b, np.tile(special, len(everything))])
    got = apply_op(name, "f16", a, b)
    with np.errstate(all="ignore"):
        want = OPS[name](a.astype(np.float32), b.astype(np.float32)).astype(np.float16)
    assert got.dtype == np.float16
    assert np.array_equal(got.view(np.uint16), want.view(np.uint16))
