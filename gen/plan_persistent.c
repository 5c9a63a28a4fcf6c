/*
 * plan_persistent.c - the shape of a persistent kernel on one target: its
 * block, pseudo-blocks (groups) and their threads, shared memory, and
 * each command's workspace on the virtual grid, checked against the
 * target's limits and every command's stored plan.
 *
 * The runtime reads these figures from the descriptor (gg_persistent_desc)
 * and the rendered kernel from the same struct, so the two always agree.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "patterns.h"
#include "gg_protocol.h"
#include "plan.h"

static int fail(ggi_diag *d, const ggi_module *m, const ggi_persistent *p, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(ggi_diag *d, const ggi_module *m, const ggi_persistent *p, const char *fmt, ...)
{
  char what[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return ggi_fail_at(d, m->file, p->line, "persistent \"%s\": %s", p->name, what);
}

#define DEFAULT_THREADS 256 /* per pseudo-block when neither side says */
#define HIP_GROUP_MAX 32    /* a HIP pseudo-block is one wavefront (the prelude's gg_sync) */

static void why(ggi_persistent_shape *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why(ggi_persistent_shape *s, const char *fmt, ...)
{
  if (s->nwhy >= (int)(sizeof s->why / sizeof s->why[0])) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->why[s->nwhy++], sizeof s->why[0], fmt, ap);
  va_end(ap);
}

/* The most threads per (pseudo-)block a command's body works with, 0 for
 * any: its plan's max_threads (a scan's tile, a tree's slots, a team), a
 * frame's the smallest of its stages'.  Stages are kernels, planned before
 * any frame, so a frame's schedule (frame_schedule.c) and the shape here read the
 * same figures. */
static int command_max_threads(const ggi_module *m, const ggi_kernel *k)
{
  int mx = 0;
  if (ggi_pattern_is(k, GGI_PAT_CHAIN)) {
    for (int s = 0; s < k->frame->nstages; s++) {
      const int v = command_max_threads(m, ggi_frame_stage(k->frame, s));
      if (v > 0 && (mx == 0 || v < mx)) mx = v;
    }
    return mx;
  }
  const ggi_plan *p = ggi_plan_of(k, ggi_desc_target(k->targets)); /* cuda and hip agree (plan.c) */
  return p ? p->max_threads : 0;
}

/* Threads per pseudo-block when the workload file gives no block: the
 * largest block its commands were specialized for, so each body gets at
 * least the threads it was planned with - but no more than a command's
 * body works with (a frame whose scan is sized for 256 threads next to a
 * reduction of 1024 gets 256). */
static int command_threads(const ggi_module *m, const ggi_persistent *p, const char **from,
                           int *capped)
{
  int t = 0, cap = 0;
  *capped = 0;
  const char *cap_from = NULL;
  *from = NULL;
  for (int i = 0; i < p->ncommands; i++) {
    const ggi_kernel *k = &m->kernels[p->command_index[i]];
    int b = k->spec.block ? k->spec.block : k->block;
    if (b > t) {
      t = b;
      *from = k->name;
    }
    const int mx = command_max_threads(m, k);
    if (mx > 0 && (cap == 0 || mx < cap)) {
      cap = mx;
      cap_from = k->name;
    }
  }
  if (cap > 0 && t > cap) {
    t = cap;
    *from = cap_from;
    *capped = 1;
  }
  return t ? t : DEFAULT_THREADS;
}

/* Which of a frame command's stages a figure of the frame's plan came
 * from, as " (its stage j, kernel \"name\")" in buf ("" for a kernel, or
 * when no stage has it): by what, the stage's min_threads, max_threads or
 * shared_bytes equal to value, or (GGI_CAUSE_WARPS) a whole-block stage
 * whose thread count is not whole warps.  Messages name the cause. */
enum { GGI_CAUSE_MIN, GGI_CAUSE_MAX, GGI_CAUSE_SMEM, GGI_CAUSE_WARPS };
static const char *cause(const ggi_kernel *k, unsigned target, int by, long value, char *buf,
                         size_t size)
{
  buf[0] = 0;
  for (int j = 0; k->frame && j < k->frame->nstages; j++) {
    const ggi_kernel *st = ggi_frame_stage(k->frame, j);
    const ggi_plan *sp = ggi_plan_of(st, target);
    if (!sp) continue;
    long got = by == GGI_CAUSE_MIN ? sp->min_threads : by == GGI_CAUSE_MAX ? sp->max_threads
               : by == GGI_CAUSE_SMEM ? (long)sp->shared_bytes
               : sp->whole_block && sp->min_threads % 32 ? value : -1;
    if (got == value) {
      snprintf(buf, size, " (its stage %d, kernel \"%s\")", j, st->name);
      break;
    }
  }
  return buf;
}

/* Each command as it runs inside this kernel: its body must work with a
 * pseudo-block of group_threads threads, its shared memory fits the
 * group's share, and its workspace is for the virtual grid (blocks x
 * groups pseudo-blocks), whose block count only the device knows: the
 * descriptor carries the per-block figure. */
static int plan_commands(const ggi_module *m, const ggi_persistent *p, unsigned target,
                         ggi_persistent_shape *s, ggi_diag *d)
{
  uint32_t smem = 0;
  const ggi_kernel *smem_from = NULL; /* the command with the most shared memory */
  for (int i = 0; i < p->ncommands; i++) {
    const ggi_kernel *k = &m->kernels[p->command_index[i]];
    const ggi_plan *kp = ggi_plan_of(k, target);
    if (!kp)
      return fail(d, m, p, "command \"%s\" does not target %s", k->name,
                  target == GGI_TARGET_HIP ? "hip" : "cuda");
    const ggi_plan plan = *kp;
    char lo[160], hi[160]; /* the frame stage behind plan.min_threads / max_threads */
    cause(k, target, GGI_CAUSE_MIN, plan.min_threads, lo, sizeof lo);
    cause(k, target, GGI_CAUSE_MAX, plan.max_threads, hi, sizeof hi);
    if (plan.whole_block && s->groups == 1 && s->group_threads != plan.min_threads)
      return fail(d, m, p,
                  "command \"%s\"%s runs a MathDx block GEMM or FFT on exactly %d threads (the "
                  "kernel's block), but a block here has %d: give this persistent kernel block = "
                  "%d, or the kernel block = %d (an fft: when cuFFTDx has that thread count for "
                  "its size; a wrong block lists the counts it has)",
                  k->name, lo, plan.min_threads, s->block, plan.min_threads, s->block);
    if (plan.min_threads > 0 && s->group_threads < plan.min_threads) {
      if (plan.min_threads * s->groups > GG_BLOCK_THREADS_MAX) /* block = team x groups */
        return fail(d, m, p,
                    "command \"%s\"%s is a team of %d threads (team_size), but a pseudo-block "
                    "here has %d (block %d / groups %d), and %d groups of %d make more than "
                    "the %d threads of a block: give groups at most %d, or a smaller "
                    "team_size",
                    k->name, lo, plan.min_threads, s->group_threads, s->block, s->groups, s->groups,
                    plan.min_threads, GG_BLOCK_THREADS_MAX, GG_BLOCK_THREADS_MAX / plan.min_threads);
      return fail(d, m, p,
                  "command \"%s\"%s is a team of %d threads (team_size), but a pseudo-block here "
                  "has %d (block %d / groups %d): a team must have all its threads; give "
                  "block = %d x groups",
                  k->name, lo, plan.min_threads, s->group_threads, s->block, s->groups,
                  plan.min_threads);
    }
    if (ggi_plan_exact(&plan) && s->group_threads != plan.min_threads)
      return fail(d, m, p,
                  "command \"%s\"%s runs on exactly %d threads per pseudo-block (a team's "
                  "team_size), but a pseudo-block here has %d (block %d / groups %d): give this "
                  "persistent kernel block = %d x groups",
                  k->name, hi, plan.min_threads, s->group_threads, s->block, s->groups,
                  plan.min_threads);
    if (plan.max_threads > 0 && s->group_threads > plan.max_threads)
      return fail(d, m, p,
                  "command \"%s\"%s sizes its shared memory for %d threads per block, but a "
                  "pseudo-block here has %d (block %d / groups %d); give the kernel block = %d "
                  "(team: team_size = %d), or this persistent kernel block = %d x groups",
                  k->name, hi, plan.max_threads, s->group_threads, s->block, s->groups,
                  s->group_threads, s->group_threads, plan.max_threads);
    if (plan.whole_block && s->groups > 1)
      return fail(d, m, p,
                  "command \"%s\"%s needs whole hardware blocks (a cuBLASDx block GEMM or "
                  "cuFFTDx block FFT synchronizes the block with __syncthreads), but this kernel splits each block "
                  "into groups = %d pseudo-blocks: use layout \"one_block\" or \"many_blocks\"",
                  k->name, lo, s->groups);
    if (plan.shared_bytes > smem) {
      smem = plan.shared_bytes;
      smem_from = k;
    }
    s->cmd[i].ws_fixed = plan.ws_fixed;
    s->cmd[i].ws_per_block = plan.ws_per_block;
    s->cmd[i].min_threads = plan.min_threads;
    s->cmd[i].max_threads = plan.max_threads;
    if (plan.args.size > s->slot_bytes)
      s->slot_bytes = plan.args.size;
  }
  s->group_smem = (smem + 15u) & ~15u;
  uint64_t total = (uint64_t)s->group_smem * (uint64_t)s->groups;
  if (total > ggi_shared_limit(target)) {
    char st[160];
    cause(smem_from, target, GGI_CAUSE_SMEM, (long)smem, st, sizeof st);
    return fail(d, m, p,
                "needs %llu bytes of shared memory per block (groups %d x %u, what command "
                "\"%s\"%s takes); a %s block holds at most %u: give fewer groups, or that "
                "command a smaller block",
                (unsigned long long)total, s->groups, (unsigned)s->group_smem, smem_from->name,
                st, target == GGI_TARGET_HIP ? "HIP (AMD LDS)" : "CUDA",
                (unsigned)ggi_shared_limit(target));
  }
  s->shared_bytes = (uint32_t)total;
  const unsigned words = GG_MBOX_WORDS(s->slot_bytes);
  s->ring_batch = words <= 16 ? (int)(32u / words) : 1;
  why(s, "shared memory %u bytes per pseudo-block: the largest command's, rounded to 16; "
         "mailbox slot %u bytes: the largest command's argument struct",
      (unsigned)s->group_smem, (unsigned)s->slot_bytes);
  why(s, "a ring (buffering 2 or more, here or at gg_session_open) reads up to %d slot%s in one "
         "poll (%u tagged words per slot, 32 per warp-wide read); one slot is read alone",
      s->ring_batch, s->ring_batch > 1 ? "s" : "", words);
  return 0;
}

/* A MathDx block GEMM or FFT runs on exactly its block of threads and
 * synchronizes it with __syncthreads, and a persistent kernel's block is
 * whole warps: a command (or a frame's stage) whose count is not runs as
 * a classic kernel only.  Said here, before any block rule, so that the
 * message names the cause instead of a block the file never wrote. */
static int whole_warps(const ggi_module *m, const ggi_persistent *p, unsigned target,
                       ggi_diag *d)
{
  for (int i = 0; i < p->ncommands; i++) {
    const ggi_kernel *k = &m->kernels[p->command_index[i]];
    const ggi_plan *kp = ggi_plan_of(k, target);
    if (!kp || !kp->whole_block || kp->min_threads % 32 == 0) continue;
    char stage[160];
    cause(k, target, GGI_CAUSE_WARPS, kp->min_threads, stage, sizeof stage);
    return fail(d, m, p,
                "command \"%s\"%s runs a MathDx block GEMM or FFT on exactly %d threads, which "
                "is not whole warps, and a persistent kernel's block is a multiple of 32: such a "
                "kernel runs as a classic launch only (for an fft, a block that cuFFTDx has for "
                "the size and that is a multiple of 32, if it has one: a wrong block lists the "
                "counts)",
                k->name, stage, kp->min_threads);
  }
  return 0;
}

/* The kernel's block and groups, decided here once: the descriptor
 * carries them and the runtime reads its block_size (session.c).  Groups
 * left out = 1; block left out = command_threads() times groups.
 * Unchecked; returns the threads per pseudo-block when the block is left
 * out (else 0), *from the command that decided, *capped when that was a
 * command's body taking no more threads. */
/* A hardware block's threads: whole warps, at most the hardware's. */
static int block_fits(int block)
{
  return block >= 32 && block <= GG_BLOCK_THREADS_MAX && block % 32 == 0;
}

static int block_rule(const ggi_module *m, const ggi_persistent *p, int *block, int *groups,
                      const char **from, int *capped)
{
  *groups = ggi_arrangement_has_groups(p->arrangement) && p->groups > 0 ? p->groups : 1;
  *from = NULL;
  *capped = 0;
  if (p->block > 0) {
    *block = p->block;
    return 0;
  }
  int t = command_threads(m, p, from, capped);
  *block = t * *groups;
  return t;
}

int ggi_persistent_group_threads(const ggi_module *m, const ggi_persistent *p)
{
  int block, groups, capped;
  const char *from;
  if (p->ncommands < 1 || p->ncommands > GG_COMMANDS_MAX) return 0;
  for (int i = 0; i < p->ncommands; i++)
    if (p->command_index[i] < 0 || p->command_index[i] >= m->nkernels) return 0;
  (void)block_rule(m, p, &block, &groups, &from, &capped);
  if (!block_fits(block) || groups < 1 || block % groups) return 0;
  return block / groups;
}

/* Frames on several GPUs: how many (one count for the kernel: a session
 * runs on one team; a frame on one GPU runs beside them on each) and each
 * frame command's share of the symmetric workspace, one after the other. */
static int plan_peers(const ggi_module *m, const ggi_persistent *p, ggi_persistent_shape *s,
                      ggi_diag *d)
{
  const ggi_kernel *from = NULL;
  s->gpus = 1;
  for (int i = 0; i < p->ncommands; i++) {
    const ggi_kernel *k = &m->kernels[p->command_index[i]];
    if (!k->frame) continue;
    s->sym_off[i] = s->sym_bytes;
    s->sym_bytes += k->frame->sym_bytes;
    if (k->frame->gpus < 2) continue;
    if (from && k->frame->gpus != s->gpus)
      return fail(d, m, p, "frame \"%s\" runs on %d GPUs and frame \"%s\" on %d; a persistent "
                  "kernel's session runs on one team: give its frames one gpus, or put them in "
                  "persistent kernels of their own", from->name, s->gpus, k->name, k->frame->gpus);
    s->gpus = k->frame->gpus;
    from = k;
  }
  if (!from)
    return 0;
  /* the relay's lines first (gg_protocol.h), then the frames' shares,
     each still on its alignment */
  _Static_assert(GG_RELAY_BYTES >= GG_RELAY_DONE_OFF + 8u * GG_MBOX_WAITING_MAX &&
                     GG_RELAY_BYTES % GG_FRAME_WS_ALIGN == 0,
                 "gg_protocol.h: the relay's lines, on the exchanges' alignment");
  for (int i = 0; i < p->ncommands; i++)
    s->sym_off[i] += GG_RELAY_BYTES;
  s->sym_bytes += GG_RELAY_BYTES;
  why(s, "gpus %d (frame \"%s\"): one process per GPU; gg_session_open needs their team and "
         "allocates %llu bytes of symmetric memory on it: %u for the relay of rank 0's frames "
         "(gg_session_follow), the rest for the exchanges", s->gpus, from->name,
      (unsigned long long)s->sym_bytes, (unsigned)GG_RELAY_BYTES);
  return 0;
}

int ggi_persistent_shape_of(const ggi_module *m, const ggi_persistent *p, unsigned target,
                            ggi_persistent_shape *s, ggi_diag *d)
{
  memset(s, 0, sizeof *s);
  if (p->ncommands < 1 || p->ncommands > GG_COMMANDS_MAX)
    return fail(d, m, p, "needs 1 to %d commands, has %d", GG_COMMANDS_MAX, p->ncommands);
  for (int i = 0; i < p->ncommands; i++)
    if (p->command_index[i] < 0 || p->command_index[i] >= m->nkernels)
      return fail(d, m, p, "command %d (\"%s\") names no kernel of this file", i,
                  p->commands[i] ? p->commands[i] : "?");
  if (whole_warps(m, p, target, d)) return -1;
  s->blocks = ggi_arrangement_has_blocks(p->arrangement) ? p->blocks : 1;
  const char *from = NULL;
  int capped = 0;
  int t = block_rule(m, p, &s->block, &s->groups, &from, &capped);
  if (p->variant_of) {
    why(s, "block %d: a thread-count variant of persistent \"%s\" (fft block = \"auto\" in its "
           "commands), holding their variants on %d threads, for gg_session_tune to measure "
           "(docs/tuning.md)", s->block, m->persistent[p->variant_of - 1].name, s->block);
  } else if (p->block > 0) {
    why(s, "block %d: as written", s->block);
  } else {
    if (capped)
      why(s, "block %d: %d threads per pseudo-block, the most command \"%s\"'s body works with "
             "(its shared memory or team is sized for them), times groups (%d)", s->block, t, from,
          s->groups);
    else if (from)
      why(s, "block %d: the largest block of the commands (%d, \"%s\") times groups (%d), so "
             "every body gets at least the threads it was planned with", s->block, t, from, s->groups);
    else
      why(s, "block %d: %d threads per pseudo-block (the default) times groups (%d)", s->block, t,
          s->groups);
  }
  if (ggi_arrangement_has_groups(p->arrangement))
    why(s, "groups %d: %s; each pseudo-block of %d threads runs a command's virtual block, "
           "synchronized by %s", s->groups, p->groups > 0 ? "as written" : "left out, so 1",
        s->block / (s->groups ? s->groups : 1),
        target == GGI_TARGET_HIP ? "wavefront barriers" : "its own named barrier");
  if (ggi_arrangement_has_blocks(p->arrangement))
    why(s, "blocks %d: %s; a session may take another count (gg_session_tune, docs/tuning.md)",
        s->blocks,
        s->blocks == 0 ? "as many as are co-resident on the device (gg_session_open asks the "
                         "occupancy API), so the loop uses the whole GPU"
                       : "as written");
  else
    why(s, "one hardware block: layout %s keeps the whole loop on one SM (no grid barrier, "
           "no device-memory handshake between blocks)", ggi_arrangement_name(p->arrangement));
  if (!block_fits(s->block) && p->block <= 0 && s->groups > 1)
    return fail(d, m, p, "groups = %d pseudo-blocks of %d threads (the commands' block) make a block "
                "of %d threads, but a block holds 32 to %d, a multiple of 32: give fewer groups, or "
                "block = the whole block's threads (groups times a multiple of 32, at most %d)",
                s->groups, s->block / s->groups, s->block, GG_BLOCK_THREADS_MAX,
                GG_BLOCK_THREADS_MAX);
  if (!block_fits(s->block))
    return fail(d, m, p, "block = %d: a block holds 32 to %d threads, a multiple of 32%s",
                s->block, GG_BLOCK_THREADS_MAX, p->block > 0 ? "" : " (the commands' block)");
  if (s->block % s->groups)
    return fail(d, m, p, "block = %d does not split into groups = %d", s->block, s->groups);
  s->group_threads = s->block / s->groups;
  if (s->groups > 1 && target == GGI_TARGET_CUDA) {
    if (s->groups > GG_GROUPS_MAX)
      return fail(d, m, p, "groups = %d: CUDA has %d named barriers for pseudo-blocks",
                  s->groups, GG_GROUPS_MAX);
    if (s->group_threads % 32)
      return fail(d, m, p, "block / groups = %d threads: a pseudo-block is whole warps (32)",
                  s->group_threads);
  }
  if (s->groups > 1 && target == GGI_TARGET_HIP && s->group_threads > HIP_GROUP_MAX)
    return fail(d, m, p,
                "block / groups = %d threads: on HIP a pseudo-block is at most %d threads "
                "(one wavefront; AMD has no named barriers): give block = %d x groups (%d), "
                "or targets = { \"cuda\" }",
                s->group_threads, HIP_GROUP_MAX, HIP_GROUP_MAX, HIP_GROUP_MAX * s->groups);
  if (s->blocks < 0)
    return fail(d, m, p, "blocks = %d must be >= 0 (0 = as many as are co-resident)", s->blocks);
  if (plan_commands(m, p, target, s, d) != 0) return -1;
  return plan_peers(m, p, s, d);
}
