#!/usr/bin/env python3
"""fetch-mathdx.py - put NVIDIA MathDx (cuFFTDx, cuBLASDx: device FFT and GEMM
headers) into a folder of the project, from the Python package index, without
pip and without touching any Python installation: the `nvidia-mathdx` wheel is
a zip of headers, so it is downloaded (version and SHA-256 pinned in
scripts/wheels.py), checked and unpacked.

    scripts/fetch-mathdx.py DEST      -> DEST/nvidia/mathdx/include/cufftdx.hpp ...

Exit 0 when DEST holds this version (already, or now); 1 with the reason.
Environment: GG_PYPI_SIMPLE (the index's simple API, default PyPI's);
GG_MATHDX_WHEEL (a copy of the wheel already on disk: used instead of the
download, checked against the same SHA-256)."""
import sys

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
import wheels

if __name__ == "__main__":
    wheels.main("mathdx")
