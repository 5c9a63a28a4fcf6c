#!/usr/bin/env python3
"""fetch-nvshmem.py - put NVIDIA NVSHMEM (device-initiated put/get/signal
between GPUs) into a folder of the project, from the Python package index,
without pip and without touching any Python installation: the
`nvidia-nvshmem-cu13` wheel is a zip, so it is downloaded (version and SHA-256
pinned here), checked, and only the files libgg uses are unpacked.

    scripts/fetch-nvshmem.py DEST   -> DEST/nvidia/nvshmem/include/nvshmem.h ...

Exit 0 when DEST holds this version (already, or now); 1 with the reason.
Environment: GG_PYPI_SIMPLE (the index's simple API, default PyPI's);
GG_NVSHMEM_WHEEL (a copy of the wheel already on disk: used instead of the
download, checked against the same SHA-256).

What the 3.8.0 x86-64 wheel holds (182 MB zipped) and what is kept (~58 MB):
  nvidia/nvshmem/include/          2 MB  device and host headers      kept
  lib/libnvshmem_host.so.3        49 MB  the host library (dlopened)  kept
  lib/libnvshmem_device.a          7 MB  relocatable device code,     kept
                                         linked by nvJitLink
  lib/libnvshmem_device_sm_*.bc   32-54 MB each: LLVM bitcode for     not kept
                                         clang; nvJitLink 13.0 refuses
                                         it as LTO-IR and as "any"
  lib/nvshmem_bootstrap_uid.so.3  87 KB  unique-id bootstrap plugin   kept
  lib/nvshmem_bootstrap_mpi.so.3  23 KB  MPI bootstrap plugin         kept
  lib/nvshmem_bootstrap_pmi*.so.3, _shmem.so.3: launcher bootstraps  not kept
  lib/nvshmem_transport_*.so.7    0.1-1.5 MB each: InfiniBand, UCX,   not kept
                                         libfabric (between nodes)
  nvidia/nvshmem/share/skills      0.3 MB  text for assistants        not kept
  *.dist-info/licenses/License.txt        the licence            kept as DEST/License.txt
The host library finds its bootstrap plugins beside itself (RPATH $ORIGIN).
Within one node NVSHMEM needs no transport plugin (NVLink / PCIe peer
access is built into the host library); between nodes, add the transport
files to KEEP (docs/multi-gpu.md)."""
import hashlib, os, re, shutil, sys, tempfile, urllib.parse, urllib.request, zipfile

VERSION = "3.8.0"
WHEEL = f"nvidia_nvshmem_cu13-{VERSION}-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
SHA256 = "81a4d1f666543e6d34df6d2ff940c7da1435e34e186aab6f3c2b48861b64ef38"
PREFIX = "nvidia/nvshmem/"
KEEP_LIBS = ("libnvshmem_host.so.3", "libnvshmem_device.a", "nvshmem_bootstrap_uid.so.3",
             "nvshmem_bootstrap_mpi.so.3")
LICENSE = f"nvidia_nvshmem_cu13-{VERSION}.dist-info/licenses/License.txt"


def kept(name):
    """The folder-relative path a wheel member is unpacked to, or None."""
    if ".." in name.split("/"):
        return None
    if name.startswith(PREFIX + "include/") and not name.endswith("/"):
        return name
    if name.startswith(PREFIX + "lib/") and name[len(PREFIX + "lib/"):] in KEEP_LIBS:
        return name
    if name == LICENSE:
        return "License.txt"
    return None


def download(dest_file):
    """The wheel into dest_file, hashed on the way; returns its SHA-256."""
    local = os.environ.get("GG_NVSHMEM_WHEEL")
    h = hashlib.sha256()
    if local:
        src = open(local, "rb")
    else:
        index = os.environ.get("GG_PYPI_SIMPLE", "https://pypi.org/simple/")
        page = urllib.parse.urljoin(index, "nvidia-nvshmem-cu13/")
        html = urllib.request.urlopen(page, timeout=60).read().decode()
        href = next((h for h in re.findall(r'href="([^"]+)"', html) if WHEEL in h), None)
        if not href:
            sys.exit(f"{page} lists no {WHEEL}")
        src = urllib.request.urlopen(urllib.parse.urljoin(page, href.split("#")[0]), timeout=300)
    with src, open(dest_file, "wb") as out:
        while chunk := src.read(1 << 20):
            h.update(chunk)
            out.write(chunk)
    return h.hexdigest()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fetch-nvshmem.py DEST")
    dest = sys.argv[1]
    stamp = os.path.join(dest, ".version")
    if os.path.exists(stamp) and open(stamp).read().strip() == VERSION:
        print(f"NVSHMEM {VERSION} already in {dest}")
        return
    if os.path.exists(dest) and os.listdir(dest) and not os.path.exists(stamp):
        sys.exit(f"{dest} exists and was not made by this script (no .version): not replaced")
    os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
    # unpacked beside dest and renamed into place: an interrupted run leaves
    # no half folder that looks installed
    work = tempfile.mkdtemp(prefix=".nvshmem-", dir=os.path.dirname(os.path.abspath(dest)))
    try:
        wheel = os.path.join(work, WHEEL)
        try:
            digest = download(wheel)
        except OSError as e:
            sys.exit(f"cannot get {WHEEL}: {e}")
        if digest != SHA256:
            sys.exit(f"{WHEEL}: SHA-256 mismatch (expected {SHA256}, got {digest}); not unpacked")
        tree = os.path.join(work, "tree")
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                to = kept(name)
                if not to:
                    continue
                path = os.path.join(tree, to)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with z.open(name) as src, open(path, "wb") as out:
                    shutil.copyfileobj(src, out)
        missing = [f for f in KEEP_LIBS if not os.path.exists(os.path.join(tree, PREFIX, "lib", f))]
        if missing or not os.path.exists(os.path.join(tree, PREFIX, "include/nvshmem.h")):
            sys.exit(f"{WHEEL} lacks {', '.join(missing) or 'include/nvshmem.h'}; not installed")
        with open(os.path.join(tree, ".version"), "w") as f:
            f.write(VERSION + "\n")
        if os.path.exists(dest):
            shutil.rmtree(dest)
        os.rename(tree, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"NVSHMEM {VERSION} unpacked into {dest}")


if __name__ == "__main__":
    main()
