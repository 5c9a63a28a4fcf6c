"""wheels.py - the vendor wheels gpugen unpacks into .deps/NAME, one row
each, and the one way they are fetched: from the Python package index,
without pip and without touching any Python installation (a wheel is a zip),
downloaded with its version and SHA-256 pinned below, checked, and only the
kept files unpacked.  Used by scripts/fetch-mathdx.py and
scripts/fetch-nvshmem.py:

    wheels.main("nvshmem")   # argv: DEST

Exit 0 when DEST holds the pinned version (already, or now); 1 with the
reason.  The folder is unpacked beside DEST and renamed into place, so an
interrupted run leaves no half folder that looks installed; a folder without
the .version stamp this writes is never replaced.
Environment: GG_PYPI_SIMPLE (the index's simple API, default PyPI's);
GG_<NAME>_WHEEL, e.g. GG_NVSHMEM_WHEEL (a copy of the wheel already on disk:
used instead of the download, checked against the same SHA-256)."""
import collections, hashlib, os, re, shutil, sys, tempfile, urllib.parse, urllib.request, zipfile

# what:    the name messages use
# project: the index's project, whose page lists the wheel
# root:    the wheel's folder that keep and probe are relative to
# keep:    what is unpacked: "x/" a folder and all beneath it ("" the whole
#          root), else one file, which must be there
# probe:   a file that must be there (scripts/deps.sh looks for the same)
# license: the wheel's licence file, unpacked as DEST/License.txt, or None
Pin = collections.namedtuple("Pin", "what project version wheel sha256 root keep probe license")

PINS = {
    # nvidia-mathdx: cuFFTDx, cuBLASDx device FFT and GEMM headers, all kept.
    "mathdx": Pin("MathDx", "nvidia-mathdx", "25.6.0", "nvidia_mathdx-25.6.0-py3-none-any.whl",
                  "22e6ad5d0d005f836be5cbd14e836cf2e9ea42c82deb602707246ce8198eaa96",
                  "nvidia/mathdx/", ("",), "include/cufftdx.hpp", None),
    # nvidia-nvshmem-cu13: what the 3.8.0 x86-64 wheel holds (182 MB zipped)
    # and what is kept (~58 MB):
    #   include/                      2 MB  device and host headers      kept
    #   lib/libnvshmem_host.so.3     49 MB  the host library (dlopened)  kept
    #   lib/libnvshmem_device.a       7 MB  relocatable device code,     kept
    #                                       linked by nvJitLink
    #   lib/libnvshmem_device_sm_*.bc  32-54 MB each: LLVM bitcode for   not kept
    #                                       clang; nvJitLink 13.0 refuses
    #                                       it as LTO-IR and as "any"
    #   lib/nvshmem_bootstrap_uid.so.3  87 KB  unique-id bootstrap       kept
    #   lib/nvshmem_bootstrap_mpi.so.3  23 KB  MPI bootstrap             kept
    #   lib/nvshmem_bootstrap_pmi*.so.3, _shmem.so.3: launcher bootstraps not kept
    #   lib/nvshmem_transport_*.so.7  0.1-1.5 MB each: InfiniBand, UCX,  not kept
    #                                       libfabric (between nodes)
    #   share/skills                0.3 MB  text for assistants          not kept
    #   *.dist-info/licenses/License.txt    the licence    kept as DEST/License.txt
    # The host library finds its bootstrap plugins beside itself (RPATH
    # $ORIGIN).  Within one node NVSHMEM needs no transport plugin (NVLink /
    # PCIe peer access is built into the host library); between nodes, add
    # the transport files to keep (docs/multi-gpu.md).
    "nvshmem": Pin("NVSHMEM", "nvidia-nvshmem-cu13", "3.8.0",
                   "nvidia_nvshmem_cu13-3.8.0-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                   "81a4d1f666543e6d34df6d2ff940c7da1435e34e186aab6f3c2b48861b64ef38",
                   "nvidia/nvshmem/", ("include/", "lib/libnvshmem_host.so.3", "lib/libnvshmem_device.a",
                                       "lib/nvshmem_bootstrap_uid.so.3", "lib/nvshmem_bootstrap_mpi.so.3"),
                   "include/nvshmem.h", "nvidia_nvshmem_cu13-3.8.0.dist-info/licenses/License.txt"),
}


def kept(pin, name):
    """The DEST-relative path a wheel member is unpacked to, or None."""
    if ".." in name.split("/"):
        return None
    if name == pin.license:
        return "License.txt"
    if not name.startswith(pin.root):
        return None
    rel = name[len(pin.root):]
    if any(rel.startswith(k) if k.endswith("/") or k == "" else rel == k for k in pin.keep):
        return name
    return None


def download(name, pin, dest_file):
    """The wheel into dest_file, hashed on the way; returns its SHA-256."""
    local = os.environ.get(f"GG_{name.upper()}_WHEEL")
    h = hashlib.sha256()
    if local:
        try:
            src = open(local, "rb")
        except OSError as e:
            sys.exit(f"cannot read {pin.wheel} from {local}: {e}")
    else:
        index = os.environ.get("GG_PYPI_SIMPLE", "https://pypi.org/simple/")
        page = urllib.parse.urljoin(index, pin.project + "/")
        try:
            html = urllib.request.urlopen(page, timeout=60).read().decode()
            href = next((h for h in re.findall(r'href="([^"]+)"', html) if pin.wheel in h), None)
            if not href:
                sys.exit(f"{page} lists no {pin.wheel}")
            src = urllib.request.urlopen(urllib.parse.urljoin(page, href.split("#")[0]), timeout=300)
        except OSError as e:
            sys.exit(f"cannot download {pin.wheel} from {page}: {e}")
    with src, open(dest_file, "wb") as out:
        while chunk := src.read(1 << 20):
            h.update(chunk)
            out.write(chunk)
    return h.hexdigest()


def unpack(pin, wheel, tree):
    """The kept members of wheel into the folder tree; the required ones
    missing from the wheel, as a list."""
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            to = kept(pin, name)
            if not to:
                continue
            path = os.path.join(tree, to)
            if name.endswith("/"):
                os.makedirs(path, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with z.open(name) as src, open(path, "wb") as out:
                shutil.copyfileobj(src, out)
    need = [k for k in pin.keep if k and not k.endswith("/")] + [pin.probe]
    return [f for f in need if not os.path.exists(os.path.join(tree, pin.root, f))]


def fetch(name, dest):
    pin = PINS[name]
    stamp = os.path.join(dest, ".version")
    if os.path.exists(stamp) and open(stamp).read().strip() == pin.version:
        print(f"{pin.what} {pin.version} already in {dest}")
        return
    if os.path.exists(dest) and os.listdir(dest) and not os.path.exists(stamp):
        sys.exit(f"{dest} exists and was not made by this script (no .version): not replaced")
    parent = os.path.dirname(os.path.abspath(dest))
    os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f".{name}-", dir=parent)
    try:
        wheel = os.path.join(work, pin.wheel)
        digest = download(name, pin, wheel)
        if digest != pin.sha256:
            sys.exit(f"{pin.wheel}: SHA-256 mismatch (expected {pin.sha256}, got {digest}); not unpacked")
        tree = os.path.join(work, "tree")
        missing = unpack(pin, wheel, tree)
        if missing:
            sys.exit(f"{pin.wheel} lacks {', '.join(missing)}; not installed")
        with open(os.path.join(tree, ".version"), "w") as f:
            f.write(pin.version + "\n")
        if os.path.exists(dest):
            shutil.rmtree(dest)
        os.rename(tree, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{pin.what} {pin.version} unpacked into {dest}")


def main(name):
    if len(sys.argv) != 2:
        sys.exit(f"usage: fetch-{name}.py DEST")
    fetch(name, sys.argv[1])
