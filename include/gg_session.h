/*
 * gg_session.h - persistent-loop sessions: a kernel launched once and fed
 * frames through a mailbox in host-mapped pinned memory.
 *
 *   gg_session_open()      launch the persistent kernel of a module
 *   gg_session_start()     hand the GPU frame k (command + arguments)
 *   ... unrelated CPU work ...
 *   gg_session_wait()      wait, with a timeout, for the oldest frame in flight
 *   gg_session_terminate() make the kernel exit; the GPU is clean afterwards
 *
 * Frames are numbered 1, 2, 3 ... in the order they are started; frame k
 * lives in slot (k - 1) % nslots.  With one slot (single buffering) start
 * and wait alternate; with two (double buffering, as in CuPer) frame k+1
 * may be started while frame k runs; with N (a ring) up to N frames are
 * queued and the GPU drains them back to back.  A slot belongs to the host
 * from the moment its previous frame was waited for until the frame is
 * started, then to the GPU until it is waited for: gg_session_start refuses
 * (GG_ERR_STATE) when every slot is in flight, and gg_session_frame_slot()
 * says which buffer set a frame uses, so an application with N buffer sets
 * knows which one it may touch.
 *
 * Memory ordering: the host writes a slot's command and argument bytes,
 * then stores the slot's sequence number with release semantics; one
 * device thread loads it with acquire at system scope, runs the command,
 * and one thread stores the slot's acknowledgement (the frame's tag, and
 * its result if it declares one) with release at system scope, which the
 * host reads with acquire (relaxed, with no fence, when the generator saw
 * that the result is all the frame publishes: gg_protocol.h).  That one load and one store
 * are the whole critical path of the handshake.
 *
 * Nothing blocks forever: wait takes a timeout (GG_ERR_TIMEOUT, the frame
 * stays in flight), a trapped or faulting kernel becomes
 * GG_ERR_KERNEL_FAULT (the context is then lost: free it and open a new
 * one), and terminate reports a kernel that does not exit in time.  With
 * heartbeat_ms set, the kernel also exits on its own when the host stops
 * showing signs of life for that long.
 *
 * While a session's kernel runs (from gg_session_open until
 * gg_session_terminate returns GG_OK or GG_ERR_KERNEL_FAULT) it never
 * ends by itself, so on its context:
 *   - gg_device_sync is refused with GG_ERR_STATE (it would wait forever);
 *     sync a stream of your own (gg_stream_sync) instead;
 *   - gg_array_free, gg_module_free and gg_context_free must wait: the
 *     driver waits for the device before it frees memory or a module, so
 *     they would block until terminate.  Allocate and free around the
 *     session (allocate before opening it: see gg_session_open);
 *   - launches, copies and graphs on streams (and the NULL stream) do
 *     run, on the SMs the session's blocks leave free: a many_blocks or
 *     hybrid session holding every co-resident block leaves none, and a
 *     stream sync on such work then waits until terminate.
 *
 * Threads: a session has one producer.  Its calls (start, wait, run,
 * heartbeat, terminate, free, statistics) keep plain counters of frames
 * started and waited for, so one thread at a time drives it; another
 * thread may take over after a handoff that orders memory (a mutex, a
 * join).  Different sessions may be driven from different threads.  A
 * failing call leaves its detail in the calling thread's
 * gg_error_detail(), as everywhere in gg.h.
 */
#ifndef GG_SESSION_H
#define GG_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include "gg.h"
#include "gg_team.h"
#include "gg_protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gg_session gg_session;

typedef enum gg_wait_mode {
  GG_WAIT_SPIN = 0,  /* poll without pause: lowest latency, burns one core */
  GG_WAIT_YIELD = 1  /* poll, then sched_yield() between polls after spin_ns */
} gg_wait_mode;

/* Device times: for each frame the kernel reads its clock when it saw
 * the post and just before it stores the acknowledgement, and stores both
 * in the acknowledgement's line (gg_protocol.h): three posted writes and
 * two clock reads per frame.  On by default wherever statistics are
 * recorded, which they need to split a frame; GG_TIMES_OFF measures the
 * loop without them (bench/soak_bench --no-device-times). */
typedef enum gg_device_times {
  GG_TIMES_AUTO = 0, /* on when stats_frames > 0 */
  GG_TIMES_ON = 1,   /* on (a deadline's callback gets the parts without statistics) */
  GG_TIMES_OFF = 2
} gg_device_times;

typedef struct gg_session_options {
  int blocks;              /* many_blocks / hybrid: 0 = as the module says */
  int buffering;           /* slots: 0 = as the module says */
  gg_wait_mode wait_mode;
  uint32_t spin_ns;        /* GG_WAIT_YIELD: spin this long first (default 20000) */
  uint32_t heartbeat_ms;   /* 0: off; else the kernel exits when the host's
                              heartbeat is older than this */
  uint32_t terminate_ms;   /* how long terminate waits for a clean exit (default 1000) */
  uint64_t stats_frames;   /* 0: no statistics; else record up to this many frames
                              (UINT64_MAX: all); memory is fixed whatever the count */
  uint32_t stats_tail;     /* frames kept exactly, the largest (0: stats_frames, at
                              most 16384): see gg_session_tails */
  gg_device_times device_times; /* the GPU's clock per frame (GG_TIMES_AUTO: with statistics) */
  uint32_t open_timeout_ms; /* how long open waits for the kernel to run (default 10000):
                               its blocks wait for SMs other kernels hold */
  gg_team *team;           /* a kernel whose frames run on N GPUs (gpugen: gpus = N): the
                              team of its N processes, one per GPU (gg_team.h), opened on
                              the module's context; NULL otherwise */
  int relay;               /* on a team, rank 0 only: 1 = its kernel hands each frame to
                              the other ranks' kernels, whose hosts follow it
                              (gg_session_follow) instead of posting; 0: every rank
                              posts its own frames */
} gg_session_options;

/* Launch persistent kernel `name` (NULL: the module's first) of a loaded
 * module, with options opt (NULL: the defaults, as all zeros).  Allocate the arrays its frames use before opening: tools such
 * as compute-sanitizer check a kernel against the allocations that existed
 * when it was launched.  many_blocks and hybrid are refused with GG_ERR_NOT_CORESIDENT
 * when the device cannot hold every block at once (a grid barrier across
 * blocks that are not all resident would deadlock).  The descriptor's
 * figures (block, groups, slot and shared-memory sizes, each command's
 * workspace and thread bounds) are used as the generator wrote them; a
 * descriptor whose figures disagree with its commands is refused with
 * GG_ERR_INVALID.  Each command that needs a workspace gets one of the
 * session's own, zero-filled, sized for this kernel's virtual grid.
 * GG_ERR_TIMEOUT when the kernel was not running after open_timeout_ms:
 * its blocks got no SMs, because other kernels hold them (another
 * session on this context, or on a context sharing its SMs; the driver
 * cannot tell in advance whether blocks fit beside another kernel's).
 * The refused kernel stays queued, aborted: it exits as soon as it gets
 * SMs, and until then the device counts it as running (module loads
 * refused, frees put off: docs/isolation.md)
 *
 * Frames on several GPUs (a kernel whose frames declare gpus = N, its
 * descriptor's gpus and sym_bytes): every process of the team opens its
 * own GPU's session with options.team, and posts its own GPU's frames
 * (nothing else of the protocol changes: each GPU's frame is done when its
 * host has its acknowledgement).  Without a team, or with a team of
 * another size, open refuses with GG_ERR_INVALID, naming both.  Open
 * allocates the kernel's symmetric workspace on the team
 * (gg_team_array_alloc) and gg_session_free frees it: both are
 * collective, so every rank opens and frees its sessions of such kernels
 * in the same order.  A session whose kernel may still be running when it
 * is freed (terminate timed out) leaves its symmetric memory to
 * gg_team_free.
 *
 * Or one host posts for the whole team (docs/multi-gpu.md, the relay):
 * rank 0 opens with options.relay = 1 and posts every frame; each other
 * rank opens its session as usual and calls gg_session_follow once.  Rank
 * 0's kernel then hands each frame to the others' kernels over NVLink,
 * and acknowledges its host once every rank has run it: a wait on rank 0
 * is the frame on every GPU. */
gg_status gg_session_open(gg_module *mod, const char *name, const gg_session_options *opt,
                          gg_session **out);

/* Rank r > 0 of a team whose rank 0 relays (options.relay): from now on
 * this session's kernel runs command `cmd` with these arguments once for
 * each frame of that command rank 0's host posts, without this host
 * posting again (rank 0's frames of other commands run on rank 0 alone,
 * so a frame on several GPUs that a rank does not follow waits for it
 * until rank 0's wait times out).  Arrays and scalars stay as given: this
 * host learns nothing of each frame, so a rank's inputs come through the
 * frame's exchanges, or are written before it follows (its outputs are
 * read after terminate, or sent to rank 0 by an exchange); the hidden
 * sequence number is renewed each frame.  After it the session takes no
 * start or wait (GG_ERR_STATE): gg_session_terminate ends it.
 * GG_ERR_INVALID on rank 0, off a team, for a kernel whose frames run on
 * one GPU, or in a module with no exchange; GG_ERR_STATE with frames in
 * flight. */
gg_status gg_session_follow(gg_session *s, int cmd, const gg_arg *args, int nargs);

/* The command id of workload `name` in this session (0 .. ncommands-1). */
gg_status gg_session_command(gg_session *s, const char *name, int *cmd);
int gg_session_ncommands(const gg_session *s);
int gg_session_nslots(const gg_session *s);
int gg_session_blocks(const gg_session *s);    /* hardware blocks launched */

/* Start the next frame: command `cmd` with arguments as for gg_launch()
 * (they are packed into the slot's argument struct).  Returns the frame's
 * number in *frame (may be NULL).  Refusals post nothing; in the order
 * checked:
 *   GG_ERR_STATE      the session is terminated (or its context lost);
 *   GG_ERR_NOT_FOUND  cmd is not a command id of this session (0 ..
 *                     gg_session_ncommands() - 1; gg_session_command
 *                     gives the id of a name);
 *   GG_ERR_STATE      every slot holds a frame in flight: wait first;
 *   GG_ERR_INVALID    an argument, or nargs, does not fit the command (as
 *                     gg_pack_args: exactly its count of arguments).
 * Arrays: any view takes a device, mapped or managed array, whatever space
 * the workload declares for it, and the reverse (a device array for a
 * view declared mapped) is taken too.  A frame whose acknowledgement is
 * stored with release at system scope - every kernel command, and every
 * frame without `result` or that also writes a view declared mapped,
 * managed or host - takes a mapped array even for a view declared in
 * device memory, and its writes there are visible to the host once the
 * wait returns.  A frame with a relaxed acknowledgement (its result is all
 * it publishes: gg_protocol.h, gpugen explain says "ack relaxed") refuses
 * with GG_ERR_INVALID any array but a GG_SPACE_DEVICE one for a view it
 * writes other than the result, since nothing would order those writes
 * before the wait; views it only reads take any array. */
gg_status gg_session_start(gg_session *s, int cmd, const gg_arg *args, int nargs,
                           uint64_t *frame);
/* The same with an already packed argument struct (gg_pack_args), the
 * cheapest start.  args == NULL: the slot keeps the arguments it had.
 * The same GG_ERR_STATE and GG_ERR_NOT_FOUND refusals; GG_ERR_INVALID
 * when size is larger than a slot.  It sees only pointers, so it cannot
 * check arrays: the relaxed-acknowledgement refusal above is
 * gg_session_start's alone (pack for such a frame with device arrays).
 * Hidden fields (GG_PARAM_HIDDEN: a reduction's workspace, a scan's
 * launch sequence) belong to the session: whatever the packed struct
 * holds there is replaced with the session's own values for this command
 * (its workspace is sized for the persistent kernel's grid), so the
 * output of gg_pack_args can be passed as it is. */
gg_status gg_session_start_packed(gg_session *s, int cmd, const void *args, size_t size,
                                  uint64_t *frame);
/* Wait for the oldest frame in flight; timeout_ns < 0 waits forever (but
 * still notices a dead kernel).  GG_ERR_TIMEOUT leaves it in flight. */
gg_status gg_session_wait(gg_session *s, int64_t timeout_ns);
/* The result of the frame waited for last, when its command declares one
 * (a frame's `result = "view"`: at most 8 bytes, returned inside the
 * frame's acknowledgement, gg_protocol.h): size must be the result's size
 * (4 for f32 / i32 / u32, 8 for f64 / i64 / u64, 2 for f16 / bf16).
 * GG_ERR_STATE when no frame was waited for yet or its command has no
 * result; GG_ERR_INVALID when size differs.  E.g.
 *   float e; gg_session_wait(s, -1); gg_session_result(s, &e, sizeof e); */
gg_status gg_session_result(const gg_session *s, void *out, size_t size);
/* start + wait. */
gg_status gg_session_run(gg_session *s, int cmd, const gg_arg *args, int nargs,
                         int64_t timeout_ns);
/* Frames started, and frames waited for. */
uint64_t gg_session_started(const gg_session *s);
uint64_t gg_session_completed(const gg_session *s);
/* The slot (= buffer set) frame k uses: (k - 1) % nslots. */
int gg_session_frame_slot(const gg_session *s, uint64_t frame);
/* Show the kernel the host is alive (start and wait do it too). */
void gg_session_heartbeat(gg_session *s);

/* Make the kernel exit (abort flag), wait up to terminate_ms for it.
 * Returns GG_OK after a clean exit (open a new session at once);
 * GG_ERR_KERNEL_FAULT when the kernel had trapped or faulted (free the
 * context and open a new one); GG_ERR_TIMEOUT when a command is still
 * running and never returned (or its blocks still wait for SMs): the
 * driver cannot reset a context while its kernel runs
 * (cuDevicePrimaryCtxReset did not return, seen on an H100), so until the
 * kernel ends the device refuses module loads and puts off frees; freeing
 * the session and its context is safe (nothing blocks).  Idempotent. */
gg_status gg_session_terminate(gg_session *s);
/* Terminate if needed, then free. */
void gg_session_free(gg_session *s);

/* ---- per-frame statistics (recorded only when stats_frames > 0) ---- */

/* Where a frame's time goes.  Host and GPU clocks differ by an offset,
 * estimated from the frames of smallest round trip, assuming the way to
 * the GPU and the way back take as long there (NTP); it is re-estimated
 * every 1024 timed frames, as the clocks drift apart.  The GPU part is
 * exact (one clock); to_gpu and to_host are as good as that assumption.
 * A release acknowledgement's fence (gg_protocol.h) counts in to_host. */
typedef enum gg_part {
  GG_PART_TO_GPU = 0,  /* the host's start -> the GPU saw the post */
  GG_PART_GPU = 1,     /* the GPU saw it -> just before it stored the ack */
  GG_PART_TO_HOST = 2, /* -> the host's wait saw the ack */
  GG_NPARTS = 3,
  GG_PART_UNKNOWN = 3  /* the frame brought no device times */
} gg_part;
/* "to_gpu", "gpu", "to_host", "unknown". */
const char *gg_part_name(gg_part p);

/* One frame. */
typedef struct gg_frame_time {
  uint64_t frame;                /* its number */
  double total_ns;               /* start -> the end of its wait */
  double part_ns[GG_NPARTS];     /* its parts (0 without device times); they sum to total */
  gg_part late;                  /* the part furthest above its median */
  uint64_t device_seen_ns;       /* the device's clock when the GPU saw the post (0: none) */
} gg_frame_time;

typedef struct gg_part_stats {
  double mean_ns, p50_ns, p99_ns, p999_ns, p9999_ns, max_ns;
} gg_part_stats;

typedef struct gg_stats {
  uint64_t count;          /* frames recorded */
  double mean_ns, p50_ns, p99_ns, p999_ns, p9999_ns, max_ns, min_ns;
  double jitter_ns;        /* max - mean */
  double p999999_ns;       /* p99.9999 */
  uint64_t exact_from;     /* percentiles of rank > exact_from are exact, the
                              others within 0.4 % (a histogram bucket's middle) */
  /* The split, over the frames that brought device times: */
  uint64_t timed;
  gg_part_stats part[GG_NPARTS];
  double offset_ns;        /* GPU clock - host clock, the latest estimate */
  double min_rtt_ns;       /* the smallest round trip (total - GPU part) */
  double offset_rtt_ns;    /* the round trip of the frame the offset came from:
                              the offset is right within half of it */
  double clock_step_ns;    /* every device time seen is a multiple of this */
  double busy_min_ns;      /* the smallest nonzero GPU part */
  /* Tails: the exactly kept frames above p99.9, by the part that made
   * each late (index GG_PART_UNKNOWN: no device times). */
  uint64_t tail_over_p999; /* how many of those there are */
  uint64_t tail_late[GG_NPARTS + 1];
  int tails_cover_p999;    /* 1 when every frame above p99.9 is kept */
  /* The deadline (gg_session_deadline): */
  uint64_t late;           /* frames over it */
  gg_frame_time late_worst; /* the worst of them */
  uint64_t late_by[GG_NPARTS + 1]; /* ... by the part that made each late */
} gg_stats;

/* Latency of each frame from start to the end of its wait, and its split.
 * GG_ERR_STATE when the session records no statistics. */
gg_status gg_session_stats(gg_session *s, gg_stats *out);
void gg_session_stats_reset(gg_session *s);
/* Histogram as CSV "bucket_lo_ns,bucket_hi_ns,count,to_gpu,gpu,to_host"
 * with buckets of bucket_ns (0: 100 ns), for plotting: count is of frame
 * totals, the other three of each part.  Read from a histogram of 128
 * buckets per power of two, each counted in the bucket of its middle. */
gg_status gg_session_histogram_csv(gg_session *s, FILE *f, uint32_t bucket_ns);
/* The frames kept exactly (stats_tail of them, the largest), largest
 * first, each with its parts and the part that made it late against the
 * medians of the run; *n gets how many were written.  With 16384 (the
 * most kept by default) every frame above p99.99 of a 1.6e8-frame run is
 * there; keep count / 1000 + 1 to have every frame above p99.9. */
gg_status gg_session_tails(gg_session *s, gg_frame_time *out, size_t max, size_t *n);
/* The same as CSV "frame,total_ns,to_gpu_ns,gpu_ns,to_host_ns,late". */
gg_status gg_session_tails_csv(gg_session *s, FILE *f);

/* ---- a deadline per session ---- */

/* Frames whose start -> wait takes longer than deadline_ns are late:
 * counted (gg_session_late, gg_stats.late, late_worst, late_by), and fn
 * (may be NULL) is called from the gg_session_wait that saw it, in that
 * thread, with the frame's times (the parts need device times).  The
 * kernel stores a frame's device times just after its acknowledgement:
 * when they have not landed as the wait returns (rare; often under a
 * tool such as compute-sanitizer), the frame is counted, and fn called,
 * from the next start, wait or statistics call instead.  Keep fn short:
 * the next frame waits for it.  GG_ERR_INVALID for deadline_ns <= 0;
 * INT64_MAX turns the deadline off. */
typedef void (*gg_late_fn)(void *user, const gg_frame_time *t);
gg_status gg_session_deadline(gg_session *s, int64_t deadline_ns, gg_late_fn fn, void *user);
/* Frames late so far (0 without a deadline): a flag the app polls. */
uint64_t gg_session_late(const gg_session *s);
/* The times of the frame recorded last (the one waited for last, or the
 * one before it while its device times are still on their way, as
 * above).  GG_ERR_STATE when no frame
 * was timed (statistics, a deadline or device times on) or none waited
 * for yet. */
gg_status gg_session_last_frame(const gg_session *s, gg_frame_time *out);

/* Statistics of any array of samples (sorted in place). */
void gg_stats_compute(double *ns, uint64_t n, gg_stats *out);
/* The CSV histogram of any array of samples (left unchanged). */
gg_status gg_stats_histogram_csv(const double *ns, uint64_t n, FILE *f, uint32_t bucket_ns);

/* ---- tuning: which persistent kernel, command and block count (docs/tuning.md) ----
 *
 * A frame's best arrangement depends on the device and the sizes: one
 * block beats the whole GPU at 32K floats and loses at 1M, a GEMM's best
 * tile differs between products.  gg_session_tune measures the
 * candidates on this device with the caller's own arguments and returns
 * the fastest; open it with
 *   gg_session_options o = {0}; o.blocks = t.blocks;
 *   gg_session_open(mod, t.kernel, &o, &s);  gg_session_command(s, t.command, &cmd);
 *
 * The candidates: every persistent kernel of the module (or those named in
 * opt->kernels) that has `command` (or one of opt->alternatives: commands
 * that compute the same from the same arguments, e.g. one gemm declared on
 * two tiles), each many_blocks / hybrid kernel at each count that fits
 * among: all co-resident blocks, two per SM, one per SM, 1/2, 1/4 and 1/8
 * of the SM count, its declared `blocks`, and the powers of two from 8.
 * At most GG_TUNE_ROWS candidates, in that order (the rest are counted in
 * left_out, not tried).  Kernels whose frames run on several GPUs are left
 * out (a team tunes nothing alone).
 *
 * Each candidate runs in up to three bursts, the candidates in turn (the
 * order rotated each round, so neither the machine's drift nor the order
 * of opening favours one): a session of one slot, 10 + n / 10 untimed
 * frames, then n timed ones, start to wait on the host's clock.  The
 * first burst screens (n = frames / 6): a candidate whose p50 there is
 * over 1.15x the best one's runs no more (its figures are that burst's);
 * the others run two bursts more, sharing the rest of the frames.  The
 * lowest p50 of the pooled samples wins (ties: the earlier candidate).
 * THE FRAMES RUN ON THE CALLER'S
 * ARRAYS: tuning overwrites what the command writes, and a command that
 * accumulates (y += ...) has run many times when it returns; tune on
 * scratch arrays of the real sizes, or restore the data afterwards.
 *
 * The choice is kept as a record in the kernel cache's folder (gg.h:
 * GG_CACHE_DIR), keyed by the module's binary (source, compiler, driver),
 * the device (name, SM count), the candidates and the arguments' shape
 * (every integer argument's value, every array's space and size; not the
 * floating-point scalars): the next call with that key reads the record
 * and measures nothing; another device, driver, source or size measures
 * again.  A record that does not parse, names no candidate of the key, or
 * holds an impossible figure is ignored, measured again and rewritten;
 * the cache folder's own rules (gg.h) keep other users' files out.
 *
 * Tuning off (opt->off, or GG_TUNE=off in the environment): nothing is
 * measured or read; the choice is `command` itself (not an alternative or
 * a variant) on the first persistent kernel that has it, as the module
 * declares it (blocks 0), the same on every run.
 *
 * Errors: GG_ERR_NOT_FOUND when no candidate has the command;
 * GG_ERR_INVALID when the arguments do not fit a candidate's command (as
 * gg_session_start); a frame that does not end within frame_timeout_ms
 * stops the tuning with GG_ERR_TIMEOUT (its session terminated; if the
 * kernel would not exit, the detail says the device is still held); a
 * faulting candidate stops it with GG_ERR_KERNEL_FAULT (the context is
 * lost: free it).  A candidate that cannot be opened because its blocks
 * do not fit (GG_ERR_NOT_CORESIDENT) is skipped and shown as such.  Tune
 * before opening other sessions on the context: a running session holds
 * SMs the candidates would wait for. */
typedef struct gg_tune_options {
  const char *const *kernels;      /* NULL-terminated persistent kernel names; NULL: all */
  const char *const *alternatives; /* NULL-terminated commands tried beside `command` */
  uint32_t frames;                 /* timed frames a candidate, over its bursts (0: 600; at
                                      most 20000) */
  uint32_t budget_ms;              /* the call's time (0: 2000): a burst stops once it is
                                      spent, an open waits for SMs at most the time left; the
                                      candidates not reached are shown so, and nothing is
                                      recorded */
  uint32_t frame_timeout_ms;       /* one frame's limit (0: 2000; at most 600000) */
  int off;                         /* 1: no tuning: the deterministic default */
  int retune;                      /* 1: measure even when a record exists (and rewrite it) */
} gg_tune_options;

#define GG_TUNE_ROWS 128 /* candidates measured at most (the rest are not tried) */

typedef enum gg_tune_state {
  GG_TUNE_MEASURED = 0, /* p50_ns / mean_ns hold its figures */
  GG_TUNE_NO_FIT,       /* its blocks cannot all be resident: not run */
  GG_TUNE_NOT_REACHED   /* the budget was spent before it */
} gg_tune_state;

typedef struct gg_tune_row {
  const char *kernel;   /* names point into the module's descriptor */
  const char *command;
  int blocks;           /* hardware blocks (1 for one_block and thread_groups) */
  gg_tune_state state;
  double p50_ns, mean_ns;
} gg_tune_row;

typedef enum gg_tune_source {
  GG_TUNE_FROM_MEASURING = 0, /* measured by this call (and recorded where the cache is on) */
  GG_TUNE_FROM_RECORD,        /* read from the record: nothing measured */
  GG_TUNE_FROM_DEFAULT        /* tuning off */
} gg_tune_source;

typedef struct gg_tuned {
  const char *kernel;   /* the choice */
  const char *command;
  int blocks;           /* for gg_session_options.blocks (0: as the module says) */
  gg_tune_source source;
  double tune_ms;       /* wall time of this call */
  int nrows;            /* the candidates, in the order tried */
  int left_out;         /* candidates past GG_TUNE_ROWS, not tried */
  gg_tune_row row[GG_TUNE_ROWS];
  char note[256];       /* what happened to the record ("record written", "the record was
                           ignored (...)", ...) and to the measuring ("2 cut short ...") */
} gg_tuned;

gg_status gg_session_tune(gg_module *mod, const char *command, const gg_arg *args, int nargs,
                          const gg_tune_options *opt /* NULL = defaults */, gg_tuned *out);
/* The choice and every candidate's figures as a small table, e.g.
 *   tuned: "whole" command "step", 132 block(s) (measured: 3 candidates, 41 ms; ...)
 *     kernel   command  blocks     p50 us    mean us
 *     whole    step        264      4.812      4.930
 *     ... */
gg_status gg_tuned_print(const gg_tuned *t, FILE *f);
/* Blocks of persistent kernel `name` (NULL: the first) that can be
 * resident at once on the module's device: what a many_blocks or hybrid
 * session may ask for at most (1 for one_block and thread_groups). */
gg_status gg_session_max_blocks(gg_module *mod, const char *name, int *blocks);

/* ---- real-time helpers (GG_OK, or gg_error_detail() says plainly why not) ---- */

gg_status gg_rt_pin_cpu(int cpu);         /* the calling thread to one CPU */
gg_status gg_rt_lock_memory(void);        /* mlockall */
gg_status gg_rt_fifo(int priority);       /* SCHED_FIFO for the calling thread */
uint64_t gg_rt_now_ns(void);              /* CLOCK_MONOTONIC */

/* The mailbox layout and the persistent kernel's parameter
 * (gg_persist_params) are in gg_protocol.h, included above: the same text
 * gpugen pastes into every persistent kernel it renders. */

#ifdef __cplusplus
}
#endif
#endif /* GG_SESSION_H */
