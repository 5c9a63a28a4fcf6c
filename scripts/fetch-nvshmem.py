#!/usr/bin/env python3
"""fetch-nvshmem.py - put NVIDIA NVSHMEM (device-initiated put/get/signal
between GPUs) into a folder of the project, from the Python package index,
without pip and without touching any Python installation: the
`nvidia-nvshmem-cu13` wheel is a zip, so it is downloaded (version and SHA-256
pinned in scripts/wheels.py, which also lists what the wheel holds and what
is kept), checked, and only the files libgg uses are unpacked.

    scripts/fetch-nvshmem.py DEST   -> DEST/nvidia/nvshmem/include/nvshmem.h ...

Exit 0 when DEST holds this version (already, or now); 1 with the reason.
Environment: GG_PYPI_SIMPLE (the index's simple API, default PyPI's);
GG_NVSHMEM_WHEEL (a copy of the wheel already on disk: used instead of the
download, checked against the same SHA-256)."""
import sys

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
import wheels

if __name__ == "__main__":
    wheels.main("nvshmem")
