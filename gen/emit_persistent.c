/*
 * emit_persistent.c - render a persistent kernel: the mailbox loop of
 * templates/<target>/persistent.* plus a switch that calls each command's
 * body function on the layout's virtual grid.
 *
 * Every decision is made here and reaches the template as a value: block
 * size, pseudo-blocks per block, whether several hardware blocks meet in
 * device memory, the switch's cases; and the mailbox protocol
 * (include/gg_protocol.h, the runtime's own header) as PROTOCOL.
 */
#include "emit.h"
#include "emit_persistent.h"
#include "templates.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_THREADS 256 /* per pseudo-block when neither side says */
#define CUDA_NAMED_BARRIERS 15 /* bar ids 1..15; 0 is __syncthreads */
#define HIP_GROUP_MAX 32    /* a HIP pseudo-block is one wavefront (the prelude's gg_sync) */

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

static int has_groups(gg_persistent_layout l)
{
  return l == GG_PLAYOUT_THREAD_GROUPS || l == GG_PLAYOUT_HYBRID;
}

static int has_blocks(gg_persistent_layout l)
{
  return l == GG_PLAYOUT_MANY_BLOCKS || l == GG_PLAYOUT_HYBRID;
}

/* Threads per pseudo-block when the workload file gives no block: the
 * largest block its commands were specialized for, so each body gets at
 * least the threads it was planned with. */
static int command_threads(const ggi_module *m, const ggi_persistent *p)
{
  int t = 0;
  for (int i = 0; i < p->ncommands; i++) {
    const ggi_kernel *k = &m->kernels[p->command_index[i]];
    int b = k->spec.block ? k->spec.block : k->block;
    if (b > t)
      t = b;
  }
  return t ? t : DEFAULT_THREADS;
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
  for (int i = 0; i < p->ncommands; i++) {
    const ggi_kernel *k = &m->kernels[p->command_index[i]];
    ggi_plan plan;
    ggi_diag pd = {{0}};
    if (ggi_kernel_plan(k, target, m->arena, &plan, &pd) != 0)
      return fail(d, m, p, "command \"%s\": %s", k->name, pd.msg);
    if (plan.min_threads > 0 && s->group_threads < plan.min_threads)
      return fail(d, m, p,
                  "command \"%s\" is a team of %d threads (team_size), but a pseudo-block here "
                  "has %d (block %d / groups %d): a team must have all its threads; give "
                  "block = %d x groups",
                  k->name, plan.min_threads, s->group_threads, s->block, s->groups,
                  plan.min_threads);
    if (plan.max_threads > 0 && s->group_threads > plan.max_threads)
      return fail(d, m, p,
                  "command \"%s\" sizes its shared memory for %d threads per block, but a "
                  "pseudo-block here has %d (block %d / groups %d); give the kernel block = %d "
                  "(team: team_size = %d), or this persistent kernel block = %d x groups",
                  k->name, plan.max_threads, s->group_threads, s->block, s->groups,
                  s->group_threads, s->group_threads, plan.max_threads);
    if (plan.shared_bytes > smem)
      smem = plan.shared_bytes;
    s->cmd[i].ws_fixed = plan.ws_fixed;
    s->cmd[i].ws_per_block = plan.ws_per_block;
    s->cmd[i].min_threads = plan.min_threads;
    s->cmd[i].max_threads = plan.max_threads;
  }
  s->group_smem = (smem + 15u) & ~15u;
  uint64_t total = (uint64_t)s->group_smem * (uint64_t)s->groups;
  if (total > ggi_shared_limit(target))
    return fail(d, m, p,
                "needs %llu bytes of shared memory per block (groups %d x %u, the largest "
                "command's); a %s block holds at most %u",
                (unsigned long long)total, s->groups, (unsigned)s->group_smem,
                target == GGI_TARGET_HIP ? "HIP (AMD LDS)" : "CUDA",
                (unsigned)ggi_shared_limit(target));
  s->shared_bytes = (uint32_t)total;
  return 0;
}

int ggi_persistent_shape_of(const ggi_module *m, const ggi_persistent *p, unsigned target,
                            ggi_persistent_shape *s, ggi_diag *d)
{
  memset(s, 0, sizeof *s);
  if (p->ncommands < 1 || p->ncommands > GGI_MAX_COMMANDS)
    return fail(d, m, p, "needs 1 to %d commands, has %d", GGI_MAX_COMMANDS, p->ncommands);
  for (int i = 0; i < p->ncommands; i++)
    if (p->command_index[i] < 0 || p->command_index[i] >= m->nkernels)
      return fail(d, m, p, "command %d (\"%s\") names no kernel of this file", i,
                  p->commands[i] ? p->commands[i] : "?");
  /* The same rules as the runtime's (session.c), which sees only the
   descriptor: groups left out = 1; block left out = the commands' largest
   block times groups. */
  s->groups = has_groups(p->layout) && p->groups > 0 ? p->groups : 1;
  s->blocks = has_blocks(p->layout) ? p->blocks : 1;
  if (p->block > 0)
    s->block = p->block;
  else
    s->block = command_threads(m, p) * s->groups;
  if (s->block < 32 || s->block > 1024 || s->block % 32)
    return fail(d, m, p, "block = %d: a block holds 32 to 1024 threads, a multiple of 32%s",
                s->block, p->block > 0 ? "" : " (the commands' block times groups)");
  if (s->block % s->groups)
    return fail(d, m, p, "block = %d does not split into groups = %d", s->block, s->groups);
  s->group_threads = s->block / s->groups;
  if (s->groups > 1 && target == GGI_TARGET_CUDA) {
    if (s->groups > CUDA_NAMED_BARRIERS)
      return fail(d, m, p, "groups = %d: CUDA has %d named barriers for pseudo-blocks",
                  s->groups, CUDA_NAMED_BARRIERS);
    if (s->group_threads % 32)
      return fail(d, m, p, "block / groups = %d threads: a pseudo-block is whole warps (32)",
                  s->group_threads);
  }
  if (s->groups > 1 && target == GGI_TARGET_HIP && s->group_threads > HIP_GROUP_MAX)
    return fail(d, m, p,
                "block / groups = %d threads: on HIP a pseudo-block is at most %d threads "
                "(one wavefront; AMD has no named barriers)",
                s->group_threads, HIP_GROUP_MAX);
  if (s->blocks < 0)
    return fail(d, m, p, "blocks = %d must be >= 0 (0 = as many as are co-resident)", s->blocks);
  return plan_commands(m, p, target, s, d);
}

int ggi_persistent_plan(const ggi_module *m, const ggi_persistent *p, ggi_persistent_shape *s,
                        ggi_diag *d)
{
  /* hip first, so that the shape left in *s is cuda's when p has both */
  static const unsigned order[] = {GGI_TARGET_HIP, GGI_TARGET_CUDA};
  int any = 0;
  for (int i = 0; i < 2; i++) {
    if (!(p->targets & order[i])) continue;
    if (ggi_persistent_shape_of(m, p, order[i], s, d) != 0) return -1;
    any = 1;
  }
  if (!any) return fail(d, m, p, "has no target (cuda or hip)");
  return 0;
}

/* `case i: gg_body_<k>(args, g); break;` for every command, and the
 * largest argument struct as a constant expression. */
static void render_cases(const ggi_module *m, const ggi_persistent *p, ggi_buf *cases,
                         ggi_buf *args_max)
{
  for (int i = 0; i < p->ncommands; i++) {
    const char *k = m->kernels[p->command_index[i]].name;
    if (m->kernels[p->command_index[i]].pattern == GG_PATTERN_FRAME) {
      /* a frame: its stages back to back, grid barriers where the plan says */
      ggi_buf_printf(cases,
                     "    case %d:\n"
                     "      (void)gg_frame_%s(*reinterpret_cast<const gg_args_%s *>(args_words), g, "
                     "(const char *)pp.mbox);\n"
                     "      break;\n",
                     i, k, k);
      continue;
    }
    ggi_buf_printf(cases,
                   "    case %d:\n"
                   "      gg_body_%s(*reinterpret_cast<const gg_args_%s *>(args_words), g);\n"
                   "      break;\n",
                   i, k, k);
  }
  /* Fold the comparisons right to left: (a > (b > c ? b : c) ? a : ...). */
  ggi_buf folded = {0};
  ggi_buf_printf(&folded, "sizeof(gg_args_%s)",
                 m->kernels[p->command_index[p->ncommands - 1]].name);
  for (int i = p->ncommands - 2; i >= 0; i--) {
    const char *k = m->kernels[p->command_index[i]].name;
    ggi_buf next = {0};
    ggi_buf_printf(&next, "(sizeof(gg_args_%s) > %s ? sizeof(gg_args_%s) : %s)", k,
                   folded.p, k, folded.p);
    ggi_buf_free(&folded);
    folded = next;
  }
  *args_max = folded;
}

int ggi_emit_persistent(const ggi_module *m, const ggi_persistent *p, unsigned target,
                        const char *templates_dir, ggi_buf *out, ggi_diag *d)
{
  ggi_persistent_shape s;
  if (target != GGI_TARGET_CUDA && target != GGI_TARGET_HIP)
    return fail(d, m, p, "unknown target %u", target);
  if (ggi_persistent_shape_of(m, p, target, &s, d))
    return -1;

  ggi_buf cases = {0}, args_max;
  render_cases(m, p, &cases, &args_max);
  char block[16], groups[16], multi[4];
  snprintf(block, sizeof block, "%d", s.block);
  snprintf(groups, sizeof groups, "%d", s.groups);
  snprintf(multi, sizeof multi, "%d", has_blocks(p->layout));
  ggi_buf symbol = {0};
  ggi_buf_printf(&symbol, "gg_persist_%s", p->name);

  int rc = -1;
  if (!ggi_buf_ok(&cases) || !ggi_buf_ok(&args_max) || !ggi_buf_ok(&symbol)) {
    fail(d, m, p, "out of memory");
    goto done;
  }
  ggi_dict dict = {0};
  ggi_dict_set(&dict, "NAME", p->name);
  ggi_dict_set(&dict, "SYMBOL", symbol.p);
  ggi_dict_set(&dict, "BLOCK", block);
  ggi_dict_set(&dict, "GROUPS", groups);
  ggi_dict_set(&dict, "MULTI", multi);
  ggi_dict_set(&dict, "ARGS_MAX", args_max.p);
  ggi_dict_set(&dict, "CASES", cases.p);
  ggi_dict_set(&dict, "PROTOCOL", ggi_protocol_header);
  const char *path = target == GGI_TARGET_CUDA ? "cuda/persistent.cuh" : "hip/persistent.hip";
  rc = ggi_render_template(templates_dir, path, &dict, out, d);
done:
  ggi_buf_free(&cases);
  ggi_buf_free(&args_max);
  ggi_buf_free(&symbol);
  return rc;
}
