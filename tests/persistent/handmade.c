/* handmade.c - see handmade.h. */
#include "handmade.h"
#include "emit_persistent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "plan_by_hand.h"
#include "source.h"
#include "templates.h"

/* Bodies on the virtual grid, in the generator's conventions (each in its
 * kernel's namespace GG_NS_<name>): every loop strides over g.nblocks *
 * g.nthreads, so any layout covers the work. */
static const char hm_bodies[] =
  "#define GG_FOR(i, n) for (long long i = (long long)g.block * g.nthreads + g.thread; \\\n"
  "                          i < (n); i += (long long)g.nblocks * g.nthreads)\n"
  "struct gg_args_empty { int unused; };\n"
  "namespace GG_NS_empty { __device__ void gg_body(const gg_args_empty &args, const gg_grid &g) {} }\n"
  "struct gg_args_axpb { const float *x; float *y; float a, b; long long n; };\n"
  "namespace GG_NS_axpb { __device__ void gg_body(const gg_args_axpb &args, const gg_grid &g)\n"
  "{ GG_FOR(i, args.n) args.y[i] = args.a * args.x[i] + args.b; } }\n"
  "struct gg_args_psum { const int *x; long long *part; long long n; };\n"
  "namespace GG_NS_psum { __device__ void gg_body(const gg_args_psum &args, const gg_grid &g)\n"
  "{\n"
  "  long long s = 0;\n"
  "  GG_FOR(i, args.n) s += args.x[i];\n"
  "  long long r = gg_group_reduce(g, s, (long long *)g.smem, gg_op_add());\n"
  "  if (g.thread == 0) args.part[g.block] = r;\n"
  "} }\n"
  "struct gg_args_rev { const int *x; int *y; long long n; };\n"
  "namespace GG_NS_rev { __device__ void gg_body(const gg_args_rev &args, const gg_grid &g)\n"
  "{ GG_FOR(i, args.n) args.y[args.n - 1 - i] = 2 * args.x[i]; } }\n"
  "struct gg_args_spin { const int *flag; };\n"
  "namespace GG_NS_spin { __device__ void gg_body(const gg_args_spin &args, const gg_grid &g)\n"
  "{ while (*(volatile const int *)args.flag == 0) { } } }\n"
  "struct gg_args_trap { int unused; };\n"
  "namespace GG_NS_trap { __device__ void gg_body(const gg_args_trap &args, const gg_grid &g)\n"
  "{ if (g.thread == 0) __trap(); } }\n"
  "#define GG_WRAP(k) extern \"C\" __global__ void gg_##k(gg_args_##k args) "
  "{ GG_NS_##k::gg_body(args, gg_grid_hw()); }\n"
  "GG_WRAP(empty) GG_WRAP(axpb) GG_WRAP(psum) GG_WRAP(rev) GG_WRAP(spin) GG_WRAP(trap)\n";

static const char *const hm_names[HM_NKERNELS] = {"empty", "axpb", "psum", "rev", "spin",
                                                   "trap"};
static const char *const hm_symbols[HM_NKERNELS] = {"gg_empty", "gg_axpb", "gg_psum",
                                                     "gg_rev", "gg_spin", "gg_trap"};
static const uint32_t hm_sizes[HM_NKERNELS] = {
  sizeof(hm_empty_args), sizeof(hm_axpb_args), sizeof(hm_psum_args), sizeof(hm_rev_args),
  sizeof(hm_spin_args), sizeof(hm_empty_args)};
/* psum reduces in shared memory: one 8-byte value per thread. */
static const uint32_t hm_smem[HM_NKERNELS] = {0, 0, 8192, 0, 0, 0};

/* axpb's parameters, so gg_session_start (which packs) is exercised too. */
static const gg_param_desc hm_axpb_params[] = {
  {.name = "x", .kind = GG_PARAM_VIEW, .dtype = GG_F32, .rank = 1,
   .extents = {{0, 4}}, .access = GG_ACCESS_IN, .offset = 0, .size = 8},
  {.name = "y", .kind = GG_PARAM_VIEW, .dtype = GG_F32, .rank = 1,
   .extents = {{0, 4}}, .access = GG_ACCESS_OUT, .offset = 8, .size = 8},
  {.name = "a", .kind = GG_PARAM_SCALAR, .dtype = GG_F32, .offset = 16, .size = 4,
   .extents = {{0, -1}}},
  {.name = "b", .kind = GG_PARAM_SCALAR, .dtype = GG_F32, .offset = 20, .size = 4,
   .extents = {{0, -1}}},
  {.name = "n", .kind = GG_PARAM_EXTENT, .dtype = GG_I64, .offset = 24, .size = 8,
   .extents = {{0, -1}}},
};

const char *hm_kernel_name(int kernel)
{
  return kernel >= 0 && kernel < HM_NKERNELS ? hm_names[kernel] : "?";
}

static const char *prelude_text(void)
{
  for (int i = 0; ggi_templates[i].path; i++)
    if (strcmp(ggi_templates[i].path, "cuda/prelude.cuh") == 0)
      return ggi_templates[i].text;
  return NULL;
}

static void fill_kernels(gg_kernel_desc *kd, ggi_kernel *gk)
{
  for (int i = 0; i < HM_NKERNELS; i++) {
    memset(&kd[i], 0, sizeof kd[i]);
    kd[i].name = hm_names[i];
    kd[i].symbol = hm_symbols[i];
    kd[i].pattern = GG_PATTERN_FOR;
    kd[i].mode = GG_LAUNCH_CLASSIC;
    kd[i].rank = 1;
    kd[i].range[0].param = -1;
    kd[i].range[0].value = 1;
    kd[i].league.param = -1;
    kd[i].block_size = 256;
    kd[i].items_per_thread = 1;
    kd[i].grid_rule = GG_GRID_FIXED;
    kd[i].grid_fixed = 1;
    kd[i].shared_bytes = hm_smem[i];
    kd[i].args_size = hm_sizes[i];
    kd[i].args_align = 8;
    kd[i].strategy = "handmade";
    memset(&gk[i], 0, sizeof gk[i]);
    gk[i].name = hm_names[i];
    gk[i].spec.block = 256;
  }
  kd[HM_AXPB].nparams = 5;
  kd[HM_AXPB].params = hm_axpb_params;
  kd[HM_AXPB].range[0].param = 4;
}

const gg_module_desc *hm_module(const hm_persistent *pers, int npers, char *err, size_t errlen)
{
  const char *prelude = prelude_text();
  if (!prelude) {
    snprintf(err, errlen, "cuda/prelude.cuh is not among the embedded templates");
    return NULL;
  }
  gg_kernel_desc *kd = calloc(HM_NKERNELS, sizeof *kd);
  ggi_kernel *gk = calloc(HM_NKERNELS, sizeof *gk);
  gg_persistent_desc *pd = calloc((size_t)npers, sizeof *pd);
  ggi_persistent *gp = calloc((size_t)npers, sizeof *gp);
  gg_module_desc *md = calloc(1, sizeof *md);
  if (!kd || !gk || !pd || !gp || !md) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  fill_kernels(kd, gk);
  ggi_module gm = {.name = "handmade", .file = "handmade.c", .targets = GGI_TARGET_CUDA,
                   .nkernels = HM_NKERNELS, .kernels = gk, .npersistent = npers,
                   .persistent = gp};
  ggi_buf src = {0};
  ggi_source_shared_headers(&src);
  ggi_buf_puts(&src, prelude);
  ggi_buf_puts(&src, hm_bodies);
  for (int i = 0; i < npers; i++) {
    const hm_persistent *h = &pers[i];
    ggi_persistent *p = &gp[i];
    p->name = h->name;
    p->line = i + 1;
    p->arrangement = h->layout;
    p->ncommands = h->ncommands;
    p->buffering = 1;
    p->block = h->block;
    p->blocks = h->blocks;
    p->groups = h->groups;
    p->targets = GGI_TARGET_CUDA;
    uint32_t slot = 0, smem = 0; /* the bodies' shared memory: hm_smem, not a plan's */
    for (int c = 0; c < h->ncommands; c++) {
      p->commands[c] = hm_names[h->commands[c]];
      p->command_index[c] = h->commands[c];
      if (hm_sizes[h->commands[c]] > slot)
        slot = hm_sizes[h->commands[c]];
      if (hm_smem[h->commands[c]] > smem)
        smem = hm_smem[h->commands[c]];
    }
    ggi_diag d = {{0}};
    ggi_persistent_shape shape;
    gg_persistent_command *plan = calloc((size_t)h->ncommands, sizeof *plan);
    plan_kernels_by_hand(&gm, GGI_TARGET_CUDA, hm_sizes);
    if (!plan || ggi_persistent_shape_of(&gm, p, GGI_TARGET_CUDA, &shape, &d)) {
      snprintf(err, errlen, "%s", plan ? d.msg : "out of memory");
      free(plan);
      ggi_buf_free(&src);
      return NULL;
    }
    memcpy(plan, shape.cmd, (size_t)h->ncommands * sizeof *plan);
    p->shape[0] = &shape;
    if (ggi_emit_persistent(&gm, p, GGI_TARGET_CUDA, NULL, &src, &d)) {
      snprintf(err, errlen, "%s", d.msg);
      free(plan);
      ggi_buf_free(&src);
      return NULL;
    }
    char *sym = malloc(strlen(h->name) + 16);
    sprintf(sym, "gg_persist_%s", h->name);
    pd[i] = (gg_persistent_desc){.name = h->name, .symbol = sym, .layout = h->layout,
                                 .block_size = h->block, .blocks = h->blocks,
                                 .groups = h->groups, .buffering = 1,
                                 .ncommands = h->ncommands, .commands = h->commands,
                                 .slot_args_size = slot,
                                 .shared_bytes = (smem + 15u) / 16u * 16u * (uint32_t)shape.groups,
                                 .group_smem = (smem + 15u) / 16u * 16u, .plan = plan};
  }
  if (!ggi_buf_ok(&src)) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  static const char *const opts[] = {"-std=c++17", NULL};
  md->abi = GG_MODULE_ABI;
  md->name = "handmade";
  md->lua_file = "handmade.c";
  md->gpugen_version = "test";
  md->cuda_source = ggi_buf_take(&src);
  md->cuda_options = opts;
  md->nkernels = HM_NKERNELS;
  md->kernels = kd;
  md->npersistent = npers;
  md->persistent = pd;
  free(gk);
  free(gp);
  return md;
}

void hm_module_free(const gg_module_desc *md)
{
  if (!md)
    return;
  for (int i = 0; i < md->npersistent; i++) {
    free((void *)md->persistent[i].symbol);
    free((void *)md->persistent[i].plan);
  }
  free((void *)md->persistent);
  free((void *)md->kernels);
  free((void *)md->cuda_source);
  free((void *)md);
}
