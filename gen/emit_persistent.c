/*
 * emit_persistent.c - render a persistent kernel: the mailbox loop of
 * templates/<target>/persistent.* plus a switch that calls each command's
 * body function on the arrangement's virtual grid.
 *
 * The shape (block size, pseudo-blocks per block) is the plan stage's
 * (plan_persistent.c); here it reaches the template as values, with
 * whether several hardware blocks meet in device memory and the switch's
 * cases.  The mailbox protocol (include/gg_protocol.h, the runtime's own
 * header) is pasted once at the top of the source
 * (ggi_source_shared_headers).
 */
#include "patterns.h"
#include "emit_persistent.h"
#include "names.h"
#include "plan.h"
#include "render.h"
#include "templates.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `case i: GG_NS_<k>::gg_body(args, g); break;` for every command, and
 * the largest argument struct as a constant expression. */
static void render_cases(const ggi_module *m, const ggi_persistent *p,
                         const ggi_persistent_shape *s, ggi_buf *cases, ggi_buf *args_max)
{
  for (int i = 0; i < p->ncommands; i++) {
    const char *k = m->kernels[p->command_index[i]].name;
    const ggi_kernel *kn = &m->kernels[p->command_index[i]];
    if (ggi_pattern_is(kn, GGI_PAT_CHAIN)) {
      /* a frame: its stages back to back, grid barriers where the plan says */
      ggi_buf_printf(cases,
                     "    case %d:\n"
                     "      (void)" GGI_NS_PREFIX "%s::gg_frame(*reinterpret_cast<const gg_args_%s *>"
                     "(args_words), g, (const char *)pp.mbox",
                     i, k, k);
      if (kn->frame->sym_bytes) /* its share of the symmetric workspace (plan_persistent.c) */
        ggi_buf_printf(cases, ", (char *)pp.sym + %lluull", (unsigned long long)s->sym_off[i]);
      ggi_buf_puts(cases, ");\n");
      if (kn->frame->result >= 0) /* the plan's acknowledgement (gen/frame_schedule.c: ack_plan) */
        ggi_buf_printf(cases,
                       "      ack.src = reinterpret_cast<const gg_args_%s *>(args_words)->%s;\n"
                       "      ack.bytes = %uu;\n      ack.relaxed = %s;\n      ack.noted = %s;\n",
                       k, kn->params[kn->frame->result].name,
                       ggi_dtype_size(kn->params[kn->frame->result].dtype),
                       kn->frame->ack_relaxed ? "true" : "false",
                       kn->frame->ack_noted ? "true" : "false");
      ggi_buf_puts(cases, "      break;\n");
      continue;
    }
    ggi_buf_printf(cases,
                   "    case %d:\n"
                   "      " GGI_NS_PREFIX "%s::gg_body(*reinterpret_cast<const gg_args_%s *>(args_words), g);\n"
                   "      break;\n",
                   i, k, k);
  }
  /* gg_p_max(a, gg_p_max(b, c)): each size once, so the text grows with
     the number of commands, not with 2 to its power (a ?: fold repeats
     its inner operand). */
  ggi_buf folded = {0};
  ggi_buf_printf(&folded, "sizeof(gg_args_%s)",
                 m->kernels[p->command_index[p->ncommands - 1]].name);
  for (int i = p->ncommands - 2; i >= 0; i--) {
    ggi_buf next = {0};
    ggi_buf_printf(&next, "gg_p_max(sizeof(gg_args_%s), %s)",
                   m->kernels[p->command_index[i]].name, folded.p);
    ggi_buf_free(&folded);
    folded = next;
  }
  *args_max = folded;
}

/* Each command's gg_seq as a 4-byte word of its argument struct, -1 for
 * none, in command order: "3, -1, 5" (a following rank's kernel renews
 * it each relayed frame, templates/cuda/persistent.cuh). */
static void render_seq_words(const ggi_module *m, const ggi_persistent *p, unsigned target,
                             ggi_buf *out)
{
  for (int i = 0; i < p->ncommands; i++) {
    const ggi_plan *kp = ggi_plan_of(&m->kernels[p->command_index[i]], target);
    int word = -1;
    for (int f = 0; kp && f < kp->args.n; f++)
      if (kp->args.f[f].hidden == GG_HIDDEN_SEQ)
        word = (int)(kp->args.f[f].offset / 4u);
    ggi_buf_printf(out, "%s%d", i ? ", " : "", word);
  }
}

int ggi_emit_persistent(const ggi_module *m, const ggi_persistent *p, unsigned target,
                        const char *templates_dir, ggi_buf *out, ggi_diag *d)
{
  const ggi_persistent_shape *sp = ggi_shape_of(p, target);
  if (!sp)
    return ggi_fail_at(d, m->file, p->line, "persistent \"%s\": no plan for target %u", p->name,
                       target);
  const ggi_persistent_shape s = *sp;

  ggi_buf cases = {0}, args_max, seq_words = {0};
  render_cases(m, p, sp, &cases, &args_max);
  render_seq_words(m, p, target, &seq_words);
  char block[16], groups[16], multi[4], batch[16], slot_bytes[16], peers[4];
  snprintf(batch, sizeof batch, "%d", s.ring_batch);
  snprintf(slot_bytes, sizeof slot_bytes, "%u", (unsigned)s.slot_bytes);
  snprintf(block, sizeof block, "%d", s.block);
  snprintf(groups, sizeof groups, "%d", s.groups);
  snprintf(multi, sizeof multi, "%d", ggi_arrangement_has_blocks(p->arrangement));
  snprintf(peers, sizeof peers, "%d", s.gpus > 1); /* its frames on a team: the relay */
  ggi_buf symbol = {0};
  ggi_buf_printf(&symbol, "gg_persist_%s", p->name);

  int rc = -1;
  if (!ggi_buf_ok(&cases) || !ggi_buf_ok(&args_max) || !ggi_buf_ok(&symbol) ||
      !ggi_buf_ok(&seq_words)) {
    ggi_fail_at(d, m->file, p->line, "out of memory");
    goto done;
  }
  ggi_dict dict = {0};
  ggi_dict_set(&dict, "NAME", p->name);
  ggi_dict_set(&dict, "SYMBOL", symbol.p);
  ggi_dict_set(&dict, "BLOCK", block);
  ggi_dict_set(&dict, "GROUPS", groups);
  ggi_dict_set(&dict, "MULTI", multi);
  ggi_dict_set(&dict, "PEERS", peers);
  ggi_dict_set(&dict, "SEQ_WORDS", seq_words.p);
  ggi_dict_set(&dict, "RING_BATCH", batch);
  ggi_dict_set(&dict, "SLOT_BYTES", slot_bytes);
  ggi_dict_set(&dict, "ARGS_MAX", args_max.p);
  ggi_dict_set(&dict, "CASES", cases.p);
  const char *path = target == GGI_TARGET_CUDA ? "cuda/persistent.cuh" : "hip/persistent.hip";
  rc = ggi_render_template(templates_dir, path, &dict, out, d);
done:
  ggi_buf_free(&cases);
  ggi_buf_free(&args_max);
  ggi_buf_free(&symbol);
  ggi_buf_free(&seq_words);
  return rc;
}
