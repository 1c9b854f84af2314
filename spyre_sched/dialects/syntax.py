"""Pieces of custom op syntax that more than one dialect reads the same way.

Not a dialect: a helper module of the dialects room (xdsl only), so `ktdf` and `ktdf_arch`
read region bodies alike.
"""

from __future__ import annotations

from xdsl.ir import Block, Region
from xdsl.parser import Parser


def parse_body(parser: Parser, arguments=None) -> Region:
    """A `{ ... }` region; an empty `{}` still gets its one (empty) block."""
    region = parser.parse_region(arguments) if arguments is not None else parser.parse_region()
    if not region.blocks:
        region.add_block(Block())
    return region
