#!/usr/bin/env python3
"""fetch-mathdx.py - put NVIDIA MathDx (cuFFTDx, cuBLASDx: device FFT and GEMM
headers) into a folder of the project, from the Python package index, without
pip and without touching any Python installation: the `nvidia-mathdx` wheel is
a zip of headers, so it is downloaded (version and SHA-256 pinned here),
checked and unpacked.

    scripts/fetch-mathdx.py DEST      -> DEST/nvidia/mathdx/include/cufftdx.hpp ...

Exit 0 when DEST holds this version (already, or now); 1 with the reason.
Environment: GG_PYPI_SIMPLE (the index's simple API, default PyPI's)."""
import hashlib, io, os, re, sys, urllib.parse, urllib.request, zipfile

VERSION = "25.6.0"
WHEEL = f"nvidia_mathdx-{VERSION}-py3-none-any.whl"
SHA256 = "22e6ad5d0d005f836be5cbd14e836cf2e9ea42c82deb602707246ce8198eaa96"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fetch-mathdx.py DEST")
    dest = sys.argv[1]
    stamp = os.path.join(dest, ".version")
    if os.path.exists(stamp) and open(stamp).read().strip() == VERSION:
        print(f"MathDx {VERSION} already in {dest}")
        return
    index = os.environ.get("GG_PYPI_SIMPLE", "https://pypi.org/simple/")
    page = urllib.parse.urljoin(index, "nvidia-mathdx/")
    try:
        html = urllib.request.urlopen(page, timeout=60).read().decode()
        href = next(h for h in re.findall(r'href="([^"]+)"', html) if WHEEL in h)
        data = urllib.request.urlopen(urllib.parse.urljoin(page, href.split("#")[0]), timeout=300).read()
    except StopIteration:
        sys.exit(f"{page} lists no {WHEEL}")
    except OSError as e:
        sys.exit(f"cannot download {WHEEL} from {page}: {e}")
    if hashlib.sha256(data).hexdigest() != SHA256:
        sys.exit(f"{WHEEL}: SHA-256 mismatch (expected {SHA256}); not unpacked")
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():  # headers only, and never outside dest
            if not name.startswith("nvidia/mathdx/") or ".." in name.split("/"):
                continue
            z.extract(name, dest)
    with open(stamp, "w") as f:
        f.write(VERSION + "\n")
    print(f"MathDx {VERSION} unpacked into {dest}")


if __name__ == "__main__":
    main()
