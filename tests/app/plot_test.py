#!/usr/bin/env python3
"""plot_test.py - bench/plot_latency.py on CSVs of each form it reads.

Checks that a PNG comes out for samples (as examples/app --csv writes),
for a gg_session histogram and for a benchmark summary, that the series
it reports match the input, and that a CSV of unknown columns is refused
with status 1.  Exits 77 (skipped) where matplotlib is not installed.
"""
import os
import subprocess
import sys
import tempfile

script = sys.argv[1]
try:
    import matplotlib  # noqa: F401
except ImportError:
    print("matplotlib not installed: skipped")
    sys.exit(77)

failed = 0
checks = 0


def run(args, want_rc, want_text):
    global failed, checks
    checks += 1
    r = subprocess.run([sys.executable, script] + args, capture_output=True, text=True)
    out = r.stdout + r.stderr
    if r.returncode != want_rc or want_text not in out:
        print("FAIL %s: rc %d (want %d), output %r (want %r)" % (args, r.returncode, want_rc, out, want_text))
        failed += 1


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


with tempfile.TemporaryDirectory() as d:
    samples = os.path.join(d, "samples.csv")
    with open(samples, "w") as f:  # 1000 and 37 frames: one power-of-ten-ish, one odd count
        f.write("frame,latency_us,label\n")
        for i in range(1000):
            f.write("%d,%.3f,persistent\n" % (i, 3.0 + (i % 17) * 0.1))
        for i in range(37):
            f.write("%d,%.3f,launch\n" % (i, 9.0 + (i % 5) * 0.5))
    hist = os.path.join(d, "hist.csv")
    with open(hist, "w") as f:
        f.write("bucket_lo_ns,bucket_hi_ns,count\n")
        for b in range(13):
            f.write("%d,%d,%d\n" % (2000 + b * 100, 2100 + b * 100, 1000 >> b))
    summary = os.path.join(d, "summary.csv")
    with open(summary, "w") as f:
        f.write("bench,label,n,mean,min,p50,p99,p99.9,p99.99,max,jitter,stddev,device,date\n")
        f.write('pb,one_block,1000,3.1,2.5,3.0,3.6,4.2,5.0,9.1,6.0,0.2,"dev",2026-01-01T00:00:00Z\n')
        f.write('pb,speedup,1,3.0,,,,,,,,,"dev",2026-01-01T00:00:00Z\n')  # a value row: ignored
    split = os.path.join(d, "split.csv")  # the session's histogram with its parts
    with open(split, "w") as f:
        f.write("bucket_lo_ns,bucket_hi_ns,count,to_gpu,gpu,to_host\n")
        for b in range(11):
            f.write("%d,%d,%d,%d,%d,%d\n" % (b * 100, b * 100 + 100, 3 * b, 5, 7 if b < 4 else 0, 2))
    tails = os.path.join(d, "tails.csv")
    with open(tails, "w") as f:
        f.write("frame,total_ns,to_gpu_ns,gpu_ns,to_host_ns,late\n")
        for i in range(23):
            f.write("%d,%d,700,1500,%d,%s\n" % (i + 1, 90000 - i, 87800 - i, "to_host" if i % 3 else "gpu"))
    bad = os.path.join(d, "bad.csv")
    with open(bad, "w") as f:
        f.write("x,y\n1,2\n")

    png = os.path.join(d, "out.png")
    run([samples, "-o", png], 0, "(2 series)")
    checks += 1
    if not (os.path.exists(png) and is_png(png)):
        print("FAIL: no PNG from the samples CSV")
        failed += 1
    run([hist, summary, "-o", png, "--title", "t"], 0, "(2 series)")
    run([summary, "-o", png], 0, "(1 series)")
    run([bad, "-o", png], 1, "unknown columns")
    run([split, "-o", png], 0, "(4 series)")  # the total and its three parts
    run([tails, "-o", png], 0, "(2 series)")  # late=gpu and late=to_host
    run([os.path.join(d, "missing.csv")], 1, "missing.csv")

print("%d passed, %d failed" % (checks - failed, failed))
sys.exit(1 if failed else 0)
