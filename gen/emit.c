/*
 * emit.c - the files `gpugen emit` writes: <module>.cu and .hip (the
 * sources, source.c), <module>.c (the sources as strings and the module
 * descriptor the runtime reads: gg_module.h) and <module>.h (argument
 * indices and typed launchers).  Every figure in the descriptor is the
 * plan stage's (plan.h); files are replaced atomically.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patterns.h"
#include "emit.h"
#include "names.h"
#include "plan.h"
#include "source.h"
#include "vocab.h"

const char *const ggi_cuda_options[] = {"-std=c++17", "-default-device", NULL};
const char *const ggi_hip_options[] = {"-std=c++17", NULL};

static void put_options(ggi_buf *b, const char *name, const char *module, const char *const *opts)
{
  ggi_buf_printf(b, "static const char *const gg_%s_options_%s[] = {", name, module);
  for (int i = 0; opts[i]; i++) ggi_buf_printf(b, "\"%s\", ", opts[i]);
  ggi_buf_puts(b, "0};\n");
}

/* A long text as a C string literal, one source line per literal line. */
static void put_literal(ggi_buf *b, const char *text)
{
  if (!*text) {
    ggi_buf_puts(b, "  \"\"");
    return;
  }
  while (*text) {
    const char *nl = strchr(text, '\n');
    size_t len = nl ? (size_t)(nl - text) + 1 : strlen(text);
    char *line = malloc(len + 1);
    if (!line) {
      b->oom = 1;
      return;
    }
    memcpy(line, text, len);
    line[len] = 0;
    ggi_buf_puts(b, "  \"");
    ggi_buf_put_cstr(b, line);
    ggi_buf_puts(b, nl && nl[1] ? "\"\n" : "\"");
    free(line);
    text += len;
  }
}

static void put_extent_desc(ggi_buf *b, const ggi_kernel *k, const ggi_extent *e)
{
  int param = -1;
  if (e->name)
    for (int i = 0; i < k->nextents; i++)
      if (strcmp(k->extents[i], e->name) == 0) param = k->nparams + i;
  ggi_buf_printf(b, "{%lld, %d}", e->name ? 0LL : (long long)e->value, param);
}

/* The descriptor's enum constants as C text, each at its own value:
 * from the enum's list where gg_module.h has one, else named one by one. */
#define ENUM_TEXT_(e, ...) [e] = #e,
static const char *const kind_enum[] = {
  ENUM_TEXT_(GG_PARAM_SCALAR) ENUM_TEXT_(GG_PARAM_VIEW) ENUM_TEXT_(GG_PARAM_EXTENT)
  ENUM_TEXT_(GG_PARAM_STRIDE) ENUM_TEXT_(GG_PARAM_HIDDEN)};
static const char *const layout_enum[] = {GG_LAYOUT_LIST(ENUM_TEXT_)};
static const char *const space_enum[] = {GG_SPACE_LIST(ENUM_TEXT_)};
static const char *const access_enum[] = {GG_ACCESS_LIST(ENUM_TEXT_)};
static const char *const hidden_enum[] = {
  ENUM_TEXT_(GG_HIDDEN_NONE) ENUM_TEXT_(GG_HIDDEN_WORKSPACE) ENUM_TEXT_(GG_HIDDEN_SEQ)};
static const char *const launch_enum[] = {
  GG_LAUNCH_LIST(ENUM_TEXT_) ENUM_TEXT_(GG_LAUNCH_PERSISTENT)};
static const char *const playout_enum[] = {GG_ARRANGEMENT_LIST(ENUM_TEXT_)};
static const char *const rule_enum[] = {
  ENUM_TEXT_(GG_GRID_COVER) ENUM_TEXT_(GG_GRID_LEAGUE) ENUM_TEXT_(GG_GRID_FIXED)
  ENUM_TEXT_(GG_GRID_RESIDENT)};
#undef ENUM_TEXT_

static void put_params(ggi_buf *b, const ggi_module *m, const ggi_kernel *k, const ggi_abi *lay)
{
  ggi_buf_printf(b, "static const gg_param_desc gg_params_%s_%s[] = {\n", m->name, k->name);
  for (int i = 0; i < lay->n; i++) {
    const ggi_field *f = &lay->f[i];
    const ggi_param *pp = f->kind == GG_PARAM_VIEW ? &k->params[f->param] : NULL;
    ggi_buf_printf(b, "  {.name = \"%s\", .kind = %s, .dtype = %s, .rank = %d,\n", f->name,
                   kind_enum[f->kind], ggi_dtype_enum(f->dtype), pp ? pp->rank : 0);
    ggi_buf_puts(b, "   .extents = {");
    for (int dim = 0; dim < 3; dim++) {
      if (pp && dim < pp->rank) put_extent_desc(b, k, &pp->ext[dim]);
      else ggi_buf_puts(b, "{0, -1}");
      ggi_buf_puts(b, dim < 2 ? ", " : "},\n");
    }
    const ggi_param *src = f->param >= 0 ? &k->params[f->param] : NULL;
    ggi_buf_printf(b, "   .layout = %s, .space = %s, .access = %s, .hidden = %s,\n",
                   layout_enum[src && pp ? src->layout : 0], space_enum[src && pp ? src->space : 0],
                   access_enum[src && f->kind != GG_PARAM_STRIDE ? src->access : 0],
                   hidden_enum[f->hidden]);
    ggi_buf_printf(b, "   .offset = %u, .size = %u},\n", f->offset, f->size);
  }
  ggi_buf_puts(b, "};\n\n");
}


/* Everything the descriptor needs about one kernel: its stored plan for
 * the descriptor's target (plan.h: ggi_desc_target; the plan stage checks
 * that the figures are the same on every target). */
typedef struct kinfo {
  ggi_plan plan;
  ggi_abi lay;
} kinfo;

static int kernel_info(const ggi_module *m, const ggi_kernel *k, kinfo *ki, ggi_diag *d)
{
  const ggi_plan *p = ggi_plan_of(k, ggi_desc_target(k->targets));
  if (!p) return ggi_fail_at(d, m->file, k->line, "kernel \"%s\" has no plan", k->name);
  ki->plan = *p;
  ki->lay = p->args;
  return 0;
}

static void put_kernel_desc(ggi_buf *b, const ggi_module *m, const ggi_kernel *k, const kinfo *ki)
{
  const ggi_plan *p = &ki->plan;
  /* a frame has no function of its own: its stages run in a persistent kernel */
  const ggi_pattern_row *row = ggi_pattern_of(k->pattern);
  ggi_buf_printf(b, "  {.name = \"%s\", .symbol = \"gg_%s%s\", .pattern = %s,\n", k->name,
                 row->symbol_prefix, k->name, row->enum_name);
  ggi_buf_printf(b, "   .mode = %s, .rank = %d, .range = {",
                 launch_enum[k->launch], k->rank);
  for (int dim = 0; dim < 3; dim++) {
    if (dim < k->rank) put_extent_desc(b, k, &k->range[dim]);
    else ggi_buf_puts(b, "{0, -1}");
    ggi_buf_puts(b, dim < 2 ? ", " : "},\n");
  }
  ggi_buf_puts(b, "   .league = ");
  if (row->props & GGI_PAT_LEAGUE)
    put_extent_desc(b, k, &k->league);
  else ggi_buf_puts(b, "{0, -1}");
  ggi_buf_printf(b, ", .block_size = %d, .items_per_thread = %d,\n", k->spec.block, k->spec.items);
  ggi_buf_printf(b, "   .grid_rule = %s, .grid_fixed = %lld, .cap_resident = %d, .shared_bytes = %u,\n",
                 rule_enum[p->grid_rule], (long long)p->grid_fixed, p->cap_resident,
                 (unsigned)p->shared_bytes);
  if (p->league_blocks > 1)
    ggi_buf_printf(b, "   .league_blocks = %lld,\n", (long long)p->league_blocks);
  ggi_buf_printf(b, "   .ws_fixed = %u, .ws_per_block = %u, .features = ", (unsigned)p->ws_fixed,
                 (unsigned)p->ws_per_block);
  ggi_put_features(b, p->features);
  ggi_buf_printf(b, ",\n   .args_size = %u, .args_align = %u, .nparams = %d, .params = gg_params_%s_%s,\n",
                 ki->lay.size, ki->lay.align, ki->lay.n, m->name, k->name);
  ggi_buf_printf(b, "   .strategy = \"%s\", .lua_line = %d",
                 ggi_has_reduction(k) ? ggi_strategy_name(k->spec.strategy) : ggi_pattern_name(k->pattern),
                 k->line);
  if (p->small_block > 0)
    ggi_buf_printf(b, ", .small_block = %d, .small_work = %lld", p->small_block,
                   (long long)p->small_work);
  int into = -1;
  /* tiles: only tile_reduce reads one (the runtime checks into's extent) */
  for (int i = 0; k->tile > 0 && i < k->nparams; i++)
    if (strcmp(k->params[i].name, k->into) == 0) into = i;
  ggi_buf_printf(b, ",\n   .tile = %d, .into_param = %d", k->tile, into);
  if (k->variant_of) /* tile = "auto" (gen/variants.c) */
    ggi_buf_printf(b, ", .variant_of = %d", k->variant_of);
  if (k->frame && k->frame->result >= 0) /* the plan's (gen/frame_schedule.c: ack_plan) */
    ggi_buf_printf(b, ",\n   .result_bytes = %u, .result_param = %d, .ack_relaxed = %d",
                   ggi_dtype_size(k->params[k->frame->result].dtype), k->frame->result,
                   k->frame->ack_relaxed);
  ggi_buf_puts(b, "},\n");
}

static void put_persistent_desc(ggi_buf *b, const ggi_module *m, const ggi_persistent *p,
                                const ggi_persistent_shape *shape)
{
  ggi_buf_printf(b, "  {.name = \"%s\", .symbol = \"gg_persist_%s\", .layout = %s,\n", p->name,
                 p->name, playout_enum[p->arrangement]);
  ggi_buf_printf(b, "   .block_size = %d, .blocks = %d, .groups = %d, .buffering = %d,\n",
                 shape->block, shape->blocks, shape->groups, p->buffering);
  ggi_buf_printf(b, "   .ncommands = %d, .commands = gg_commands_%s_%s, .slot_args_size = %u,\n",
                 p->ncommands, m->name, p->name, (unsigned)shape->slot_bytes);
  ggi_buf_printf(b, "   .shared_bytes = %u, .lua_line = %d, .group_smem = %u,\n",
                 (unsigned)shape->shared_bytes, p->line, (unsigned)shape->group_smem);
  ggi_buf_printf(b, "   .plan = gg_pcommands_%s_%s", m->name, p->name);
  if (shape->gpus > 1) /* frames on several GPUs: the team and its symmetric memory */
    ggi_buf_printf(b, ",\n   .gpus = %d, .sym_bytes = %lluull", shape->gpus,
                   (unsigned long long)shape->sym_bytes);
  ggi_buf_puts(b, "},\n");
}

/* The persistent kernels' plans, in the target the descriptor describes
 * (the one its source was rendered for first). */
static int persistent_shapes(const ggi_module *m, ggi_persistent_shape **out, ggi_diag *d)
{
  *out = NULL;
  if (!m->npersistent) return 0;
  ggi_persistent_shape *sh = ggi_alloc(m->arena, sizeof *sh * (size_t)m->npersistent);
  if (!sh) return ggi_fail(d, "out of memory");
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    const ggi_persistent_shape *s = ggi_shape_of(p, ggi_desc_target(p->targets));
    if (!s) return ggi_fail_at(d, m->file, p->line, "persistent \"%s\" has no plan", p->name);
    sh[i] = *s;
  }
  *out = sh;
  return 0;
}

static int write_module_c(ggi_buf *b, const ggi_module *m, const char *cu, const char *hip,
                          const kinfo *ki, ggi_diag *d)
{
  ggi_source_header(b, m, 0, "the kernel sources and their descriptors (gg_module.h)");
  ggi_buf_printf(b, "#include \"%s.h\"\n\n", m->name);
  const char *texts[GGI_TARGET_COUNT] = {[GGI_TARGET_CUDA_BIT] = cu, [GGI_TARGET_HIP_BIT] = hip};
  for (int t = 0; t < GGI_TARGET_COUNT; t++) {
    if (!texts[t]) continue;
    ggi_buf_printf(b, "static const char gg_%s_source_%s[] =\n", ggi_target_names[t], m->name);
    put_literal(b, texts[t]);
    ggi_buf_puts(b, ";\n\n");
  }
  put_options(b, "cuda", m->name, ggi_cuda_options);
  put_options(b, "hip", m->name, ggi_hip_options);
  ggi_buf_puts(b, "\n");
  for (int i = 0; i < m->nkernels; i++) put_params(b, m, &m->kernels[i], &ki[i].lay);
  if (m->nkernels) {
    ggi_buf_printf(b, "static const gg_kernel_desc gg_kernels_%s[] = {\n", m->name);
    for (int i = 0; i < m->nkernels; i++) put_kernel_desc(b, m, &m->kernels[i], &ki[i]);
    ggi_buf_puts(b, "};\n\n");
  }
  ggi_persistent_shape *shapes;
  if (persistent_shapes(m, &shapes, d) != 0) return -1;
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    ggi_buf_printf(b, "static const int gg_commands_%s_%s[] = {", m->name, p->name);
    for (int c = 0; c < p->ncommands; c++) ggi_buf_printf(b, "%s%d", c ? ", " : "", p->command_index[c]);
    ggi_buf_puts(b, "};\n");
    ggi_buf_printf(b, "static const gg_persistent_command gg_pcommands_%s_%s[] = {\n", m->name,
                   p->name);
    for (int c = 0; c < p->ncommands; c++) {
      const gg_persistent_command *pc = &shapes[i].cmd[c];
      ggi_buf_printf(b, "  {.ws_fixed = %u, .ws_per_block = %u, .min_threads = %d, "
                        ".max_threads = %d}, /* %s */\n",
                     (unsigned)pc->ws_fixed, (unsigned)pc->ws_per_block, pc->min_threads,
                     pc->max_threads, p->commands[c]);
    }
    ggi_buf_puts(b, "};\n");
  }
  if (m->npersistent) {
    ggi_buf_printf(b, "\nstatic const gg_persistent_desc gg_persistent_%s[] = {\n", m->name);
    for (int i = 0; i < m->npersistent; i++)
      put_persistent_desc(b, m, &m->persistent[i], &shapes[i]);
    ggi_buf_puts(b, "};\n");
  }
  ggi_buf_printf(b, "\nconst gg_module_desc gg_module_%s = {\n", m->name);
  ggi_buf_printf(b, "  .abi = GG_MODULE_ABI,\n  .name = \"%s\",\n  .lua_file = \"", m->name);
  ggi_buf_put_cstr(b, m->file ? m->file : "");
  ggi_buf_printf(b, "\",\n  .gpugen_version = \"%s\",\n", GG_VERSION_STRING);
  ggi_buf_printf(b, "  .cuda_source = %s%s,\n", cu ? "gg_cuda_source_" : "NULL", cu ? m->name : "");
  ggi_buf_printf(b, "  .hip_source = %s%s,\n", hip ? "gg_hip_source_" : "NULL", hip ? m->name : "");
  ggi_buf_printf(b, "  .cuda_options = gg_cuda_options_%s,\n  .hip_options = gg_hip_options_%s,\n",
                 m->name, m->name);
  ggi_buf_printf(b, "  .nkernels = %d,\n  .kernels = %s%s,\n", m->nkernels,
                 m->nkernels ? "gg_kernels_" : "NULL", m->nkernels ? m->name : "");
  ggi_buf_printf(b, "  .npersistent = %d,\n  .persistent = %s%s,\n};\n", m->npersistent,
                 m->npersistent ? "gg_persistent_" : "NULL", m->npersistent ? m->name : "");
  return 0;
}

/* gg.h has a constructor gg_arg_<spelling> for every element type
 * (gg_arg_f16 and gg_arg_bf16 take a float), none for a hidden pointer. */
static int has_gg_arg(gg_dtype t) { return (unsigned)t < GG_PTR; }

static void upper(ggi_buf *b, const char *s)
{
  for (; *s; s++) {
    char c = *s;
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    ggi_buf_putn(b, &c, 1);
  }
}

/* The header's names for kernel k (names.c's ggi_name_part: the kernel's
 * part is left out when it repeats the module's name):
 *   GG_<MODULE>[_<KERNEL>]_<ARG>, _NARGS, _FIELDS   argument indices (names.c's
 *                                                    ggi_arg_id), X-macro
 *   gg_<module>_args[_<kernel>]                      the argument struct
 *   gg_<module>_launch[_<kernel>]                    typed launcher
 *   gg_<module>_start[_<kernel>]                     typed starter (frames and
 *                                                    persistent commands) */
static void put_kernel_api(ggi_buf *b, const ggi_module *m, const ggi_kernel *k, const ggi_abi *lay)
{
  char part[GGI_NAME_PART_MAX];
  ggi_name_part(m->name, k->name, part);
  ggi_buf_printf(b, "\n/* %s (\"", k->name);
  ggi_buf_put_cstr(b, m->file ? m->file : "?");
  /* A frame is started in a session, never launched; a command of a
     persistent kernel is both launched and started.  Starters take the
     command id (GG_<MODULE>_<PERSISTENT>_CMD_<COMMAND>) because one kernel
     may be a command of several persistent kernels. */
  int frame = ggi_pattern_is(k, GGI_PAT_CHAIN), command = frame;
  for (int p = 0; p < m->npersistent; p++)
    for (int c = 0; c < m->persistent[p].ncommands; c++)
      command |= m->persistent[p].command_index[c] == (int)(k - m->kernels);
  ggi_buf_printf(b, "\":%d): arguments of %s, in this order. */\nenum {\n", k->line,
                 frame ? "gg_session_start" : command ? "gg_launch and gg_session_start" : "gg_launch");
  int nargs = 0, typed = 1;
  for (int i = 0; i < lay->n; i++) {
    if (lay->f[i].kind == GG_PARAM_HIDDEN) continue;
    ggi_buf_puts(b, "  GG_");
    upper(b, m->name);
    upper(b, part);
    char id[GGI_NAME_PART_MAX];
    ggi_buf_printf(b, "_%s = %d,\n", ggi_arg_id(k, lay->f[i].name, id), nargs++);
    if (lay->f[i].kind != GG_PARAM_VIEW && !has_gg_arg(lay->f[i].dtype)) typed = 0;
  }
  ggi_buf_puts(b, "  GG_");
  upper(b, m->name);
  upper(b, part);
  ggi_buf_printf(b, "_NARGS = %d\n};\n", nargs);

  /* The argument struct as the host sees it (same offsets: the header
     asserts them), e.g. for building persistent frames by hand. */
  /* No fields: an empty struct, a GNU C extension (size 0, the
     descriptor's args_size) to which C++ gives size 1.  Said so to the
     compilers, which would otherwise warn (gcc -pedantic: no members;
     clang++ -Wextern-c-compat: sizes differ), and -Werror refuse it. */
  if (!lay->n)
    ggi_buf_puts(b, "#ifdef __clang__\n#pragma clang diagnostic push\n"
                    "#pragma clang diagnostic ignored \"-Wextern-c-compat\"\n#endif\n"
                    "__extension__ ");
  ggi_buf_printf(b, "typedef struct gg_%s_args%s {\n", m->name, part);
  for (int i = 0; i < lay->n; i++) {
    const ggi_field *f = &lay->f[i];
    const char *t = f->kind == GG_PARAM_VIEW || f->hidden == GG_HIDDEN_WORKSPACE
                        ? "void *" : ggi_dtype_host_ctype(f->dtype);
    ggi_buf_printf(b, "  %s%s%s;\n", t, t[strlen(t) - 1] == '*' ? "" : " ", f->name);
  }
  ggi_buf_printf(b, "} gg_%s_args%s;\n", m->name, part);
  if (!lay->n)
    ggi_buf_puts(b, "#ifdef __clang__\n#pragma clang diagnostic pop\n#endif\n");
  /* The layout the kernel and the descriptor use, the plan's: a compiler
     that lays the struct out otherwise stops here instead of handing
     hand-built frames to the kernel at the wrong offsets.  A struct
     without fields has no layout (C++ gives it size 1, GNU C 0). */
  if (lay->n)
    ggi_buf_printf(b, "GG_STATIC_ASSERT(sizeof(gg_%s_args%s) == %u, "
                      "\"gg_%s_args%s: size differs from the kernel's\");\n",
                   m->name, part, lay->size, m->name, part);
  for (int i = 0; i < lay->n; i++)
    ggi_buf_printf(b, "GG_STATIC_ASSERT(offsetof(gg_%s_args%s, %s) == %u, "
                      "\"gg_%s_args%s.%s: offset differs from the kernel's\");\n",
                   m->name, part, lay->f[i].name, lay->f[i].offset, m->name, part, lay->f[i].name);
  /* X(struct type, kernel index, field) for every field: lets tools and
     tests walk the struct without knowing it.  The parameter is GG_X, a
     name no field can have: a field named X would be replaced too. */
  ggi_buf_puts(b, "#define GG_");
  upper(b, m->name);
  upper(b, part);
  ggi_buf_puts(b, "_FIELDS(GG_X)");
  for (int i = 0; i < lay->n; i++)
    ggi_buf_printf(b, " GG_X(gg_%s_args%s, %d, %s)", m->name, part, (int)(k - m->kernels),
                   lay->f[i].name);
  ggi_buf_puts(b, "\n");

  if (!typed) return;
  for (int starter = frame; starter <= command; starter++) {
    /* gg_-prefixed locals: workload names can't collide with them */
    if (starter)
      ggi_buf_printf(b, "static inline gg_status gg_%s_start%s(gg_session *gg_s, int gg_cmd, "
                        "uint64_t *gg_frame", m->name, part);
    else
      ggi_buf_printf(b, "static inline gg_status gg_%s_launch%s(gg_kernel *gg_k, gg_stream *gg_s",
                     m->name, part);
    for (int i = 0; i < lay->n; i++) {
      const ggi_field *f = &lay->f[i];
      if (f->kind == GG_PARAM_HIDDEN) continue;
      if (f->kind == GG_PARAM_VIEW) ggi_buf_printf(b, ", gg_array *%s", f->name);
      else if (ggi_dtype_is_half(f->dtype)) ggi_buf_printf(b, ", float %s", f->name);
      else ggi_buf_printf(b, ", %s %s", ggi_dtype_host_ctype(f->dtype), f->name);
    }
    /* one element at least: C has no empty arrays */
    ggi_buf_printf(b, ")\n{\n  const gg_arg gg_a[%d] = {", nargs ? nargs : 1);
    int first = 1;
    for (int i = 0; i < lay->n; i++) {
      const ggi_field *f = &lay->f[i];
      if (f->kind == GG_PARAM_HIDDEN) continue;
      ggi_buf_printf(b, "%sgg_arg_%s(%s)", first ? "" : ", ",
                     f->kind == GG_PARAM_VIEW ? "array" : ggi_dtype_name(f->dtype), f->name);
      first = 0;
    }
    if (nargs == 0) ggi_buf_puts(b, "gg_arg_i64(0)");
    if (starter)
      ggi_buf_printf(b, "};\n  return gg_session_start(gg_s, gg_cmd, gg_a, %d, gg_frame);\n}\n",
                     nargs);
    else
      ggi_buf_printf(b, "};\n  return gg_launch(gg_k, gg_s, gg_a, %d);\n}\n", nargs);
  }
}

static int by_name(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The workload's names the header declares - its fields and launcher
 * parameters: params, extents, strides; hidden fields are gg_ names -
 * each once, sorted, in *out (freed by the caller); -1 when out of memory. */
static int workload_names(const ggi_module *m, const kinfo *ki, const char ***out, int *n)
{
  int total = 0;
  for (int i = 0; i < m->nkernels; i++) total += ki[i].lay.n;
  const char **v = malloc(sizeof *v * (size_t)(total ? total : 1));
  if (!v) return -1;
  *n = 0;
  for (int i = 0; i < m->nkernels; i++)
    for (int j = 0; j < ki[i].lay.n; j++)
      if (ki[i].lay.f[j].kind != GG_PARAM_HIDDEN) v[(*n)++] = ki[i].lay.f[j].name;
  qsort(v, (size_t)*n, sizeof *v, by_name);
  int u = 0;
  for (int i = 0; i < *n; i++)
    if (u == 0 || strcmp(v[u - 1], v[i]) != 0) v[u++] = v[i];
  *n = u;
  *out = v;
  return 0;
}

static int write_module_h(ggi_buf *b, const ggi_module *m, const kinfo *ki)
{
  const char **guard;
  int nguard;
  if (workload_names(m, ki, &guard, &nguard) != 0) return -1;
  ggi_source_header(b, m, 0, "the module descriptor, argument indices, typed launchers and starters");
  ggi_buf_puts(b, "#ifndef GG_MODULE_");
  upper(b, m->name);
  ggi_buf_puts(b, "_H\n#define GG_MODULE_");
  upper(b, m->name);
  ggi_buf_puts(b, "_H\n\n#include <stdint.h>\n#include \"gg.h\"\n");
  int sessions = m->npersistent > 0; /* typed starters of frames and commands */
  for (int i = 0; i < m->nkernels; i++) sessions |= ggi_pattern_is(&m->kernels[i], GGI_PAT_CHAIN);
  if (sessions) ggi_buf_puts(b, "#include \"gg_session.h\"\n");
  /* A header included before this one may define a macro named like a
     field or parameter of the workload (<sys/stat.h>: st_mtime, <netdb.h>:
     h_addr, <signal.h>: sa_handler, ...), which would rewrite the
     declarations below, or worse, change a struct's layout and still
     compile.  Each such name is saved and removed here and restored at
     the end; every other name the header declares starts with gg_/GG_. */
  if (nguard)
    ggi_buf_puts(b, "\n/* The workload's names, safe from macros of the same name until the "
                    "end of this header. */\n");
  for (int i = 0; i < nguard; i++)
    ggi_buf_printf(b, "#pragma push_macro(\"%s\")\n#undef %s\n", guard[i], guard[i]);
  ggi_buf_puts(b, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  ggi_buf_printf(b, "extern const gg_module_desc gg_module_%s;\n", m->name);
  for (int i = 0; i < m->nkernels; i++) put_kernel_api(b, m, &m->kernels[i], &ki[i].lay);
  /* Command ids: what gg_session_start and the typed starters take. */
  for (int i = 0; i < m->npersistent; i++) {
    const ggi_persistent *p = &m->persistent[i];
    char part[GGI_NAME_PART_MAX];
    ggi_name_part(m->name, p->name, part);
    ggi_buf_printf(b, "\n/* persistent %s (\"", p->name);
    ggi_buf_put_cstr(b, m->file ? m->file : "?");
    ggi_buf_printf(b, "\":%d): command ids of its sessions. */\nenum {\n", p->line);
    for (int c = 0; c < p->ncommands; c++) {
      ggi_buf_puts(b, "  GG_");
      upper(b, m->name);
      upper(b, part);
      ggi_buf_puts(b, "_CMD_");
      upper(b, p->commands[c]);
      ggi_buf_printf(b, " = %d,\n", c);
    }
    ggi_buf_puts(b, "  GG_");
    upper(b, m->name);
    upper(b, part);
    ggi_buf_printf(b, "_NCOMMANDS = %d\n};\n", p->ncommands);
  }
  /* X gets each field's name as a token, which a macro of that name where
     the list is expanded rewrites: the header cannot shield it there. */
  ggi_buf_puts(b, "\n/* Every kernel's fields: X(struct type, kernel index, field).  Where a macro\n"
                  "   is named like a field, #undef it before expanding this (the header\n"
                  "   shields its own declarations only). */\n#define GG_");
  upper(b, m->name);
  ggi_buf_puts(b, "_ALL_FIELDS(GG_X)");
  for (int i = 0; i < m->nkernels; i++) {
    char part[GGI_NAME_PART_MAX];
    ggi_buf_puts(b, " GG_");
    upper(b, m->name);
    upper(b, ggi_name_part(m->name, m->kernels[i].name, part));
    ggi_buf_puts(b, "_FIELDS(GG_X)");
  }
  ggi_buf_puts(b, "\n");
  ggi_buf_puts(b, "\n#ifdef __cplusplus\n}\n#endif\n");
  if (nguard) ggi_buf_puts(b, "\n/* The including program's macros again. */\n");
  for (int i = 0; i < nguard; i++) ggi_buf_printf(b, "#pragma pop_macro(\"%s\")\n", guard[i]);
  ggi_buf_puts(b, "#endif\n");
  free(guard);
  return ggi_buf_ok(b) ? 0 : -1;
}

/* Write through a temporary file and rename, so a reader never sees half
 * a file and a failed run leaves the old one. */
static int write_atomic(const char *dir, const char *name, const char *text, ggi_diag *d)
{
  size_t n = strlen(dir) + strlen(name) + 32;
  char *path = malloc(n), *tmp = malloc(n);
  if (!path || !tmp) {
    free(path);
    free(tmp);
    return ggi_fail(d, "out of memory");
  }
  snprintf(path, n, "%s/%s", dir, name);
  snprintf(tmp, n, "%s/.%s.XXXXXX", dir, name);
  int rc = 0;
  /* mkstemp: a new file of our own, never a name someone could plant a
   * symbolic link at; then the usual mode (0666 less the umask) */
  FILE *f = NULL;
  int fd = mkstemp(tmp);
  if (fd >= 0) {
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) == 0) f = fdopen(fd, "wb");
    if (!f) {
      int e = errno;
      close(fd);
      remove(tmp);
      errno = e;
    }
  }
  if (!f) {
    rc = ggi_fail(d, "cannot write %s: %s", tmp, strerror(errno));
  } else {
    size_t len = strlen(text);
    int bad = fwrite(text, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad) rc = ggi_fail(d, "cannot write %s: %s", tmp, strerror(errno));
    else if (rename(tmp, path) != 0) rc = ggi_fail(d, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    if (rc) remove(tmp);
  }
  free(path);
  free(tmp);
  return rc;
}

int ggi_emit(const ggi_module *m, const char *dir, const char *templates_dir, ggi_diag *d)
{
  char *src[2] = {NULL, NULL};
  const unsigned targets[2] = {GGI_TARGET_CUDA, GGI_TARGET_HIP};
  const char *ext[2] = {"cu", "hip"};
  kinfo *ki = calloc((size_t)(m->nkernels > 0 ? m->nkernels : 1), sizeof *ki);
  ggi_buf c = {0}, h = {0};
  char name[300];
  int rc = ki ? 0 : ggi_fail(d, "out of memory");
  /* the output folder itself may be new; its parent must exist */
  if (rc == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST)
    rc = ggi_fail(d, "cannot create the output folder %s: %s", dir, strerror(errno));
  for (int t = 0; rc == 0 && t < 2; t++)
    if (m->targets & targets[t]) rc = ggi_render_source(m, targets[t], templates_dir, &src[t], d);
  for (int i = 0; rc == 0 && i < m->nkernels; i++) rc = kernel_info(m, &m->kernels[i], &ki[i], d);
  if (rc == 0) rc = write_module_c(&c, m, src[0], src[1], ki, d);
  if (rc == 0 && (!ggi_buf_ok(&c) || write_module_h(&h, m, ki) != 0))
    rc = ggi_fail(d, "out of memory writing module %s", m->name);
  for (int t = 0; rc == 0 && t < 2; t++) {
    if (!src[t]) continue;
    snprintf(name, sizeof name, "%s.%s", m->name, ext[t]);
    rc = write_atomic(dir, name, src[t], d);
  }
  if (rc == 0) {
    snprintf(name, sizeof name, "%s.c", m->name);
    rc = write_atomic(dir, name, c.p, d);
  }
  if (rc == 0) {
    snprintf(name, sizeof name, "%s.h", m->name);
    rc = write_atomic(dir, name, h.p, d);
  }
  free(src[0]);
  free(src[1]);
  free(ki);
  ggi_buf_free(&c);
  ggi_buf_free(&h);
  return rc;
}

