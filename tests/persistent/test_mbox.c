/*
 * test_mbox.c - the mailbox handshake on plain host memory, with a host
 * thread playing the persistent kernel (the same loop as
 * templates/cuda/persistent.cuh, in C11 atomics).  Checks every frame's
 * result against a CPU reference for single, double and ring (3, 4, 7)
 * buffering and three commands (one returns its 8-byte result in the
 * acknowledgement, split over two tagged words), then abort and a stale
 * heartbeat.
 */
#include "session_mbox.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

/* The argument struct of all three commands. */
typedef struct frame_args {
  int64_t n;
  double scale;
  const double *in;
  double *out;
} frame_args;

enum { CMD_SCALE, CMD_SUM, CMD_ADD, NCMD };

typedef struct emu {
  char *mbox;
  uint32_t nslots, stride, args_size;
  uint64_t frames_run;
} emu;

static uint64_t now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static _Atomic uint64_t *u64(char *p) { return (_Atomic uint64_t *)(void *)p; }

static void run_command(uint32_t cmd, const frame_args *a)
{
  switch (cmd) {
  case CMD_SCALE:
    for (int64_t i = 0; i < a->n; i++)
      a->out[i] = a->in[i] * a->scale;
    break;
  case CMD_SUM: {
    double s = 0;
    for (int64_t i = 0; i < a->n; i++)
      s += a->in[i];
    a->out[0] = s * a->scale;
    break;
  }
  case CMD_ADD:
    for (int64_t i = 0; i < a->n; i++)
      a->out[i] = a->in[i] + a->scale;
    break;
  }
}

/* The kernel's loop: wait (acquire), run, done (release). */
static void *device(void *arg)
{
  emu *e = arg;
  uint32_t reason = 0;
  char *hb = e->mbox + GG_MBOX_HEARTBEAT_OFF;
  uint64_t hb_seen = atomic_load_explicit(u64(hb), memory_order_relaxed), hb_time = now_ns();
  atomic_store_explicit((_Atomic uint32_t *)(void *)(e->mbox + GG_MBOX_STATE_OFF),
                        GG_MBOX_STATE_RUNNING, memory_order_release);
  const uint32_t nwords = GG_MBOX_WORDS(e->args_size);
  uint32_t payload[64];
  uint64_t frame;
  for (frame = 1;; frame++) {
    char *slot = e->mbox + GG_MBOX_SLOTS_OFF + (size_t)((frame - 1) % e->nslots) * e->stride;
    uint32_t cmd;
    for (unsigned spins = 1;; spins++) {
      /* As the kernel's warp: argument words first (relaxed), then the
       * command word (acquire); every tag must be this frame's. */
      int ok = 1;
      for (uint32_t i = 1; i < nwords; i++) {
        uint64_t v = atomic_load_explicit(u64(slot + 8u * i), memory_order_relaxed);
        ok &= (uint32_t)(v >> 32) == (uint32_t)frame;
        payload[i - 1] = (uint32_t)v;
      }
      uint64_t w0 = atomic_load_explicit(u64(slot), memory_order_acquire);
      cmd = (uint32_t)w0;
      if (cmd == GG_MBOX_CMD_EXIT) {
        reason = GG_MBOX_EXIT_ABORT;
        goto out;
      }
      if (ok && (uint32_t)(w0 >> 32) == (uint32_t)frame) {
        cmd &= ~GG_MBOX_CMD_AHEAD; /* as the kernel: a hint, not the command */
        break;
      }
      if ((spins & 63u) == 0)
        sched_yield(); /* CI machines have few cores; the GPU needs no such courtesy */
      if ((spins & 1023u) == 0) {
        if (atomic_load_explicit(u64(e->mbox + GG_MBOX_ABORT_OFF), memory_order_relaxed)) {
          reason = GG_MBOX_EXIT_ABORT;
          goto out;
        }
        uint64_t stale = atomic_load_explicit(u64(e->mbox + GG_MBOX_STALE_OFF), memory_order_relaxed);
        uint64_t h = atomic_load_explicit(u64(hb), memory_order_relaxed), t = now_ns();
        if (h != hb_seen) {
          hb_seen = h;
          hb_time = t;
        } else if (stale && t - hb_time > stale) {
          reason = GG_MBOX_EXIT_STALE;
          goto out;
        }
      }
    }
    frame_args a;
    memcpy(&a, payload, sizeof a);
    run_command(cmd, &a);
    /* The acknowledgement: CMD_SUM returns its 8-byte result in it, split
     * over ack2 (first) and ack, each tagged (gg_protocol.h). */
    char *done = slot + e->stride - GG_MBOX_LINE;
    uint64_t bits = 0;
    if (cmd == CMD_SUM) {
      memcpy(&bits, a.out, sizeof bits);
      atomic_store_explicit(u64(done + GG_MBOX_ACK2_OFF), GG_MBOX_ACK(frame, bits >> 32),
                            memory_order_relaxed);
    }
    atomic_store_explicit(u64(done), GG_MBOX_ACK(frame, bits), memory_order_release);
  }
out:
  e->frames_run = frame - 1;
  memcpy(e->mbox + GG_MBOX_REASON_OFF, &reason, 4);
  memcpy(e->mbox + GG_MBOX_FRAMES_OFF, &e->frames_run, 8);
  atomic_store_explicit((_Atomic uint32_t *)(void *)(e->mbox + GG_MBOX_STATE_OFF),
                        GG_MBOX_STATE_EXITED, memory_order_release);
  return NULL;
}

typedef struct setup {
  ggr_mbox mb;
  emu e;
  pthread_t th;
  void *mem;
} setup;

static void start_device(setup *s, uint32_t nslots)
{
  size_t bytes = ggr_mbox_bytes(nslots, sizeof(frame_args));
  s->mem = aligned_alloc(GG_MBOX_LINE, bytes);
  CHECK(s->mem);
  ggr_mbox_init(&s->mb, s->mem, nslots, sizeof(frame_args));
  CHECK(s->mb.slot_stride % GG_MBOX_LINE == 0);
  CHECK(GG_MBOX_DONE_OFFSET(sizeof(frame_args)) >= 8 * GG_MBOX_WORDS(sizeof(frame_args)));
  CHECK(GG_MBOX_WORDS(sizeof(frame_args)) <= 65);
  s->e.mbox = s->mem;
  s->e.nslots = nslots;
  s->e.stride = s->mb.slot_stride;
  s->e.args_size = sizeof(frame_args);
  CHECK(pthread_create(&s->th, NULL, device, &s->e) == 0);
}

static void stop_device(setup *s)
{
  ggr_mbox_abort(&s->mb);
  pthread_join(s->th, NULL);
  CHECK(ggr_mbox_state(&s->mb) == GG_MBOX_STATE_EXITED);
  CHECK(ggr_mbox_exit_reason(&s->mb) == GG_MBOX_EXIT_ABORT);
  CHECK(ggr_mbox_frames_run(&s->mb) == s->e.frames_run);
  free(s->mem);
}

/* Per buffer set (= slot): inputs, outputs, and what the frame should give. */
typedef struct bufset {
  double *in, *out, *want;
  int64_t n;
  uint64_t frame;
} bufset;

static void prepare(bufset *b, uint64_t frame, uint32_t cmd, int64_t n, double scale)
{
  b->n = n;
  b->frame = frame;
  for (int64_t i = 0; i < n; i++)
    b->in[i] = (double)((frame * 7 + (uint64_t)i * 13) % 101) - 50.0;
  frame_args a = {n, scale, b->in, b->want};
  run_command(cmd, &a); /* the CPU reference */
  memset(b->out, 0xff, (size_t)n * sizeof *b->out);
}

/* CMD_SUM's result, as the acknowledgement returned it. */
static void verify_result(const ggr_mbox *mb, const bufset *b, uint32_t cmd)
{
  uint64_t want;
  memcpy(&want, b->want, sizeof want);
  if (cmd == CMD_SUM && mb->result != want) {
    fprintf(stderr, "frame %llu: result bits %016llx, want %016llx\n", (unsigned long long)b->frame,
            (unsigned long long)mb->result, (unsigned long long)want);
    exit(1);
  }
}

static void verify(const bufset *b, uint32_t cmd)
{
  int64_t m = cmd == CMD_SUM ? 1 : b->n;
  for (int64_t i = 0; i < m; i++)
    if (b->out[i] != b->want[i]) {
      fprintf(stderr, "frame %llu cmd %u: out[%lld] = %g, want %g\n",
              (unsigned long long)b->frame, cmd, (long long)i, b->out[i], b->want[i]);
      exit(1);
    }
}

/* Frames with varying command, size and scale; at most nslots in flight. */
static void run_frames(uint32_t nslots, int ncmd, uint64_t frames)
{
  setup s;
  start_device(&s, nslots);
  enum { NMAX = 1000 };
  bufset *sets = calloc(nslots, sizeof *sets);
  uint32_t *cmd_of = calloc(nslots, sizeof *cmd_of);
  CHECK(sets && cmd_of);
  for (uint32_t i = 0; i < nslots; i++) {
    sets[i].in = malloc(NMAX * sizeof(double));
    sets[i].out = malloc(NMAX * sizeof(double));
    sets[i].want = malloc(NMAX * sizeof(double));
    CHECK(sets[i].in && sets[i].out && sets[i].want);
  }
  uint64_t verified = 0;
  for (uint64_t f = 1; f <= frames; f++) {
    if (ggr_mbox_full(&s.mb)) {
      uint64_t oldest = s.mb.completed + 1;
      uint32_t k = ggr_mbox_slot_of(&s.mb, oldest);
      while (!ggr_mbox_poll(&s.mb, cmd_of[k] == CMD_SUM))
        sched_yield();
      verify_result(&s.mb, &sets[k], cmd_of[k]);
      verify(&sets[k], cmd_of[k]);
      verified++;
    }
    CHECK(!ggr_mbox_full(&s.mb));
    uint32_t k = ggr_mbox_slot_of(&s.mb, f);
    uint32_t cmd = (uint32_t)(f % (uint64_t)ncmd);
    int64_t n = 1 + (int64_t)((f * 37) % NMAX); /* powers of two and not */
    double scale = (double)(f % 5) - 2.0;
    prepare(&sets[k], f, cmd, n, scale);
    cmd_of[k] = cmd;
    frame_args a = {n, scale, sets[k].in, sets[k].out};
    CHECK(ggr_mbox_post(&s.mb, cmd, &a, sizeof a) == f);
  }
  while (s.mb.completed < s.mb.started) {
    uint64_t oldest = s.mb.completed + 1;
    uint32_t k = ggr_mbox_slot_of(&s.mb, oldest);
    while (!ggr_mbox_poll(&s.mb, cmd_of[k] == CMD_SUM))
      sched_yield();
    verify_result(&s.mb, &sets[k], cmd_of[k]);
    verify(&sets[k], cmd_of[k]);
    verified++;
  }
  CHECK(verified == frames);
  stop_device(&s);
  CHECK(s.e.frames_run == frames);
  for (uint32_t i = 0; i < nslots; i++) {
    free(sets[i].in);
    free(sets[i].out);
    free(sets[i].want);
  }
  free(sets);
  free(cmd_of);
  printf("slots %u, %d command(s): %llu frames correct\n", nslots, ncmd,
         (unsigned long long)frames);
}

/* Abort while frames are queued: the thread exits, nothing hangs. */
static void abort_with_queue(void)
{
  setup s;
  start_device(&s, 4);
  static double in[8], out[8];
  frame_args a = {8, 1.0, in, out};
  ggr_mbox_post(&s.mb, CMD_SCALE, &a, sizeof a);
  ggr_mbox_post(&s.mb, CMD_SCALE, &a, sizeof a);
  stop_device(&s);
  printf("abort with frames queued: exited\n");
}

/* No heartbeat for longer than the limit: the loop exits by itself. */
static void stale_heartbeat(void)
{
  setup s;
  start_device(&s, 2);
  ggr_mbox_heartbeat(&s.mb, 30u * 1000000u); /* 30 ms */
  uint64_t t0 = now_ns();
  pthread_join(s.th, NULL);
  uint64_t ms = (now_ns() - t0) / 1000000u;
  CHECK(ggr_mbox_state(&s.mb) == GG_MBOX_STATE_EXITED);
  CHECK(ggr_mbox_exit_reason(&s.mb) == GG_MBOX_EXIT_STALE);
  CHECK(ms >= 29 && ms < 5000);
  free(s.mem);
  printf("stale heartbeat: exited after %llu ms\n", (unsigned long long)ms);
}

/* The host half of the acknowledgement alone, no device thread: a frame
 * is done only when ack carries its tag, and for an 8-byte result ack2
 * too; a word still holding the slot's previous frame's tag (a store not
 * yet seen) keeps it in flight, whatever the other word says. */
static void ack_words(void)
{
  void *mem = aligned_alloc(GG_MBOX_LINE, ggr_mbox_bytes(1, 8));
  CHECK(mem);
  ggr_mbox mb;
  ggr_mbox_init(&mb, mem, 1, 8);
  char *done = ggr_mbox_slot(&mb, 0) + GG_MBOX_DONE_OFFSET(8);
  uint64_t args = 0;
  for (uint64_t f = 1; f <= 3; f++) {
    uint64_t value = 0x8000000100000002ull * f; /* both halves change per frame */
    CHECK(ggr_mbox_post(&mb, 0, &args, sizeof args) == f);
    CHECK(!ggr_mbox_poll(&mb, 1)); /* nothing stored yet */
    atomic_store(u64(done), GG_MBOX_ACK(f, value));
    CHECK(!ggr_mbox_poll(&mb, 1)); /* ack is this frame's, ack2 still the last one's */
    atomic_store(u64(done + GG_MBOX_ACK2_OFF), GG_MBOX_ACK(f, value >> 32));
    CHECK(ggr_mbox_poll(&mb, 1) && mb.completed == f && mb.result == value);
  }
  /* a 4-byte result: ack alone decides, ack2 is not looked at */
  CHECK(ggr_mbox_post(&mb, 0, &args, sizeof args) == 4);
  atomic_store(u64(done), GG_MBOX_ACK(4, 0xdeadbeefu));
  CHECK(ggr_mbox_poll(&mb, 0) && mb.completed == 4 && (uint32_t)mb.result == 0xdeadbeefu);
  /* an ack of another frame (tag 3) is not frame 5's */
  CHECK(ggr_mbox_post(&mb, 0, &args, sizeof args) == 5);
  atomic_store(u64(done), GG_MBOX_ACK(3, 0));
  CHECK(!ggr_mbox_poll(&mb, 0));
  free(mem);
}

/* GG_MBOX_CMD_AHEAD: set in word 0 exactly when the frame is posted while
 * an earlier one is in flight (frames queued ahead), next to the command. */
static void ahead_flag(void)
{
  void *mem = aligned_alloc(GG_MBOX_LINE, ggr_mbox_bytes(2, 8));
  CHECK(mem);
  ggr_mbox mb;
  ggr_mbox_init(&mb, mem, 2, 8);
  uint64_t args = 0;
  const uint32_t cmd = 3;
  for (uint64_t f = 1; f <= 6; f++) {
    /* frames 1, 2: one at a time; 3 and 4 queued; 5, 6: one at a time */
    int queued = f == 4;
    CHECK(ggr_mbox_post(&mb, cmd, &args, sizeof args) == f);
    uint64_t w0 = atomic_load(u64(ggr_mbox_slot(&mb, ggr_mbox_slot_of(&mb, f))));
    CHECK((uint32_t)(w0 >> 32) == (uint32_t)f);
    CHECK((uint32_t)w0 == (queued ? (cmd | GG_MBOX_CMD_AHEAD) : cmd));
    if (f == 3)
      continue; /* frame 4 goes while 3 is in flight */
    for (uint64_t g = mb.completed + 1; g <= f; g++) {
      char *done = ggr_mbox_slot(&mb, ggr_mbox_slot_of(&mb, g)) + GG_MBOX_DONE_OFFSET(8);
      atomic_store(u64(done), GG_MBOX_ACK(g, 0));
      CHECK(ggr_mbox_poll(&mb, 0) && mb.completed == g);
    }
  }
  free(mem);
  printf("ahead flag: set only on a frame posted with another in flight\n");
}

int main(void)
{
  ack_words();
  ahead_flag();
  const char *env = getenv("GG_FRAMES");
  uint64_t frames = env ? strtoull(env, NULL, 10) : 5000;
  if (frames < 10)
    frames = 10;
  const uint32_t slots[] = {1, 2, 3, 4, 7};
  for (size_t i = 0; i < sizeof slots / sizeof *slots; i++) {
    run_frames(slots[i], 1, frames);
    run_frames(slots[i], NCMD, frames);
  }
  abort_with_queue();
  stale_heartbeat();
  return 0;
}
