/*
 * session_times.c - a session's frame times (include/gg_session.h): each
 * done frame's host times and, when the kernel stores them, the device's
 * (gg_protocol.h), split into host -> GPU, GPU and GPU -> host
 * (session_stats.c), streamed into the statistics and checked against the
 * deadline; and the calls that read them.
 */
#include "session.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A frame's times, split, into the statistics and against the deadline. */
static void account(gg_session *s, const ggr_frame_in *in)
{
  gg_frame_time t;
  ggr_split_frame(&s->split, in, &t);
  if (s->stats)
    ggr_stats_add(s->stats, in, &t);
  s->last = t;
  if (s->deadline && t.total_ns > (double)s->deadline) {
    s->late++;
    s->late_by[t.late]++;
    if (t.total_ns > s->late_worst.total_ns)
      s->late_worst = t;
    if (s->late_fn)
      s->late_fn(s->late_user, &t);
  }
}

/* The kernel stores a frame's device times just after its ack (gg_protocol.h),
 * so they may land after the wait has seen the ack: such a frame waits
 * here until the host next posts (its done line is rewritten only by a
 * frame posted later) or asks for statistics, and is taken then, with its
 * times or, still without them, untimed. */
void ggr_session_settle(gg_session *s)
{
  if (!s->has_pending)
    return;
  s->has_pending = 0;
  s->pending.timed = ggr_mbox_times(&s->mb, s->pending.frame, &s->pending.seen, &s->pending.busy);
  account(s, &s->pending);
}

/* Frame `frame` is done: its times (with the device's, when it stored
 * them) are accounted now, or once its device times have landed. */
void ggr_session_record(gg_session *s, uint64_t frame)
{
  if (!s->clocked)
    return;
  /* the wait's end first: settling the frame before (its reads, a late
   * callback) would count toward this one */
  ggr_frame_in in = {frame, s->slot_t0[ggr_mbox_slot_of(&s->mb, frame)], gg_rt_now_ns(), 0, 0, 0};
  ggr_session_settle(s);
  if (in.t0 == 0) /* started before the clock was asked for */
    return;
  if (s->timed && !(in.timed = ggr_mbox_times(&s->mb, frame, &in.seen, &in.busy))) {
    s->pending = in;
    s->has_pending = 1;
    return;
  }
  account(s, &in);
}

static gg_status stats_off(void)
{
  return ggr_set_error(GG_ERR_STATE, "statistics are off: this session records none (set "
                       "gg_session_options.stats_frames, e.g. UINT64_MAX for every frame)");
}

gg_status gg_session_stats(gg_session *s, gg_stats *out)
{
  if (!s || !out)
    return GGR_NULL_ARG();
  ggr_session_settle(s);
  if (!s->stats)
    return stats_off();
  ggr_stats_summary(s->stats, &s->split, out);
  out->late = s->late;
  out->late_worst = s->late_worst;
  memcpy(out->late_by, s->late_by, sizeof out->late_by);
  return GG_OK;
}

void gg_session_stats_reset(gg_session *s)
{
  if (!s)
    return;
  s->has_pending = 0;
  if (s->stats)
    ggr_stats_reset(s->stats);
  s->late = 0;
  memset(s->late_by, 0, sizeof s->late_by);
  memset(&s->late_worst, 0, sizeof s->late_worst);
}

gg_status gg_session_histogram_csv(gg_session *s, FILE *f, uint32_t bucket_ns)
{
  if (!s || !f)
    return GGR_NULL_ARG();
  ggr_session_settle(s);
  if (!s->stats)
    return stats_off();
  return ggr_stats_histogram_csv(s->stats, f, bucket_ns);
}

gg_status gg_session_tails(gg_session *s, gg_frame_time *out, size_t max, size_t *n)
{
  if (!s || (!out && max) || !n)
    return GGR_NULL_ARG();
  ggr_session_settle(s);
  *n = 0;
  if (!s->stats)
    return stats_off();
  *n = max ? ggr_stats_tails(s->stats, out, max) : 0;
  if (max && s->stats->tail_n && *n == 0)
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "tails of %u frames", s->stats->tail_n);
  return GG_OK;
}

gg_status gg_session_tails_csv(gg_session *s, FILE *f)
{
  if (!s || !f)
    return GGR_NULL_ARG();
  ggr_session_settle(s);
  if (!s->stats)
    return stats_off();
  return ggr_stats_tails_csv(s->stats, f);
}

gg_status gg_session_deadline(gg_session *s, int64_t deadline_ns, gg_late_fn fn, void *user)
{
  if (!s)
    return GGR_NULL_ARG();
  if (deadline_ns <= 0)
    return ggr_set_error(GG_ERR_INVALID, "deadline of %lld ns: a deadline is a positive number "
                         "of nanoseconds (INT64_MAX turns it off)", (long long)deadline_ns);
  s->deadline = deadline_ns == INT64_MAX ? 0 : deadline_ns;
  s->late_fn = fn;
  s->late_user = user;
  s->clocked = s->clocked || s->deadline != 0;
  return GG_OK;
}

uint64_t gg_session_late(const gg_session *s) { return s ? s->late : 0; }

gg_status gg_session_last_frame(const gg_session *s, gg_frame_time *out)
{
  if (!s || !out)
    return GGR_NULL_ARG();
  if (s->last.frame == 0)
    return ggr_set_error(GG_ERR_STATE, "no frame timed yet: frames are timed once statistics, "
                         "a deadline or device times are on, from the first one waited for");
  *out = s->last;
  return GG_OK;
}
