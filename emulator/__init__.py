"""Executors: the KTIR reference interpreter (the oracle) and, later, the DataflowIR device emulator."""
