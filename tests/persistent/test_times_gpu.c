/*
 * test_times_gpu.c - the device's timestamps of each frame, on a GPU.
 * 2001 frames of the noargs_gpu module's empty command, one at a time,
 * on one block and on 4 blocks (the seen time then crosses blocks through
 * device memory, gg_protocol.h), then 2001 frames on a ring of 4 slots
 * (frames queued ahead).  Every frame must bring its device times; the
 * GPU saw frame k+1 no earlier than it stored frame k's acknowledgement
 * (seen + gpu part), and the GPU part is shorter than the frame's round
 * trip on the host.  Statistics say the same: every frame timed, the GPU
 * part's max below the total's.  Prints the device clock's step.  Label
 * gpu; exit 77 without one.
 */
#include <stdio.h>

#include "gg.h"
#include "gg_session.h"
#include "noargs_gpu.h"
#include "../gg_check.h"

enum { FRAMES = 2001 };

static int run(gg_module *mod, const char *pers, int slots)
{
  gg_session *se;
  gg_session_options opt = {.buffering = slots, .stats_frames = FRAMES};
  CHECK_OK(gg_session_open(mod, pers, &opt, &se));
  int cmd, bad = 0;
  CHECK_OK(gg_session_command(se, "tick", &cmd));
  gg_frame_time prev = {0}, t;
  for (int f = 0; f < FRAMES || gg_session_completed(se) < gg_session_started(se);) {
    if (f < FRAMES && gg_session_started(se) - gg_session_completed(se) < (uint64_t)slots) {
      CHECK_OK(gg_session_start(se, cmd, NULL, 0, NULL));
      f++;
      continue;
    }
    CHECK_OK(gg_session_wait(se, 1000000000ll));
    CHECK_OK(gg_session_last_frame(se, &t));
    if (t.frame == prev.frame) /* its times still on their way: recorded later */
      continue;
    if (t.device_seen_ns == 0 || t.late == GG_PART_UNKNOWN) {
      if (bad++ < 5)
        printf("FAIL %s/%d: frame %llu brought no device times\n", pers, slots,
               (unsigned long long)t.frame);
    } else if (prev.frame &&
               t.device_seen_ns < prev.device_seen_ns + (uint64_t)prev.part_ns[GG_PART_GPU]) {
      if (bad++ < 5)
        printf("FAIL %s/%d: frame %llu seen at %llu, before frame %llu's ack (%llu + %.0f)\n",
               pers, slots, (unsigned long long)t.frame, (unsigned long long)t.device_seen_ns,
               (unsigned long long)prev.frame, (unsigned long long)prev.device_seen_ns,
               prev.part_ns[GG_PART_GPU]);
    } else if (!(t.part_ns[GG_PART_GPU] < t.total_ns)) {
      if (bad++ < 5)
        printf("FAIL %s/%d: frame %llu: GPU part %.0f ns, round trip %.0f ns\n", pers, slots,
               (unsigned long long)t.frame, t.part_ns[GG_PART_GPU], t.total_ns);
    }
    prev = t;
  }
  gg_stats s;
  CHECK_OK(gg_session_stats(se, &s));
  if (s.timed != FRAMES || !(s.part[GG_PART_GPU].max_ns < s.max_ns) || s.clock_step_ns < 1)
    bad++;
  printf("%s: %s, %d slot(s): %llu of %llu frames timed; p50 %.2f us = to_gpu %.2f + gpu %.2f + "
         "to_host %.2f; device clock step %.0f ns, smallest GPU part %.0f ns\n",
         bad ? "FAIL" : "ok  ", pers, slots, (unsigned long long)s.timed,
         (unsigned long long)s.count, s.p50_ns / 1e3, s.part[0].p50_ns / 1e3,
         s.part[1].p50_ns / 1e3, s.part[2].p50_ns / 1e3, s.clock_step_ns, s.busy_min_ns);
  CHECK_OK(gg_session_terminate(se));
  gg_session_free(se);
  return !bad;
}

int main(void)
{
  gg_context *ctx = gg_check_open(NULL);
  gg_module *mod;
  CHECK_OK(gg_module_load(ctx, &gg_module_noargs_gpu, &mod));
  int ok = 1;
  ok &= run(mod, "one", 1);
  ok &= run(mod, "many", 1);
  ok &= run(mod, "one", 4);
  ok &= run(mod, "many", 4);
  gg_context_free(ctx);
  return ok ? 0 : 1;
}
