/*
 * session.c - persistent-loop sessions (include/gg_session.h).
 *
 * open:      mailbox in mapped pinned memory, device scratch, one launch on
 *            a stream of its own, then wait until the kernel says RUNNING
 *            (so a launch failure is reported by open, not by frame 1).
 * start:     pack into the slot, one release store (session_mbox.c).
 * wait:      acquire-poll the slot's done; now and then look at the clock
 *            (timeout), the stream (a trapped kernel ends its stream with
 *            an error) and the heartbeat.
 * terminate: abort, wait terminate_ms for the stream to finish; a kernel
 *            stuck in a command that never returns is reported, not reset
 *            (the driver's reset blocks until the kernel ends).
 * Each done frame's times go to session_times.c; the state both share is
 * session.h's struct gg_session.
 */
#include "describe.h"
#include "internal.h"
#include "session.h"
#include "gg_session.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPEN_TIMEOUT_MS 10000u /* open waits this long for RUNNING, by default */
#define CHECK_EVERY 64                  /* polls between clock reads in wait */
#define QUERY_EVERY_NS 1000000u         /* stream query at most once per ms */


/* The session ended with status st (the detail just recorded): a later
 * terminate returns the same status with the same detail. */
static gg_status end_with(gg_session *s, gg_status st)
{
  s->final = st;
  snprintf(s->final_detail, sizeof s->final_detail, "%s", gg_error_detail());
  return st;
}

/* The context and the device count the sessions whose kernel may still
 * run (so that gg_device_sync, module loads and frees do not wait for
 * them: device.c): from just before the launch until the kernel is seen
 * to have exited.  A kernel that never exits stays counted. */
static void count_kernel(gg_session *s, int running)
{
  if (running == s->counted)
    return;
  s->counted = running;
  __atomic_add_fetch(&s->ctx->sessions_running, running ? 1 : -1, __ATOMIC_ACQ_REL);
  if (running)
    ggr_kernel_started(s->ctx);
  else
    ggr_kernel_ended(s->ctx);
}


static const gg_persistent_desc *find_desc(const gg_module_desc *md, const char *name)
{
  for (int i = 0; i < md->npersistent; i++)
    if (!name || strcmp(md->persistent[i].name, name) == 0)
      return &md->persistent[i];
  return NULL;
}

/* A descriptor whose figures disagree with its commands' is refused: a
 * kernel run with less workspace, shared memory or threads than it was
 * generated for computes garbage or hangs. */
static gg_status bad_desc(gg_session *s, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));
static gg_status bad_desc(gg_session *s, const char *fmt, ...)
{
  char what[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return ggr_set_error(GG_ERR_INVALID, "persistent \"%s\": %s; the module does not match this "
              "runtime: regenerate it with the gpugen of this libgg", s->pd->name, what);
}

/* The command's hidden fields, checked against the plan's workspace. */
static gg_status hidden_fields(gg_session *s, int i)
{
  const gg_kernel_desc *kd = s->cmd[i]->desc;
  const gg_persistent_command *pc = &s->pd->plan[i];
  s->ws_off[i] = s->seq_off[i] = -1;
  for (int j = 0; j < kd->nparams; j++) {
    const gg_param_desc *p = &kd->params[j];
    if (p->kind != GG_PARAM_HIDDEN)
      continue;
    if (p->hidden == GG_HIDDEN_WORKSPACE && p->size == 8 && p->offset + 8u <= kd->args_size)
      s->ws_off[i] = (int)p->offset;
    else if (p->hidden == GG_HIDDEN_SEQ && p->size == 4 && p->offset + 4u <= kd->args_size)
      s->seq_off[i] = (int)p->offset;
    else
      return bad_desc(s, "command \"%s\" has a hidden field %s of kind %d, size %u",
                      kd->name, p->name ? p->name : "?", p->hidden, p->size);
  }
  int wants = pc->ws_fixed || pc->ws_per_block;
  if (wants != (s->ws_off[i] >= 0))
    return bad_desc(s, "command \"%s\" %s workspace field but its plan gives %u + %u bytes",
                    kd->name, s->ws_off[i] >= 0 ? "has a" : "has no", pc->ws_fixed,
                    pc->ws_per_block);
  return GG_OK;
}

/* A kernel whose frames run on several GPUs (pd->gpus) needs the team of
 * their processes, one per GPU, on the module's context: checked before
 * anything is allocated (the symmetric workspace comes in alloc_memory). */
static gg_status check_team(gg_session *s)
{
  const gg_persistent_desc *pd = s->pd;
  const gg_team *team = s->opt.team;
  if (s->opt.relay && (pd->gpus <= 1 || gg_team_rank(team) != 0 || !s->mod->nvshmem_init))
    return ggr_set_error(GG_ERR_INVALID, "persistent \"%s\": options.relay is for rank 0 of the "
                         "team a kernel's frames run on, in a module with an exchange (its "
                         "frames run on %d GPU%s%s)", pd->name, pd->gpus, pd->gpus == 1 ? "" : "s",
                         !team ? ", and options.team is NULL"
                         : gg_team_rank(team) != 0 ? ", and this is not rank 0"
                         : !s->mod->nvshmem_init ? ", and the module has no exchange" : "");
  if (pd->gpus <= 1)
    return GG_OK;
  if (!team)
    return ggr_set_error(GG_ERR_INVALID, "persistent \"%s\" runs frames on %d GPUs: open the "
                         "session with options.team (a team of %d processes, one per GPU: "
                         "gg_team.h)", pd->name, pd->gpus, pd->gpus);
  if (gg_team_size(team) != pd->gpus)
    return ggr_set_error(GG_ERR_INVALID, "persistent \"%s\" runs frames on %d GPUs, but "
                         "options.team has %d processes: open it on a team of %d", pd->name,
                         pd->gpus, gg_team_size(team), pd->gpus);
  if (ggr_team_context(team) != s->ctx)
    return ggr_set_error(GG_ERR_INVALID, "persistent \"%s\": options.team was opened on another "
                         "context than the module's: load the module on the team's context",
                         pd->name);
  if (pd->sym_bytes > (uint64_t)SIZE_MAX)
    return bad_desc(s, "frames on %d GPUs with %llu bytes of symmetric workspace", pd->gpus,
                    (unsigned long long)pd->sym_bytes);
  return GG_OK;
}

/* Commands, their kernels, and the slot and shared memory the descriptor
 * gives them: used as given, checked against each command. */
static gg_status resolve_commands(gg_session *s)
{
  const gg_persistent_desc *pd = s->pd;
  if (pd->ncommands < 1 || pd->ncommands > GG_COMMANDS_MAX)
    return ggr_set_error(GG_ERR_INVALID, "persistent \"%s\": %d commands (1 to %d allowed)",
                pd->name, pd->ncommands, GG_COMMANDS_MAX);
  if (!pd->commands || !pd->plan)
    return bad_desc(s, "no command list or no command plan");
  s->ncommands = pd->ncommands;
  s->args_size = pd->slot_args_size;
  s->group_smem = pd->group_smem;
  for (int i = 0; i < pd->ncommands; i++) {
    int ki = pd->commands[i];
    if (ki < 0 || ki >= s->mod->desc->nkernels)
      return ggr_set_error(GG_ERR_INVALID, "persistent \"%s\": command %d is kernel %d of %d",
                  pd->name, i, ki, s->mod->desc->nkernels);
    s->cmd[i] = &s->mod->kernels[ki];
    const gg_kernel_desc *kd = s->cmd[i]->desc;
    if (kd->args_size > s->args_size)
      return bad_desc(s, "command \"%s\" takes %u argument bytes, a slot holds %u", kd->name,
                      kd->args_size, s->args_size);
    if (kd->shared_bytes > s->group_smem)
      return bad_desc(s, "command \"%s\" needs %u bytes of shared memory, a pseudo-block "
                      "has %u", kd->name, kd->shared_bytes, s->group_smem);
    gg_status st = hidden_fields(s, i);
    if (st)
      return st;
    if (kd->result_bytes > GG_MBOX_RESULT_MAX || (kd->result_bytes &&
        (kd->result_param < 0 || kd->result_param >= kd->nparams ||
         kd->params[kd->result_param].kind != GG_PARAM_VIEW ||
         kd->params[kd->result_param].size != 8)))
      return bad_desc(s, "command \"%s\" returns a result of %u bytes from param %d", kd->name,
                      kd->result_bytes, kd->result_param);
  }
  if (s->args_size > GGR_MAX_ARGS)
    return bad_desc(s, "slots of %u argument bytes; at most %d", s->args_size, GGR_MAX_ARGS);
  s->args_size = (s->args_size + 7u) & ~7u; /* the kernel copies 8-byte words */
  if (s->args_size == 0)
    s->args_size = 8;
  return GG_OK;
}

/* The descriptor's shape (block, groups, shared memory) checked against
 * its layout and every command's thread bounds: pure arithmetic on the
 * descriptor, done before any device call. */
static gg_status check_shape(gg_session *s)
{
  const gg_persistent_desc *pd = s->pd;
  gg_persistent_layout l = pd->layout;
  int grouped = l == GG_PLAYOUT_THREAD_GROUPS || l == GG_PLAYOUT_HYBRID;
  s->groups = pd->groups > 0 ? pd->groups : 1;
  s->block = pd->block_size;
  if (s->block < 1 || s->block > GG_BLOCK_THREADS_MAX || s->block % s->groups || (!grouped && s->groups > 1))
    return bad_desc(s, "block_size %d, groups %d (layout %d)", s->block, s->groups, (int)l);
  if ((uint64_t)s->groups * s->group_smem != pd->shared_bytes)
    return bad_desc(s, "shared_bytes %u is not groups %d x group_smem %u", pd->shared_bytes,
                    s->groups, s->group_smem);
  int threads = s->block / s->groups;
  for (int i = 0; i < s->ncommands; i++) {
    const gg_persistent_command *pc = &pd->plan[i];
    if ((pc->min_threads > 0 && threads < pc->min_threads) ||
        (pc->max_threads > 0 && threads > pc->max_threads))
      return bad_desc(s, "command \"%s\" works with %d to %d threads per pseudo-block, this "
                      "kernel has %d (block %d / groups %d)", s->cmd[i]->desc->name,
                      pc->min_threads, pc->max_threads, threads, s->block, s->groups);
  }
  return GG_OK;
}

/* Blocks of the kernel that fit on the device at once (1 for the
 * one-block layouts), after allowing its shared memory. */
static gg_status resident_blocks(gg_context *ctx, const gg_persistent_desc *pd, void *fn,
                                 int block, size_t smem, int *resident)
{
  gg_status st = ggr_check(ctx, ggr_allow_shared(ctx->be, fn, pd->shared_bytes),
                           "shared memory carve-out of the persistent kernel");
  if (st)
    return st;
  if (pd->layout == GG_PLAYOUT_ONE_BLOCK || pd->layout == GG_PLAYOUT_THREAD_GROUPS) {
    *resident = 1;
    return GG_OK;
  }
  int per_sm = 0;
  st = ggr_check(ctx, ctx->be->occupancy(&per_sm, fn, block, smem),
                 "occupancy of the persistent kernel");
  *resident = per_sm * ctx->sm_count;
  return st;
}

/* Hardware blocks: 1, or the requested count if all can be co-resident
 * (a frame's end barrier waits for every block: one that never got an
 * SM would hang the loop). */
static gg_status choose_blocks(gg_session *s)
{
  int resident = 0;
  gg_status st = resident_blocks(s->ctx, s->pd, s->fn, s->block,
                                 (size_t)s->groups * s->group_smem, &resident);
  if (st)
    return st;
  if (s->pd->layout == GG_PLAYOUT_ONE_BLOCK || s->pd->layout == GG_PLAYOUT_THREAD_GROUPS) {
    s->blocks = 1;
    return GG_OK;
  }
  int want = s->opt.blocks > 0 ? s->opt.blocks : s->pd->blocks;
  if (want <= 0)
    want = resident;
  if (want < 1 || want > resident)
    return ggr_set_error(GG_ERR_NOT_CORESIDENT,
                "persistent \"%s\": %d blocks of %d threads asked for, only %d can be "
                "resident at once (%d per SM x %d SMs); a grid barrier needs them all",
                s->pd->name, want, s->block, resident, resident / s->ctx->sm_count,
                s->ctx->sm_count);
  s->blocks = want;
  return GG_OK;
}

gg_status gg_session_max_blocks(gg_module *mod, const char *name, int *blocks)
{
  if (!mod || !blocks)
    return GGR_NULL_ARG();
  *blocks = 0;
  gg_session s = {0}; /* only its shape: nothing is allocated or launched */
  s.ctx = mod->ctx;
  s.mod = mod;
  s.pd = find_desc(mod->desc, name);
  if (!s.pd) {
    char msg[1024];
    ggr_missing_persistent(mod->desc, name, msg, sizeof msg);
    return ggr_set_error(GG_ERR_NOT_FOUND, "%s", msg);
  }
  gg_status st = resolve_commands(&s);
  if (!st)
    st = check_shape(&s);
  if (!st)
    st = ggr_make_current(s.ctx);
  if (!st)
    st = resident_blocks(s.ctx, s.pd, mod->persistent_fn[s.pd - mod->desc->persistent], s.block,
                         (size_t)s.groups * s.group_smem, blocks);
  return st;
}

/* Frame times: a start time per slot, and statistics in fixed memory
 * (histograms and the largest frames, whatever stats_frames is). */
static gg_status alloc_stats(gg_session *s)
{
  gg_device_times dt = s->opt.device_times;
  if (dt != GG_TIMES_AUTO && dt != GG_TIMES_ON && dt != GG_TIMES_OFF)
    return ggr_set_error(GG_ERR_INVALID, "device_times = %d: GG_TIMES_AUTO (0), GG_TIMES_ON (1) "
                         "or GG_TIMES_OFF (2)", (int)dt);
  s->timed = dt == GG_TIMES_ON || (dt == GG_TIMES_AUTO && s->opt.stats_frames > 0);
  s->clocked = s->timed || s->opt.stats_frames > 0;
  ggr_split_init(&s->split);
  s->slot_t0 = calloc(s->mb.nslots, sizeof *s->slot_t0);
  if (!s->slot_t0)
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "session: %u slots", s->mb.nslots);
  if (!s->opt.stats_frames)
    return GG_OK;
  s->stats = malloc(sizeof *s->stats);
  if (!s->stats)
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "session statistics");
  gg_status st = ggr_stats_init(s->stats, s->opt.stats_frames, s->opt.stats_tail);
  if (st) {
    free(s->stats);
    s->stats = NULL;
  }
  return st;
}

static gg_status alloc_memory(gg_session *s)
{
  const ggr_backend *be = s->ctx->be;
  uint32_t nslots = (uint32_t)s->opt.buffering;
  size_t bytes = ggr_mbox_bytes(nslots, s->args_size);
  /* the session's own stream zeroes its memory, by copies from the host:
   * a copy needs no SM, where a memset would wait for SMs another session
   * of the context holds */
  gg_status st = ggr_check(s->ctx, be->stream_create(&s->stream), "session stream");
  /* a buffer an ended session left (mapped_keep.c), else a new one */
  if (!st && !(s->mbox_host = ggr_mapped_take(s->ctx, bytes, &s->mbox_bytes))) {
    s->mbox_bytes = bytes;
    st = ggr_check(s->ctx, be->host_alloc(&s->mbox_host, bytes, 1), "mapped mailbox");
  }
  if (st)
    return st;
  ggr_mbox_init(&s->mb, s->mbox_host, nslots, s->args_size);
  st = ggr_check(s->ctx, be->host_device_ptr(&s->mbox_dev, s->mbox_host), "mailbox device address");
  if (st)
    return st;
  size_t dev_bytes = GG_PERSIST_DEV_BYTES((size_t)s->args_size);
  st = ggr_check(s->ctx, be->mem_alloc(&s->dev, dev_bytes), "device scratch");
  if (st)
    return st;
  st = ggr_zero_by_copy(s->ctx, s->stream, s->dev, dev_bytes, "zero device scratch");
  if (st)
    return st;
  /* each command's workspace, for the virtual grid it runs on here */
  uint64_t vblocks = (uint64_t)s->blocks * (uint64_t)s->groups;
  for (int i = 0; i < s->ncommands; i++) {
    const gg_persistent_command *pc = &s->pd->plan[i];
    if (s->ws_off[i] < 0)
      continue;
    size_t ws = pc->ws_fixed + (size_t)pc->ws_per_block * vblocks;
    st = ggr_check(s->ctx, be->mem_alloc(&s->ws[i], ws), "workspace of a persistent command");
    if (!st)
      st = ggr_zero_by_copy(s->ctx, s->stream, s->ws[i], ws, "zero the workspace");
    if (st)
      return st;
  }
  /* frames on several GPUs: the symmetric workspace, zero-filled, on
     every rank at once (collective) */
  if (s->pd->gpus > 1 && s->pd->sym_bytes > 0) {
    st = gg_team_array_alloc(s->opt.team, (size_t)s->pd->sym_bytes, &s->sym);
    if (st)
      return st;
  }
  s->pack = calloc(1, s->args_size);
  s->slot_cmd = calloc(nslots, sizeof *s->slot_cmd);
  if (!s->pack || !s->slot_cmd)
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "session: %u bytes", s->args_size);
  s->result_cmd = -1;
  return alloc_stats(s);
}

/* The kernel was launched but its first block never ran: its blocks wait
 * for SMs that other kernels hold (most often another session's, on this
 * context or on one that shares its SMs).  The driver cannot say in
 * advance whether blocks fit beside another kernel's, so this is found by
 * waiting, with a bound.  The kernel stays queued; free aborts it, and it
 * exits as soon as it gets SMs (device.c watches it until then). */
static gg_status not_running(gg_session *s)
{
  int others = ggr_device_running(s->ctx) - 1;
  char who[320];
  if (others > 0)
    snprintf(who, sizeof who, "%d other persistent kernel%s of this process run%s on this device "
             "(a session of this context, or of one sharing its SMs: the whole device, or an SM "
             "partition split differently)", others, others == 1 ? "" : "s", others == 1 ? "s" : "");
  else
    snprintf(who, sizeof who, "no other session of this process runs on this device: another "
             "process's kernels, or long kernels of this one, hold them");
  return ggr_set_error(GG_ERR_TIMEOUT, "persistent \"%s\" (%d blocks of %d threads) not running "
                       "after %u ms: its blocks got no SMs; %s. Open it on SMs no session holds "
                       "(docs/isolation.md), or with fewer blocks", s->pd->name, s->blocks, s->block,
                       s->opt.open_timeout_ms, who);
}

/* Launch, then wait for the kernel's RUNNING (or its early death). */
static gg_status launch(gg_session *s)
{
  const ggr_backend *be = s->ctx->be;
  gg_persist_params pp;
  memset(&pp, 0, sizeof pp);
  pp.mbox = (void *)(uintptr_t)s->mbox_dev;
  pp.dev = (void *)(uintptr_t)s->dev;
  pp.nslots = s->mb.nslots;
  pp.slot_stride = s->mb.slot_stride;
  pp.groups = (uint32_t)s->groups;
  pp.group_smem = s->group_smem;
  pp.flags = (s->timed ? GG_PERSIST_TIMES : 0u) | (s->opt.relay ? GG_PERSIST_RELAY : 0u);
  pp.sym = gg_array_native(s->sym);
  void *params[] = {&pp};
  unsigned smem = s->pd->shared_bytes;
  /* counted first: a free on another thread in between would wait for it */
  count_kernel(s, 1);
  gg_status st = ggr_check(s->ctx, be->launch(s->fn, (unsigned)s->blocks, (unsigned)s->block, smem, s->stream,
                            params), "launch of the persistent kernel");
  if (st) {
    count_kernel(s, 0);
    return st;
  }
  s->running = 1;
  uint64_t t0 = gg_rt_now_ns();
  while (ggr_mbox_state(&s->mb) == GG_MBOX_STATE_LAUNCHED) {
    int q = be->stream_query(s->stream);
    if (q != GGR_E_NOT_READY) {
      s->running = 0;
      count_kernel(s, 0);
      if (q != 0)
        s->lost = 1;
      return q ? ggr_check(s->ctx, q, "persistent kernel at start")
               : ggr_set_error(GG_ERR_LAUNCH, "persistent kernel exited before running");
    }
    if (gg_rt_now_ns() - t0 > (uint64_t)s->opt.open_timeout_ms * 1000000u)
      return not_running(s);
    sched_yield();
  }
  return GG_OK;
}

/* Frees now, or once the device's other sessions end (device.c).  A
 * kernel that may still run (counted) keeps its stream: free hands it to
 * the device, which watches it end; its memory is put off until then,
 * since it is counted. */
static void release_memory(gg_session *s)
{
  if (!s->lost) {
    if (s->stream && !s->counted)
      s->ctx->be->stream_destroy(s->stream);
    if (s->dev)
      ggr_release(s->ctx, GGR_RELEASE_DEVICE, s->dev, NULL);
    for (int i = 0; i < s->ncommands; i++)
      if (s->ws[i])
        ggr_release(s->ctx, GGR_RELEASE_DEVICE, s->ws[i], NULL);
    /* a kernel seen to end reads it no more: kept for the next session */
    if (s->mbox_host && (s->counted || !ggr_mapped_keep(s->ctx, s->mbox_host, s->mbox_bytes)))
      ggr_release(s->ctx, GGR_RELEASE_HOST, 0, s->mbox_host);
  }
  if (!s->counted)
    s->stream = NULL;
  s->dev = 0;
  memset(s->ws, 0, sizeof s->ws);
  s->mbox_host = NULL;
}

gg_status gg_session_open(gg_module *mod, const char *name, const gg_session_options *opt,
                          gg_session **out)
{
  if (!mod || !out)
    return GGR_NULL_ARG();
  *out = NULL;
  gg_session *s = calloc(1, sizeof *s);
  if (!s)
    return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "session");
  s->ctx = mod->ctx;
  s->mod = mod;
  if (opt)
    s->opt = *opt;
  if (s->opt.spin_ns == 0)
    s->opt.spin_ns = 20000;
  if (s->opt.terminate_ms == 0)
    s->opt.terminate_ms = 1000;
  if (s->opt.open_timeout_ms == 0)
    s->opt.open_timeout_ms = OPEN_TIMEOUT_MS;
  s->pd = find_desc(mod->desc, name);
  gg_status st = GG_OK;
  if (!s->pd) {
    char msg[1024];
    ggr_missing_persistent(mod->desc, name, msg, sizeof msg);
    st = ggr_set_error(GG_ERR_NOT_FOUND, "%s", msg);
  }
  if (!st && s->opt.buffering <= 0)
    s->opt.buffering = s->pd->buffering > 0 ? s->pd->buffering : 1;
  if (!st)
    st = resolve_commands(s);
  if (!st)
    st = check_team(s);
  if (!st)
    st = check_shape(s);
  if (!st)
    st = ggr_make_current(s->ctx);
  if (!st)
    s->fn = mod->persistent_fn[s->pd - mod->desc->persistent]; /* resolved at load */
  if (!st)
    st = choose_blocks(s);
  if (!st)
    st = alloc_memory(s);
  if (!st && s->opt.heartbeat_ms)
    ggr_mbox_heartbeat(&s->mb, (uint64_t)s->opt.heartbeat_ms * 1000000u);
  if (!st)
    st = launch(s);
  if (st) {
    /* freeing may terminate a launched kernel, which records its own
     * detail: the caller gets the one that made open fail */
    char keep[GGR_ERR_LEN];
    snprintf(keep, sizeof keep, "%s", gg_error_detail());
    gg_session_free(s);
    return ggr_set_error(st, "%s", keep);
  }
  s->final = GG_OK;
  *out = s;
  return GG_OK;
}

gg_status gg_session_command(gg_session *s, const char *name, int *cmd)
{
  for (int i = 0; s && name && cmd && i < s->ncommands; i++)
    if (strcmp(s->cmd[i]->desc->name, name) == 0) {
      *cmd = i;
      return GG_OK;
    }
  if (!s || !name || !cmd)
    return GGR_NULL_ARG();
  char msg[1024];
  ggr_missing_command(s->mod->desc, s->pd, name, msg, sizeof msg);
  return ggr_set_error(GG_ERR_NOT_FOUND, "%s", msg);
}

/* The getters take NULL as "no session": 0, or -1 for a slot. */
int gg_session_ncommands(const gg_session *s) { return s ? s->ncommands : 0; }
int gg_session_nslots(const gg_session *s) { return s ? (int)s->mb.nslots : 0; }
int gg_session_blocks(const gg_session *s) { return s ? s->blocks : 0; }
uint64_t gg_session_started(const gg_session *s) { return s ? s->mb.started : 0; }
uint64_t gg_session_completed(const gg_session *s) { return s ? s->mb.completed : 0; }
int gg_session_frame_slot(const gg_session *s, uint64_t frame)
{
  return s && frame ? (int)ggr_mbox_slot_of(&s->mb, frame) : -1;
}

void gg_session_heartbeat(gg_session *s)
{
  if (s && s->running && s->opt.heartbeat_ms)
    ggr_mbox_heartbeat(&s->mb, (uint64_t)s->opt.heartbeat_ms * 1000000u);
}

static gg_status not_following(const gg_session *s)
{
  return ggr_set_error(GG_ERR_STATE, "persistent \"%s\" follows rank 0's frames "
                       "(gg_session_follow): it takes no frame of its own; "
                       "gg_session_terminate ends it", s->pd->name);
}

static gg_status can_start(gg_session *s, int cmd)
{
  if (!s->running)
    return ggr_set_error(GG_ERR_STATE, "session is terminated%s", s->lost ? " (context lost)" : "");
  if (s->following)
    return not_following(s);
  if (cmd < 0 || cmd >= s->ncommands)
    return ggr_set_error(GG_ERR_NOT_FOUND, "command %d: persistent \"%s\" has %d", cmd,
                s->pd->name, s->ncommands);
  if (ggr_mbox_full(&s->mb))
    return ggr_set_error(GG_ERR_STATE, "all %u slots hold frames in flight: wait for one first",
                s->mb.nslots);
  return GG_OK;
}

static void post(gg_session *s, int cmd, uint32_t bits, const void *args, size_t size,
                 uint64_t *frame)
{
  ggr_session_settle(s); /* before this post can make the kernel rewrite a done line */
  uint32_t slot = ggr_mbox_slot_of(&s->mb, s->mb.started + 1);
  s->slot_cmd[slot] = cmd;
  if (s->clocked)
    s->slot_t0[slot] = gg_rt_now_ns();
  uint64_t f = ggr_mbox_post(&s->mb, (uint32_t)cmd | bits, args, size);
  if (s->opt.heartbeat_ms)
    ggr_mbox_heartbeat(&s->mb, (uint64_t)s->opt.heartbeat_ms * 1000000u);
  if (frame)
    *frame = f;
}

/* The hidden fields of command cmd in the argument bytes at buf: this
 * session's workspace for it and its next sequence number (never 0, so a
 * fresh flag is never mistaken for the zero-filled workspace). */
static void fill_hidden(gg_session *s, int cmd, unsigned char *buf)
{
  if (s->ws_off[cmd] >= 0) {
    uint64_t ws = s->ws[cmd];
    memcpy(buf + s->ws_off[cmd], &ws, sizeof ws);
  }
  if (s->seq_off[cmd] >= 0) {
    unsigned seq = ++s->seq[cmd];
    if (seq == 0)
      seq = ++s->seq[cmd];
    memcpy(buf + s->seq_off[cmd], &seq, sizeof seq);
  }
}

gg_status gg_session_start_packed(gg_session *s, int cmd, const void *args, size_t size,
                                  uint64_t *frame)
{
  if (!s)
    return GGR_NULL_ARG();
  gg_status st = can_start(s, cmd);
  if (st)
    return st;
  if (args && size > s->args_size)
    return ggr_set_error(GG_ERR_INVALID, "%zu argument bytes; a slot holds %u", size, s->args_size);
  if (s->ws_off[cmd] < 0 && s->seq_off[cmd] < 0) {
    post(s, cmd, 0, args, size, frame);
    return GG_OK;
  }
  /* The hidden fields are the session's: whatever the caller packed there
   * (gg_pack_args leaves them zero) is replaced. */
  if (args) {
    memset(s->pack, 0, s->args_size);
    memcpy(s->pack, args, size);
  } else {
    ggr_mbox_slot_args(&s->mb, s->pack);
  }
  fill_hidden(s, cmd, s->pack);
  post(s, cmd, 0, s->pack, s->args_size, frame);
  return GG_OK;
}

/* A command whose ack is relaxed (gg_protocol.h) publishes nothing but
 * its result: an array the host can read, passed for another view it
 * writes, would be read unordered after the wait.  Refused. */
static gg_status device_only(const gg_kernel_desc *kd, const gg_arg *args, int nargs)
{
  for (int j = 0; j < nargs && j < kd->nparams; j++) {
    const gg_param_desc *p = &kd->params[j];
    if (p->kind != GG_PARAM_VIEW || p->access == GG_ACCESS_IN || j == kd->result_param ||
        args[j].type != GG_ARG_ARRAY || !args[j].v.array ||
        gg_array_space(args[j].v.array) == GG_SPACE_DEVICE)
      continue;
    return ggr_set_error(GG_ERR_INVALID, "\"%s\": argument %d (%s) is a host-visible array, but "
                         "the frame's acknowledgement is relaxed (its result is all it publishes: "
                         "every other written view is declared space = \"device\"); pass a "
                         "device array, or declare %s's space in the workload", kd->name, j,
                         p->name, p->name);
  }
  return GG_OK;
}

/* Command cmd's arguments packed into s->pack, hidden fields filled. */
static gg_status pack(gg_session *s, int cmd, const gg_arg *args, int nargs)
{
  gg_kernel *k = s->cmd[cmd];
  gg_status st;
  if (k->desc->ack_relaxed && (st = device_only(k->desc, args, nargs)))
    return st;
  st = ggr_pack_kernel_args(k, args, nargs, s->pack, s->args_size);
  if (st)
    return ggr_set_error(st, "arguments of command \"%s\": %s", k->desc->name,
                         gg_error_detail());
  fill_hidden(s, cmd, s->pack);
  return GG_OK;
}

gg_status gg_session_start(gg_session *s, int cmd, const gg_arg *args, int nargs,
                           uint64_t *frame)
{
  if (!s)
    return GGR_NULL_ARG();
  gg_status st = can_start(s, cmd);
  if (!st)
    st = pack(s, cmd, args, nargs);
  if (!st)
    post(s, cmd, 0, s->pack, s->cmd[cmd]->desc->args_size, frame);
  return st;
}

gg_status gg_session_follow(gg_session *s, int cmd, const gg_arg *args, int nargs)
{
  if (!s)
    return GGR_NULL_ARG();
  if (s->pd->gpus <= 1 || !s->opt.team || gg_team_rank(s->opt.team) == 0 ||
      !s->mod->nvshmem_init)
    return ggr_set_error(GG_ERR_INVALID, "persistent \"%s\": gg_session_follow is for ranks 1 "
                         "and up of the team a kernel's frames run on, rank 0 relaying "
                         "(options.relay); this session is %s", s->pd->name,
                         s->pd->gpus <= 1 ? "of a kernel whose frames run on one GPU"
                         : !s->mod->nvshmem_init ? "of a module with no exchange"
                                                 : "rank 0's");
  gg_status st = can_start(s, cmd);
  if (!st && s->mb.started != s->mb.completed)
    st = ggr_set_error(GG_ERR_STATE, "frames %llu..%llu are in flight: wait for them before "
                       "following rank 0", (unsigned long long)(s->mb.completed + 1),
                       (unsigned long long)s->mb.started);
  if (!st)
    st = pack(s, cmd, args, nargs);
  if (st)
    return st;
  post(s, cmd, GG_MBOX_CMD_FOLLOW, s->pack, s->cmd[cmd]->desc->args_size, NULL);
  s->following = 1;
  return GG_OK;
}

/* Is the oldest frame in flight done?  Its command says whether the ack
 * has a second word (an 8-byte result); a done frame's result is kept
 * for gg_session_result. */
static int poll_done(gg_session *s)
{
  int cmd = s->slot_cmd[ggr_mbox_slot_of(&s->mb, s->mb.completed + 1)];
  if (!ggr_mbox_poll(&s->mb, s->cmd[cmd]->desc->result_bytes > 4))
    return 0;
  s->result_cmd = cmd;
  s->result = s->mb.result;
  return 1;
}

/* The kernel stopped while frames were in flight: why? */
static gg_status kernel_gone(gg_session *s, int q)
{
  s->running = 0;
  count_kernel(s, 0);
  if (q != 0) {
    s->lost = 1;
    char text[300];
    ggr_set_error(GG_ERR_KERNEL_FAULT, "persistent \"%s\" died at frame %llu: %s; the context "
                  "is lost: terminate, free the context and open a new one", s->pd->name,
                  (unsigned long long)(s->mb.completed + 1),
                  ggr_code_text(s->ctx->be, q, text, sizeof text));
    return end_with(s, GG_ERR_KERNEL_FAULT);
  }
  /* The kernel's status line: the state store is the release that makes
   * its exit reason and frame count visible. */
  if (ggr_mbox_state(&s->mb) != GG_MBOX_STATE_EXITED)
    return ggr_set_error(GG_ERR_STATE,
                "persistent \"%s\" exited without writing its status, with frames %llu..%llu "
                "in flight", s->pd->name, (unsigned long long)(s->mb.completed + 1),
                (unsigned long long)s->mb.started);
  uint32_t why = ggr_mbox_exit_reason(&s->mb);
  return ggr_set_error(GG_ERR_STATE,
              "persistent \"%s\" exited (%s) after running %llu frames, with frames %llu..%llu "
              "in flight", s->pd->name,
              why == GG_MBOX_EXIT_STALE ? "heartbeat went stale"
              : why == GG_MBOX_EXIT_ABORT ? "aborted" : "unknown reason",
              (unsigned long long)ggr_mbox_frames_run(&s->mb),
              (unsigned long long)(s->mb.completed + 1), (unsigned long long)s->mb.started);
}

/* A frame not done within the wait's timeout.  On a team, the ranks its
 * exchanges are waiting for (the mailbox's waiting bytes) are named. */
static gg_status frame_timeout(gg_session *s, int64_t timeout_ns)
{
  /* every rank fits: ", 63" is 4 characters */
  char team[300 + 4 * GG_MBOX_WAITING_MAX] = "", ranks[4 * GG_MBOX_WAITING_MAX + 1];
  if (s->pd->gpus > 1) {
    const int n = ggr_mbox_waiting(&s->mb, s->pd->gpus, ranks, sizeof ranks);
    if (n > 0 && s->opt.relay)
      snprintf(team, sizeof team, ": rank%s %s of the team (NVSHMEM PE%s) ha%s not finished the "
               "frame this rank relayed (a dead or hung process, or one that has not called "
               "gg_session_follow), or the frame's exchanges wait for it; "
               "gg_session_terminate ends the kernel", n > 1 ? "s" : "", ranks, n > 1 ? "s" : "",
               n > 1 ? "ve" : "s");
    else if (n > 0)
      snprintf(team, sizeof team, ": its exchanges wait for the frame of rank%s %s of the team "
               "(NVSHMEM PE%s), which died, hangs or has not posted it; gg_session_terminate "
               "ends the kernel", n > 1 ? "s" : "", ranks, n > 1 ? "s" : "");
    else
      snprintf(team, sizeof team, " (its frames run on a team, but no exchange of this one "
               "has waited over ~0.3 ms for another rank; gg_session_terminate ends the kernel)");
  }
  return ggr_set_error(GG_ERR_TIMEOUT, "frame %llu of persistent \"%s\" not done after %.3f ms%s",
                       (unsigned long long)(s->mb.completed + 1), s->pd->name,
                       (double)timeout_ns / 1e6, team);
}

gg_status gg_session_wait(gg_session *s, int64_t timeout_ns)
{
  if (!s)
    return GGR_NULL_ARG();
  if (s->following)
    return not_following(s);
  if (s->mb.completed == s->mb.started)
    return ggr_set_error(GG_ERR_STATE, "no frame in flight");
  if (!s->running)
    return ggr_set_error(s->lost ? GG_ERR_KERNEL_FAULT : GG_ERR_STATE, "session is terminated");
  /* Hot path: the frame is often done by the first polls.  A spin is one
   * load of the ack word (the frame's slot, worked out once here); the
   * frame is taken when that word carries its tag. */
  const uint64_t frame = s->mb.completed + 1;
  const void *ack = ggr_mbox_ack_word(&s->mb);
  for (int i = 0; i < CHECK_EVERY; i++)
    if (ggr_mbox_ack_seen(ack, frame) && poll_done(s)) {
      ggr_session_record(s, frame);
      return GG_OK;
    }
  uint64_t t0 = gg_rt_now_ns(), last_query = t0;
  for (;;) {
    for (int i = 0; i < CHECK_EVERY; i++)
      if (ggr_mbox_ack_seen(ack, frame) && poll_done(s)) {
        ggr_session_record(s, frame);
        return GG_OK;
      }
    uint64_t now = gg_rt_now_ns();
    if (now - last_query >= QUERY_EVERY_NS) {
      last_query = now;
      gg_session_heartbeat(s);
      ggr_make_current(s->ctx);
      int q = s->ctx->be->stream_query(s->stream);
      if (q != GGR_E_NOT_READY && !poll_done(s))
        return kernel_gone(s, q);
      if (q != GGR_E_NOT_READY) { /* it finished the frame, then exited */
        ggr_session_record(s, s->mb.completed);
        return GG_OK;
      }
    }
    if (timeout_ns >= 0 && now - t0 >= (uint64_t)timeout_ns)
      return frame_timeout(s, timeout_ns);
    if (s->opt.wait_mode == GG_WAIT_YIELD && now - t0 >= s->opt.spin_ns)
      sched_yield();
  }
}

gg_status gg_session_result(const gg_session *s, void *out, size_t size)
{
  if (!s || !out)
    return GGR_NULL_ARG();
  if (s->result_cmd < 0)
    return ggr_set_error(GG_ERR_STATE, "no frame waited for yet");
  const gg_kernel_desc *kd = s->cmd[s->result_cmd]->desc;
  if (kd->result_bytes == 0)
    return ggr_set_error(GG_ERR_STATE, "the frame waited for last (command \"%s\") declares no "
                         "result (a frame's result = \"view\")", kd->name);
  if (size != kd->result_bytes)
    return ggr_set_error(GG_ERR_INVALID, "command \"%s\" returns %u bytes (%s), asked for %zu",
                         kd->name, kd->result_bytes, kd->params[kd->result_param].name, size);
  memcpy(out, &s->result, size); /* the low bytes: little-endian hosts only (x86-64, arm64) */
  return GG_OK;
}

gg_status gg_session_run(gg_session *s, int cmd, const gg_arg *args, int nargs,
                         int64_t timeout_ns)
{
  gg_status st = gg_session_start(s, cmd, args, nargs, NULL);
  return st ? st : gg_session_wait(s, timeout_ns);
}

gg_status gg_session_terminate(gg_session *s)
{
  if (!s)
    return GGR_NULL_ARG();
  ggr_session_settle(s); /* while the mailbox is there */
  if (!s->running) {
    /* a kernel that outlived an earlier terminate may have ended since */
    if (s->counted && s->stream && s->ctx->be->stream_query(s->stream) != GGR_E_NOT_READY)
      count_kernel(s, 0);
    release_memory(s);
    return s->final ? ggr_set_error(s->final, "%s", s->final_detail) : GG_OK;
  }
  const ggr_backend *be = s->ctx->be;
  ggr_make_current(s->ctx);
  ggr_mbox_abort(&s->mb);
  uint64_t t0 = gg_rt_now_ns(), limit = (uint64_t)s->opt.terminate_ms * 1000000u;
  int q;
  while ((q = be->stream_query(s->stream)) == GGR_E_NOT_READY &&
         gg_rt_now_ns() - t0 < limit)
    sched_yield();
  s->running = 0;
  if (q != GGR_E_NOT_READY)
    count_kernel(s, 0);
  if (q == 0) {
    s->final = GG_OK;
  } else if (q != GGR_E_NOT_READY) {
    s->lost = 1;
    ggr_check(s->ctx, q, "persistent kernel");
    end_with(s, GG_ERR_KERNEL_FAULT);
  } else {
    /* Seen on an H100: terminate calling cuDevicePrimaryCtxReset here did
     * not return within 100 s while the kernel spun, so a command that
     * never returns cannot be reset from this process.  The kernel stays
     * counted (its stream is watched once the session is freed): frees
     * wait for it without blocking anyone, module loads are refused. */
    ggr_set_error(GG_ERR_TIMEOUT,
                  "persistent \"%s\" did not exit within %u ms of the abort: a command is "
                  "still running, or its blocks are still waiting for SMs; the driver cannot "
                  "reset a context while its kernel runs, so until it ends the device refuses "
                  "module loads and puts off frees (freeing the session and the context is "
                  "safe: it blocks nothing)",
                  s->pd->name, s->opt.terminate_ms);
    end_with(s, GG_ERR_TIMEOUT);
  }
  release_memory(s);
  return s->final;
}

void gg_session_free(gg_session *s)
{
  if (!s)
    return;
  if (s->running)
    gg_session_terminate(s);
  /* the symmetric workspace: freed on every rank at once (collective),
     unless the kernel may still run (terminate timed out): then it stays
     until gg_team_free, which frees the whole heap */
  if (!s->counted)
    gg_array_free(s->sym);
  s->sym = NULL;
  /* while `counted` still says whether the kernel may run: its memory is
     then put off, never kept for another session (release_memory) */
  if (s->ctx)
    release_memory(s);
  if (s->counted && s->stream) {
    /* its kernel may still run (or still wait for SMs, and then exit at
     * once on the abort): the device watches its stream from now on */
    ggr_kernel_watch(s->ctx, s->stream);
    s->stream = NULL;
    s->counted = 0;
  }
  free(s->pack);
  free(s->slot_cmd);
  free(s->slot_t0);
  if (s->stats)
    ggr_stats_free(s->stats);
  free(s->stats);
  free(s);
}
