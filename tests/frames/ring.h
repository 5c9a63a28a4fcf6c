/* ring.h - the frames GPU tests' loop: frames through every slot of a
 * session, up to nslots in flight; before a slot is reused (and at the
 * end) the frame it held is waited for and checked. */
#ifndef GG_TEST_FRAMES_RING_H
#define GG_TEST_FRAMES_RING_H

#include <stdint.h>

#include "gg_session.h"
#include "../gg_check.h"

/* start: fill slot's buffers for frame f and start it; check: verify
 * the frame that slot held. */
typedef void (*ring_start_fn)(gg_session *s, int f, int slot, void *arg);
typedef void (*ring_check_fn)(int slot, void *arg);

static inline void ring_frames(gg_session *s, int frames, long long wait_ns, ring_start_fn start,
                               ring_check_fn check, void *arg)
{
  int nslots = gg_session_nslots(s);
  for (int f = 0; f <= frames; f++) {
    /* a full ring, or the end: wait for the oldest frame in flight */
    while (gg_session_completed(s) < gg_session_started(s) &&
           (f == frames || gg_session_started(s) - gg_session_completed(s) == (uint64_t)nslots)) {
      uint64_t done = gg_session_completed(s) + 1;
      CHECK_OK(gg_session_wait(s, wait_ns));
      check(gg_session_frame_slot(s, done), arg);
    }
    if (f < frames) start(s, f, gg_session_frame_slot(s, gg_session_started(s) + 1), arg);
  }
}

#endif
