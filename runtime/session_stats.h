/*
 * session_stats.h - a session's frame times, streamed into fixed memory
 * (internal).  Pure C: no vendor calls, so a CPU test feeds it frames.
 *
 * Each frame brings four times: the host's post (t0) and the host seeing
 * the ack (t3) on CLOCK_MONOTONIC, and, with device times, the device's
 * clock when the GPU saw the post (seen) and how long after that it
 * stored the ack (busy).  The two clocks differ by an offset that drifts;
 * it is estimated NTP-style from the frames of smallest round trip
 * (gpu clock - host clock = ((seen - t0) + (seen + busy - t3)) / 2,
 * exact when the way there and the way back take as long) and refreshed
 * every GGR_OFFSET_WINDOW timed frames.  A frame then splits into
 *   to_gpu  = seen - offset - t0      (host -> GPU)
 *   gpu     = busy                    (exact: one clock)
 *   to_host = t3 - t0 - to_gpu - gpu  (GPU -> host)
 *
 * Memory is fixed at init, whatever the frame count: log-linear
 * histograms of the total and of each part (GGR_HIST_SUB buckets per
 * power of two: at most 1/128 = 0.8 % wide) and the K largest frames
 * kept exactly with their parts (a min-heap on the total).  Percentiles
 * whose nearest rank falls among the K largest are exact; the others are
 * the middle of their histogram bucket.
 */
#ifndef GGR_SESSION_STATS_H
#define GGR_SESSION_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "gg_session.h"

#define GGR_HIST_SUB_BITS 7u                     /* 128 buckets per power of two */
#define GGR_HIST_SUB (1u << GGR_HIST_SUB_BITS)
#define GGR_HIST_TOP_BIT 42u                     /* values up to 2^42 ns (73 minutes) */
#define GGR_HIST_BUCKETS (2u * GGR_HIST_SUB + (GGR_HIST_TOP_BIT - GGR_HIST_SUB_BITS - 1u) * GGR_HIST_SUB)
#define GGR_OFFSET_WINDOW 1024u                  /* timed frames per offset estimate */
#define GGR_TAIL_DEFAULT 16384u                  /* exact tails kept unless told */

typedef struct ggr_hist {
  uint64_t count[GGR_HIST_BUCKETS];
} ggr_hist;

/* Bucket of value v (ns, clamped to the top), and a bucket's bounds
 * [lo, hi). */
uint32_t ggr_hist_bucket(uint64_t v);
void ggr_hist_bounds(uint32_t b, uint64_t *lo, uint64_t *hi);

/* One frame's times as recorded (the host's t0 and t3, the device's seen
 * and busy; timed = 0 when the frame brought no device times). */
typedef struct ggr_frame_in {
  uint64_t frame, t0, t3, seen, busy;
  int timed;
} ggr_frame_in;

/* The clock offset and the running medians of each part: splits a frame
 * as soon as it is done (a deadline's callback needs its parts then). */
typedef struct ggr_split {
  int have_offset;
  int64_t offset;                 /* gpu - host, in use */
  uint64_t offset_rtt;            /* the round trip of the frame it came from */
  int64_t win_offset;             /* of the window's smallest round trip so far */
  uint64_t win_rtt, win_busy;     /* that frame's round trip and GPU part */
  uint64_t win_n;                 /* timed frames in the window */
  uint64_t min_rtt;               /* the smallest round trip seen (0: none) */
  uint64_t timed;                 /* timed frames split */
  double typical[GG_NPARTS];      /* running medians: which part of a frame is late */
} ggr_split;

void ggr_split_init(ggr_split *sp);
/* Split one frame into *out (its parts and the part that made it late
 * against the running medians), then learn from it. */
void ggr_split_frame(ggr_split *sp, const ggr_frame_in *in, gg_frame_time *out);

typedef struct ggr_stats {
  uint64_t limit;                 /* frames to record at most */
  uint64_t count, timed;
  double sum, part_sum[GG_NPARTS];
  uint64_t min, max;
  ggr_hist total, part[GG_NPARTS];
  double part_max[GG_NPARTS];
  gg_frame_time *tail;            /* the largest frames: a min-heap on total_ns */
  uint32_t tail_cap, tail_n;
  uint64_t clock_step;            /* gcd of the device times seen (0: none) */
  uint64_t busy_min;              /* smallest nonzero busy (0: none) */
} ggr_stats;

/* tail_cap: frames kept exactly (0: min(limit, GGR_TAIL_DEFAULT)). */
gg_status ggr_stats_init(ggr_stats *st, uint64_t limit, uint32_t tail_cap);
void ggr_stats_free(ggr_stats *st);
void ggr_stats_reset(ggr_stats *st);
/* Record one split frame while fewer than limit frames are. */
void ggr_stats_add(ggr_stats *st, const ggr_frame_in *in, const gg_frame_time *t);
/* The summary; the offset and round trip come from sp. */
void ggr_stats_summary(const ggr_stats *st, const ggr_split *sp, gg_stats *out);
/* The kept frames, the largest first, each named late against the
 * medians of the whole run; returns how many were written. */
size_t ggr_stats_tails(const ggr_stats *st, gg_frame_time *out, size_t max);
gg_status ggr_stats_histogram_csv(const ggr_stats *st, FILE *f, uint32_t bucket_ns);
gg_status ggr_stats_tails_csv(const ggr_stats *st, FILE *f);

/* The part that made a frame late: the one furthest above its typical
 * value (GG_PART_UNKNOWN without device times). */
gg_part ggr_late_part(const gg_frame_time *t, const double typical[GG_NPARTS]);

#endif
