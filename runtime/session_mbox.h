/*
 * session_mbox.h - the host's half of the persistent-loop handshake
 * (internal).  Pure C11 atomics on the mailbox bytes described in
 * gg_protocol.h: no vendor calls, so a CPU test can run it against a host
 * thread that plays the kernel.
 */
#ifndef GGR_SESSION_MBOX_H
#define GGR_SESSION_MBOX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "gg_session.h"

typedef struct ggr_mbox {
  char *base;            /* host address of the mailbox */
  uint32_t nslots;
  uint32_t args_size;    /* bytes of argument space per slot */
  uint32_t slot_stride;
  uint64_t started;      /* frames posted */
  uint64_t completed;    /* frames whose done the host has seen */
  uint64_t result;       /* result bits of the frame completed last (ack, ack2) */
} ggr_mbox;

/* Size in bytes of a mailbox with these slots. */
size_t ggr_mbox_bytes(uint32_t nslots, uint32_t args_size);
/* Lay out (and zero) a mailbox over `bytes` bytes at base. */
void ggr_mbox_init(ggr_mbox *mb, void *base, uint32_t nslots, uint32_t args_size);

/* Slot of frame k (k >= 1). */
static inline uint32_t ggr_mbox_slot_of(const ggr_mbox *mb, uint64_t frame)
{
  return (uint32_t)((frame - 1) % mb->nslots);
}
/* 1 when every slot holds a frame in flight. */
int ggr_mbox_full(const ggr_mbox *mb);
/* Post the next frame: the args as tagged words (NULL: keep the slot's
 * bytes), then word 0 = command with release.  The caller has checked
 * !full and size <= args_size.  Returns the frame number. */
uint64_t ggr_mbox_post(ggr_mbox *mb, uint32_t command, const void *args, size_t size);
/* The argument bytes the next frame's slot holds now (args_size bytes
 * into buf): what ggr_mbox_post(..., NULL, 0) would send again. */
void ggr_mbox_slot_args(const ggr_mbox *mb, void *buf);
/* 1 when the oldest frame in flight is done (acquire): its ack carries
 * its tag, and with two_words (an 8-byte result) its ack2 too; advances
 * completed and keeps the result bits in mb->result. */
int ggr_mbox_poll(ggr_mbox *mb, int two_words);
/* The ack word of the oldest frame in flight (the caller has one in
 * flight).  A waiter spins on ggr_mbox_ack_seen, one relaxed load a
 * spin, and completes the frame with ggr_mbox_poll once it has. */
const void *ggr_mbox_ack_word(const ggr_mbox *mb);
static inline int ggr_mbox_ack_seen(const void *ack, uint64_t frame)
{
  uint64_t w = atomic_load_explicit((const _Atomic uint64_t *)ack, memory_order_relaxed);
  return GG_MBOX_ACK_TAG(w) == (uint32_t)frame;
}
/* The device times of done frame `frame` (gg_protocol.h): 1 when its
 * three words carry its tag (read after the ack's acquire; with a relaxed
 * ack they may lag it, so a few reads are tried), else 0. */
int ggr_mbox_times(const ggr_mbox *mb, uint64_t frame, uint64_t *seen, uint64_t *busy);
/* Ask the kernel to exit: abort line, and the abort word in the slot
 * it polls next, so it sees it without a second poll location. */
void ggr_mbox_abort(ggr_mbox *mb);
void ggr_mbox_heartbeat(ggr_mbox *mb, uint64_t stale_ns);
/* The device's status line (the exit reason and frames run are written
 * before the state, which is the release store). */
uint32_t ggr_mbox_state(const ggr_mbox *mb);
uint32_t ggr_mbox_exit_reason(const ggr_mbox *mb);
uint64_t ggr_mbox_frames_run(const ggr_mbox *mb);
/* The ranks (of a team of `gpus`) whose data the running frame's
 * exchanges have waited for ~0.3 ms or more (GG_MBOX_WAITING_OFF), as
 * text ("1, 3") into out; the count. */
int ggr_mbox_waiting(const ggr_mbox *mb, int gpus, char *out, size_t n);

/* Raw addresses, for the test's emulated device. */
static inline char *ggr_mbox_slot(const ggr_mbox *mb, uint32_t i)
{
  return mb->base + GG_MBOX_SLOTS_OFF + (size_t)i * mb->slot_stride;
}

#endif
