from pathlib import Path

import pytest

from spyre_sched.frontend import parse_kernel

KERNELS = Path(__file__).parent / "kernels"
EXAMPLES = Path(__file__).parents[2] / "examples"


def load(name: str):
    path = EXAMPLES / name if (EXAMPLES / name).exists() else KERNELS / name
    return parse_kernel(path.read_text(), str(path))


@pytest.fixture
def kernel():
    return load
