"""The normal form: KTIR as people write it, brought to the one spelling the scheduler
reads, by passes run after the legality check and before program splitting.

After these passes a kernel's compute is `linalg.generic` only (plus `linalg.fill` as a
reduction's initial value), constants of tensor type are fills, a fill read as an input
is the scalar inside the body that reads it, and a user-written `scf.for` that tiles a
load -> compute -> store chain across loop-carried tensors or tensors loaded outside the
loop is one chain over the whole extent the loop walks. docs/scheduleir.md, "The normal
form", lists what each pass accepts and produces.
"""
