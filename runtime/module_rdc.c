/*
 * module_rdc.c - gg_module_load_rdc: gg_module_load (module.c) with the
 * rdc builder, NVRTC -rdc=true then nvJitLink with libcudadevrt.a
 * (link.c), for kernels that launch kernels.
 *
 * It sits above both module.c and link.c, so link.c's compile-and-link
 * never calls into the module loader.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "cache.h"
#include "internal.h"
#include "link.h"
#include "toolkit.h"

/* Everything that changes the linked binary: NVRTC's identity, the
 * device runtime archive, and "-rdc=true" so a plain build of the same
 * source never shares the entry. */
static gg_status rdc_key(gg_context *ctx, const gg_module_desc *d, ggr_key *key) {
  char ident[1500], devrt[700];
  struct stat sb = {0};
  snprintf(devrt, sizeof devrt, "%s/lib64/libcudadevrt.a", ggr_cuda_home());
  stat(devrt, &sb);
  snprintf(ident, sizeof ident, "%s %d.%d %s -rdc=true nvJitLink %s %lld %lld", ctx->rtc->name,
           ctx->rtc->version_major, ctx->rtc->version_minor, ctx->rtc->lib_path, devrt,
           (long long)sb.st_size, (long long)sb.st_mtim.tv_sec);
  ggr_options opts;
  gg_status st = ggr_module_options(ctx, d, &opts);
  if (st) return st;
  ggr_key_parts p = {
    .source = d->cuda_source, .options = opts.list, .arch = ctx->arch,
    .compiler = ident, .driver_version = ctx->driver_version,
    .gpugen_version = gg_version(), .abi = GG_MODULE_ABI,
  };
  *key = ggr_cache_key(&p);
  ggr_module_options_free(&opts);
  return GG_OK;
}

/* The rdc build: NVRTC -rdc=true, then nvJitLink with libcudadevrt.a. */
static gg_status rdc_compile(gg_context *ctx, const gg_module_desc *d, void **bin, size_t *size,
                             double *ms) {
  gg_compile_result res;
  ggr_options opts;
  gg_status st = ggr_module_options(ctx, d, &opts);
  if (st) return st;
  double t0 = ggr_now_ms();
  st = ggr_compile_rdc_with(ctx->rtc, ctx->arch, d->lua_file ? d->lua_file : d->name,
                            d->cuda_source, opts.list, &res);
  *ms = ggr_now_ms() - t0;
  ggr_module_options_free(&opts);
  if (st) {
    ggr_set_error(st, "%s: NVRTC -rdc + nvJitLink for %s failed:",
                  d->name ? d->name : "module", ctx->arch);
    ggr_append_log(res.log);
    gg_compile_result_free(&res);
    return st;
  }
  *bin = res.binary;
  *size = res.binary_size;
  res.binary = NULL;
  gg_compile_result_free(&res);
  return GG_OK;
}

static gg_status rdc_check(gg_context *ctx, const gg_module_desc *d) {
  if (ctx->be->kind != GG_BACKEND_CUDA)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "gg_module_load_rdc: device-side launch is "
                         "CUDA only (this context is %s)", ctx->be->name);
  if (d->abi != GG_MODULE_ABI)
    return ggr_set_error(GG_ERR_INVALID, "module %s was generated for ABI %d; this runtime "
                         "reads ABI %d", d->name ? d->name : "?", d->abi, GG_MODULE_ABI);
  if (!d->cuda_source)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "module %s has no CUDA source",
                         d->name ? d->name : "?");
  if (d->nkernels < 0 || (d->nkernels > 0 && !d->kernels))
    return ggr_set_error(GG_ERR_INVALID, "module %s: bad kernel table", d->name);
  char words[256];
  for (int i = 0; i < d->nkernels; i++)
    if (ggr_compiled_features(d->kernels[i].features, words, sizeof words))
      return ggr_set_error(GG_ERR_UNSUPPORTED, "module %s: kernel %s uses %s, which the "
                           "device-side launch build does not compile; load it with "
                           "gg_module_load", d->name ? d->name : "?", d->kernels[i].name, words);
  if (!ctx->rtc) {
    char err[1200];
    gg_status st = ggr_compiler_load(GG_BACKEND_CUDA, &ctx->rtc, err, sizeof err);
    if (st) return ggr_set_error(st, "%s", err);
  }
  return ggr_make_current(ctx);
}

static const ggr_builder rdc_builder = {"module load (linked rdc cubin)", rdc_check, rdc_key,
                                        rdc_compile};

gg_status gg_module_load_rdc(gg_context *ctx, const gg_module_desc *desc, gg_module **out) {
  return ggr_module_load_with(ctx, desc, &rdc_builder, out);
}
