/*
 * session_mbox.c - the host's half of the mailbox handshake.
 *
 * The host writes the slot's argument bytes as tagged words (relaxed
 * 8-byte stores: each word is whole or not there), then word 0 (command)
 * with ONE release store.  The device reads all words in one round trip,
 * and lane 0's acquire of word 0 makes everything the host wrote before
 * visible (system scope on the device side; on x86-64 a release store is
 * a plain mov, so it costs nothing here).  The device answers with the
 * slot's acknowledgement: the frame's tag and its result, if any (one
 * tagged word, two for an 8-byte result), read here with acquire.
 */
#include "session_mbox.h"
#include "gg_team.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static _Atomic uint64_t *u64_at(char *p) { return (_Atomic uint64_t *)(void *)p; }
static _Atomic uint32_t *u32_at(char *p) { return (_Atomic uint32_t *)(void *)p; }

size_t ggr_mbox_bytes(uint32_t nslots, uint32_t args_size)
{
  return GG_MBOX_BYTES((size_t)nslots, (size_t)args_size);
}

void ggr_mbox_init(ggr_mbox *mb, void *base, uint32_t nslots, uint32_t args_size)
{
  mb->base = base;
  mb->nslots = nslots;
  mb->args_size = args_size;
  mb->slot_stride = GG_MBOX_SLOT_STRIDE(args_size);
  mb->started = 0;
  mb->completed = 0;
  mb->result = 0;
  memset(base, 0, ggr_mbox_bytes(nslots, args_size));
}

int ggr_mbox_full(const ggr_mbox *mb)
{
  return mb->started - mb->completed >= mb->nslots;
}

/* word = tag << 32 | payload: the tag says which frame wrote it. */
static uint64_t tagged(uint64_t frame, uint32_t payload)
{
  return (uint64_t)(uint32_t)frame << 32 | payload;
}

uint64_t ggr_mbox_post(ggr_mbox *mb, uint32_t command, const void *args, size_t size)
{
  uint64_t frame = mb->started + 1;
  char *slot = ggr_mbox_slot(mb, ggr_mbox_slot_of(mb, frame));
  uint32_t nwords = GG_MBOX_WORDS(mb->args_size);
  const unsigned char *src = args;
  for (uint32_t i = 1; i < nwords; i++) {
    uint32_t chunk = 0;
    size_t off = (size_t)(i - 1) * 4;
    if (!src) /* keep the slot's argument bytes, re-tagged */
      chunk = (uint32_t)atomic_load_explicit(u64_at(slot + 8u * i), memory_order_relaxed);
    else if (off < size)
      memcpy(&chunk, src + off, size - off < 4 ? size - off : 4);
    atomic_store_explicit(u64_at(slot + 8u * i), tagged(frame, chunk), memory_order_relaxed);
  }
  /* The one store the device acquires: everything above (and every write
   * the caller made before start) happens-before the kernel's frame.  A
   * frame posted while another is in flight says so (GG_MBOX_CMD_AHEAD). */
  if (mb->started > mb->completed)
    command |= GG_MBOX_CMD_AHEAD;
  atomic_store_explicit(u64_at(slot), tagged(frame, command), memory_order_release);
  mb->started = frame;
  return frame;
}

void ggr_mbox_slot_args(const ggr_mbox *mb, void *buf)
{
  char *slot = ggr_mbox_slot(mb, ggr_mbox_slot_of(mb, mb->started + 1));
  unsigned char *dst = buf;
  for (uint32_t i = 1; i < GG_MBOX_WORDS(mb->args_size); i++) {
    size_t off = (size_t)(i - 1) * 4;
    uint32_t chunk = (uint32_t)atomic_load_explicit(u64_at(slot + 8u * i), memory_order_relaxed);
    memcpy(dst + off, &chunk, mb->args_size - off < 4 ? mb->args_size - off : 4);
  }
}

const void *ggr_mbox_ack_word(const ggr_mbox *mb)
{
  return ggr_mbox_slot(mb, ggr_mbox_slot_of(mb, mb->completed + 1)) +
         GG_MBOX_DONE_OFFSET(mb->args_size);
}

int ggr_mbox_poll(ggr_mbox *mb, int two_words)
{
  if (mb->completed == mb->started)
    return 0;
  uint64_t frame = mb->completed + 1;
  char *done = (char *)ggr_mbox_ack_word(mb);
  /* acquire: pairs with the device's release of the ack (when the
   * generator planned one); a relaxed ack carries only its own bits */
  uint64_t ack = atomic_load_explicit(u64_at(done), memory_order_acquire);
  if (GG_MBOX_ACK_TAG(ack) != (uint32_t)frame)
    return 0;
  uint64_t hi = 0;
  if (two_words) { /* an 8-byte result: ack2 must carry this frame's tag too */
    uint64_t ack2 = atomic_load_explicit(u64_at(done + GG_MBOX_ACK2_OFF), memory_order_relaxed);
    if (GG_MBOX_ACK_TAG(ack2) != (uint32_t)frame)
      return 0;
    hi = ack2 & 0xffffffffu;
  }
  mb->result = hi << 32 | (ack & 0xffffffffu);
  mb->completed = frame;
  return 1;
}

#define TIMES_TRIES 64 /* reads of the device times after the ack (relaxed: they may lag) */

int ggr_mbox_times(const ggr_mbox *mb, uint64_t frame, uint64_t *seen, uint64_t *busy)
{
  char *done = ggr_mbox_slot(mb, ggr_mbox_slot_of(mb, frame)) + GG_MBOX_DONE_OFFSET(mb->args_size);
  const uint32_t tag = (uint32_t)frame;
  for (int i = 0; i < TIMES_TRIES; i++) {
    uint64_t lo = atomic_load_explicit(u64_at(done + GG_MBOX_SEEN_LO_OFF), memory_order_relaxed);
    uint64_t hi = atomic_load_explicit(u64_at(done + GG_MBOX_SEEN_HI_OFF), memory_order_relaxed);
    uint64_t b = atomic_load_explicit(u64_at(done + GG_MBOX_BUSY_OFF), memory_order_relaxed);
    if (GG_MBOX_ACK_TAG(lo) == tag && GG_MBOX_ACK_TAG(hi) == tag && GG_MBOX_ACK_TAG(b) == tag) {
      *seen = (hi & 0xffffffffu) << 32 | (lo & 0xffffffffu);
      *busy = b & 0xffffffffu;
      return 1;
    }
  }
  return 0;
}

void ggr_mbox_abort(ggr_mbox *mb)
{
  atomic_store_explicit(u64_at(mb->base + GG_MBOX_ABORT_OFF), 1, memory_order_release);
  /* The kernel polls the slot of the first frame not yet posted (or is
   * busy with a posted one and polls that slot afterwards). */
  char *slot = ggr_mbox_slot(mb, ggr_mbox_slot_of(mb, mb->started + 1));
  atomic_store_explicit(u64_at(slot), GG_MBOX_WORD_ABORT, memory_order_release);
}

void ggr_mbox_heartbeat(ggr_mbox *mb, uint64_t stale_ns)
{
  atomic_store_explicit(u64_at(mb->base + GG_MBOX_STALE_OFF), stale_ns, memory_order_relaxed);
  atomic_fetch_add_explicit(u64_at(mb->base + GG_MBOX_HEARTBEAT_OFF), 1, memory_order_release);
}

uint32_t ggr_mbox_state(const ggr_mbox *mb)
{
  return atomic_load_explicit(u32_at(mb->base + GG_MBOX_STATE_OFF), memory_order_acquire);
}

uint32_t ggr_mbox_exit_reason(const ggr_mbox *mb)
{
  return atomic_load_explicit(u32_at(mb->base + GG_MBOX_REASON_OFF), memory_order_acquire);
}

_Static_assert(GG_TEAM_MAX <= GG_MBOX_WAITING_MAX, "gg_protocol.h: a waiting byte per rank");
_Static_assert(GG_MBOX_WAITING_OFF + GG_MBOX_WAITING_MAX <= GG_MBOX_SLOTS_OFF,
               "gg_protocol.h: the waiting bytes fit the status line");

int ggr_mbox_waiting(const ggr_mbox *mb, int gpus, char *out, size_t n)
{
  int count = 0;
  size_t at = 0;
  out[0] = 0;
  for (int p = 0; p < gpus && p < (int)GG_MBOX_WAITING_MAX; p++) {
    const volatile unsigned char *b =
      (const volatile unsigned char *)(mb->base + GG_MBOX_WAITING_OFF + p);
    if (!*b)
      continue;
    if (at < n) { /* what does not fit is counted, not written */
      int w = snprintf(out + at, n - at, "%s%d", count ? ", " : "", p);
      at += w > 0 ? (size_t)w : 0;
    }
    count++;
  }
  return count;
}

uint64_t ggr_mbox_frames_run(const ggr_mbox *mb)
{
  return atomic_load_explicit(u64_at(mb->base + GG_MBOX_FRAMES_OFF), memory_order_acquire);
}
