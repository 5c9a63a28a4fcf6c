#!/usr/bin/env python3
"""plot_latency.py - turn a latency CSV into a histogram + CDF picture (PNG).

    bench/plot_latency.py FILE.csv [FILE.csv ...] -o latency.png [--title T]

Reads any of the three CSV forms gpugen writes, recognised by the header:

  samples    one row per frame, a column named latency_us or latency_ns,
             and optionally a column label (or mode, or bench) that splits
             the rows into series.  Written by `examples/app --csv FILE`
             (columns frame,latency_us).
  histogram  bucket_lo_ns,bucket_hi_ns,count - gg_session_histogram_csv(),
             with the split columns to_gpu,gpu,to_host when present: each
             part is a series of its own (host -> GPU, GPU, GPU -> host).
  tails      frame,total_ns,...,late - gg_session_tails_csv(), the largest
             frames: one series per part named late (which part made the
             frame late), so the tail shows what it is made of.
  summary    bench,label,n,mean,min,p50,p99,p99.9,p99.99,max,jitter,... in
             microseconds - the benchmarks' CSV (bench/stats.h).  A summary
             has no per-frame data, so the histogram panel shows mean / p50
             / p99 / max bars and the CDF panel the known percentiles.

Each input file is one or more series (named after the file, or the label).
The left panel is a histogram of frame latency, the right one the CDF on a
logit scale, so p99, p99.9 and p99.99 are as far apart as they deserve.

Needs matplotlib (pip install matplotlib).  Exit status: 0, 1 on a bad
file, 2 on usage, 3 when matplotlib is missing.
"""
import argparse
import csv
import os
import sys


class Series:
    def __init__(self, name):
        self.name = name
        self.samples_us = []   # samples form
        self.buckets = []      # histogram form: (lo_us, hi_us, count)
        self.summary = None    # summary form: dict of floats (us)


def read_csv(path):
    """Returns a list of Series read from path; raises ValueError with a reason."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
        if not rows:
            raise ValueError("no rows")
        cols = set(rows[0].keys())
    base = os.path.splitext(os.path.basename(path))[0]
    if {"bucket_lo_ns", "bucket_hi_ns", "count"} <= cols:
        parts = [p for p in ("to_gpu", "gpu", "to_host") if p in cols]
        return [read_histogram(base, rows, "count")] + [
            read_histogram("%s %s" % (base, p), rows, p) for p in parts
            if any(int(r[p] or 0) for r in rows)]
    if {"frame", "total_ns", "late"} <= cols:
        return read_tails(base, rows)
    if "latency_us" in cols or "latency_ns" in cols:
        return read_samples(base, rows, cols)
    if {"label", "mean", "p50", "p99", "max"} <= cols:
        return read_summary(base, rows)
    raise ValueError("unknown columns %s: expected latency_us or latency_ns (samples), "
                     "bucket_lo_ns,bucket_hi_ns,count (histogram), frame,total_ns,late (tails) "
                     "or bench,label,mean,p50,p99,max (summary)"
                     % ",".join(sorted(c for c in cols if c)))


def read_samples(base, rows, cols):
    scale, col = (1.0, "latency_us") if "latency_us" in cols else (1e-3, "latency_ns")
    key = next((k for k in ("label", "mode", "bench") if k in cols), None)
    series = {}
    for i, r in enumerate(rows, 2):
        name = "%s %s" % (base, r[key]) if key else base
        s = series.setdefault(name, Series(name))
        try:
            s.samples_us.append(float(r[col]) * scale)
        except (TypeError, ValueError):
            raise ValueError("line %d: %s = %r is not a number" % (i, col, r[col]))
    return list(series.values())


def read_tails(base, rows):
    series = {}
    for i, r in enumerate(rows, 2):
        name = "%s late=%s" % (base, r["late"])
        try:
            series.setdefault(name, Series(name)).samples_us.append(float(r["total_ns"]) / 1e3)
        except (TypeError, ValueError):
            raise ValueError("line %d: total_ns = %r is not a number" % (i, r["total_ns"]))
    return list(series.values())


def read_histogram(base, rows, col):
    s = Series(base)
    for i, r in enumerate(rows, 2):
        try:
            s.buckets.append((float(r["bucket_lo_ns"]) / 1e3, float(r["bucket_hi_ns"]) / 1e3,
                              int(r[col] or 0)))
        except (TypeError, ValueError):
            raise ValueError("line %d: bucket bounds and count must be numbers" % i)
    if sum(b[2] for b in s.buckets) == 0:
        raise ValueError("the histogram counts no frame")
    return s


def read_summary(base, rows):
    out = []
    for i, r in enumerate(rows, 2):
        if not r.get("p50"):
            continue  # a key/value row (bench_csv_value), not a distribution
        name = "%s %s" % (r.get("bench", base), r["label"])
        s = Series(name)
        try:
            s.summary = {k: float(r[k]) for k in ("mean", "min", "p50", "p99", "p99.9", "p99.99", "max")
                         if r.get(k)}
        except ValueError:
            raise ValueError("line %d: a statistic is not a number" % i)
        out.append(s)
    if not out:
        raise ValueError("no summary row with percentiles")
    return out


def cdf_points(s):
    """(x_us, fraction) points of the series' CDF, fractions strictly inside (0, 1)."""
    if s.samples_us:
        xs = sorted(s.samples_us)
        n = len(xs)
        return xs, [(i + 0.5) / n for i in range(n)]
    if s.buckets:
        total = float(sum(b[2] for b in s.buckets))
        xs, ys, seen = [], [], 0
        for lo, hi, c in sorted(s.buckets):
            if c:
                seen += c
                xs.append(hi)
                ys.append(min(seen / total, 1 - 0.5 / total))
        return xs, ys
    q = s.summary
    pairs = [(q[k], p) for k, p in (("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999), ("p99.99", 0.9999))
             if k in q]
    return [x for x, _ in pairs], [p for _, p in pairs]


def plot(series, out, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (hist, cdf) = plt.subplots(1, 2, figsize=(12, 4.5))
    summaries = [s for s in series if s.summary]
    # Bars of a summary make no sense on a histogram's axes: they are drawn
    # only when no series has per-frame data (summaries still join the CDF).
    bars = summaries if len(summaries) == len(series) else []
    for s in series:
        if s.samples_us:
            hist.hist(s.samples_us, bins=min(100, max(10, len(s.samples_us) // 20)),
                      histtype="step", label=s.name)
        elif s.buckets:
            lo = [b[0] for b in s.buckets]
            hist.bar(lo, [b[2] for b in s.buckets], width=[b[1] - b[0] for b in s.buckets],
                     align="edge", alpha=0.5, label=s.name)
        xs, ys = cdf_points(s)
        marker = "o" if s.summary else None
        cdf.plot(xs, ys, marker=marker, drawstyle="default" if s.summary else "steps-post",
                 label=s.name)
    if bars:
        stats = ["mean", "p50", "p99", "max"]
        width = 0.8 / len(bars)
        for k, s in enumerate(bars):
            hist.bar([i + k * width for i in range(len(stats))],
                     [s.summary.get(st, 0) for st in stats], width=width, label=s.name)
        hist.set_xticks([i + 0.4 - width / 2 for i in range(len(stats))], stats)
        hist.set_ylabel("latency (us)")
        hist.set_title("summary (no per-frame data)")
    else:
        hist.set_xlabel("frame latency (us)")
        hist.set_ylabel("frames")
        hist.set_title("histogram")
    cdf.set_yscale("logit")
    ticks = [0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999]
    cdf.set_yticks(ticks, ["p1", "p10", "p50", "p90", "p99", "p99.9", "p99.99", "p99.999"])
    cdf.minorticks_off()
    cdf.set_xlabel("frame latency (us)")
    cdf.set_ylabel("percentile of frames")
    cdf.set_title("CDF")
    cdf.grid(True, which="both", alpha=0.3)
    for ax in (hist, cdf):
        ax.legend(fontsize="small")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main(argv):
    ap = argparse.ArgumentParser(description="latency CSV -> histogram + CDF PNG")
    ap.add_argument("csv", nargs="+", help="latency CSV files (samples, histogram or summary)")
    ap.add_argument("-o", "--output", default="latency.png", help="PNG to write (default latency.png)")
    ap.add_argument("--title", default="", help="title above both panels")
    args = ap.parse_args(argv)

    series = []
    for path in args.csv:
        try:
            series += read_csv(path)
        except (OSError, ValueError, KeyError) as e:
            print("plot_latency: %s: %s" % (path, e), file=sys.stderr)
            return 1
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("plot_latency: matplotlib is not installed (pip install matplotlib)", file=sys.stderr)
        return 3
    plot(series, args.output, args.title)
    print("plot_latency: wrote %s (%d series)" % (args.output, len(series)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
