/*
 * module.c - compile (or fetch from the cache) and load a generated module.
 *
 * Start-up path, in order of cost:
 *   1. the same descriptor already loaded in this context: share it;
 *   2. the disk cache holds a binary for (source, options, device arch,
 *      compiler identity, driver, gpugen version, ABI): load it - no
 *      compiler is even opened;
 *   3. compile with NVRTC / hiprtc for the device's arch (CUDA: PTX for the
 *      newest arch this NVRTC knows when the device is newer still), store,
 *      load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache.h"
#include "describe.h"
#include "internal.h"
#include "nvshmem.h"
#include "toolkit.h"


/* Name the compiler without opening it: the NVRTC file's path, size and
 * mtime change with every toolkit update.  Returns -1 when only opening it
 * can tell (HIP, or NVRTC found on the default library path). */
static int compiler_identity(gg_context *ctx, char *buf, size_t n) {
  if (ctx->be->kind != GG_BACKEND_CUDA) return -1;
  for (size_t i = 0; ggr_nvrtc_sonames[i]; i++) {
    char path[700];
    struct stat sb;
    snprintf(path, sizeof path, "%s/lib64/%s", ggr_cuda_home(), ggr_nvrtc_sonames[i]);
    if (stat(path, &sb) == 0) {
      snprintf(buf, n, "NVRTC %s %lld %lld.%09ld", path, (long long)sb.st_size,
               (long long)sb.st_mtim.tv_sec, sb.st_mtim.tv_nsec);
      return 0;
    }
  }
  return -1;
}

static gg_status open_compiler(gg_context *ctx) {
  if (ctx->rtc) return GG_OK;
  char err[1200];
  gg_status st = ggr_compiler_load(ctx->be->kind, &ctx->rtc, err, sizeof err);
  return st ? ggr_set_error(st, "%s", err) : GG_OK;
}

/* What the module's kernels need from the compile (GG_FEAT_MATHDX, GG_FEAT_NVSHMEM). */
static unsigned module_features(const gg_module_desc *d) {
  unsigned f = 0;
  for (int i = 0; i < d->nkernels; i++) f |= d->kernels[i].features;
  return f;
}

/* ---- the compile's options ----
 * The descriptor's, then for CUDA one -DGG_MIN_BLOCKS_<symbol>=N per
 * persistent kernel of several blocks: the minimum of its
 * __launch_bounds__ (templates/cuda/persistent.cuh), the blocks ptxas
 * must let share an SM, so registers a thread <= 65536 / (N x block).
 * N is what gives an SM GGR_PERSIST_SM_THREADS threads, or more where
 * the descriptor's blocks need more on this context's SMs (rounded up);
 * one-block layouts keep the template's 1.  Without a minimum ptxas
 * guessed: it kept 256-thread persistent kernels to 64 registers,
 * spilled, and batched a matmul's loads 2 deep (its frame 7.8 -> 13.1 us
 * on the H100 once another command's loop got staged); with 2 blocks of
 * 256 an SM it used 101 and issued all 32 loads of an unrolled step
 * first (6.4 us).  A session may still ask for more blocks than N an SM
 * (gg_session_options.blocks); choose_blocks (session.c) refuses what
 * cannot co-reside, with the figures. */
/* The minimum for persistent kernel pd on ctx: 1 where the template's
 * default does. */
static long long min_blocks_per_sm(const gg_context *ctx, const gg_persistent_desc *pd) {
  if (pd->layout == GG_PLAYOUT_ONE_BLOCK || pd->layout == GG_PLAYOUT_THREAD_GROUPS ||
      pd->block_size <= 0)
    return 1;
  long long n = (GGR_PERSIST_SM_THREADS + pd->block_size - 1) / pd->block_size;
  long long need = pd->blocks > 0 && ctx->sm_count > 0
                       ? ((long long)pd->blocks + ctx->sm_count - 1) / ctx->sm_count
                       : 0;
  return need > n ? need : n;
}

/* Letters, digits and _ only (at most 200): a symbol that may go into an
 * option without bringing another along. */
static int plain_symbol(const char *s) {
  size_t n = s ? strlen(s) : 0;
  for (size_t c = 0; c < n; c++)
    if (!(s[c] == '_' || (s[c] >= 'a' && s[c] <= 'z') || (s[c] >= 'A' && s[c] <= 'Z') ||
          (s[c] >= '0' && s[c] <= '9')))
      return 0;
  return n > 0 && n <= 200;
}

gg_status ggr_module_options(const gg_context *ctx, const gg_module_desc *d, ggr_options *o) {
  memset(o, 0, sizeof *o);
  int cuda = ctx->be->kind == GG_BACKEND_CUDA;
  const char *const *base = cuda ? d->cuda_options : d->hip_options;
  int nbase = 0, np = cuda && d->persistent && d->npersistent > 0 ? d->npersistent : 0;
  while (base && base[nbase]) nbase++;
  o->list = calloc((size_t)nbase + (size_t)np + 1, sizeof *o->list);
  if (!o->list) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "module options");
  for (int i = 0; i < nbase; i++) o->list[o->n++] = base[i];
  o->nbase = o->n;
  for (int i = 0; i < np; i++) {
    const gg_persistent_desc *pd = &d->persistent[i];
    long long per_sm = min_blocks_per_sm(ctx, pd);
    if (per_sm <= 1) continue;
    if (!plain_symbol(pd->symbol)) {
      ggr_module_options_free(o);
      return ggr_set_error(GG_ERR_INVALID, "module %s: persistent kernel %d's symbol is not a C "
                           "identifier", d->name ? d->name : "?", i);
    }
    size_t size = strlen(pd->symbol) + 48;
    char *def = malloc(size);
    if (!def) {
      ggr_module_options_free(o);
      return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "module options");
    }
    snprintf(def, size, "-DGG_MIN_BLOCKS_%s=%lld", pd->symbol, per_sm);
    o->list[o->n++] = def;
  }
  return GG_OK;
}

void ggr_module_options_free(ggr_options *o) {
  for (int i = o->nbase; o->list && i < o->n; i++) free((char *)o->list[i]);
  free(o->list);
  memset(o, 0, sizeof *o);
}

static ggr_key module_key(gg_context *ctx, const gg_module_desc *d, const ggr_options *opts,
                          const char *compiler, const char *extra) {
  int cuda = ctx->be->kind == GG_BACKEND_CUDA;
  ggr_key_parts p = {
    .extra = extra,
    .source = cuda ? d->cuda_source : d->hip_source,
    .options = opts->list,
    .arch = ctx->arch,
    .compiler = compiler,
    .driver_version = ctx->driver_version,
    .gpugen_version = gg_version(),
    .abi = GG_MODULE_ABI,
  };
  return ggr_cache_key(&p);
}

/* CUDA: the arch to compile for.  A device newer than this NVRTC gets PTX
 * for the newest arch it knows; the driver finishes the job. */
static void pick_target(gg_context *ctx, char *target, size_t n) {
  snprintf(target, n, "%s", ctx->arch);
  ggr_compiler *c = ctx->rtc;
  if (c->kind != GG_BACKEND_CUDA || !c->num_archs || !c->archs) return;
  int count = 0, list[256], dev = ctx->cc_major * 10 + ctx->cc_minor, best = 0;
  if (c->num_archs(&count) || count <= 0 || count > 256 || c->archs(list)) return;
  for (int i = 0; i < count; i++) {
    if (list[i] == dev) return;
    if (list[i] < dev && list[i] > best) best = list[i];
  }
  if (best) snprintf(target, n, "compute_%d", best);
}

static gg_status compile_module(gg_context *ctx, const gg_module_desc *d, void **bin,
                                size_t *size, double *ms) {
  gg_status st = open_compiler(ctx);
  if (st) return st;
  int cuda = ctx->be->kind == GG_BACKEND_CUDA;
  char target[32];
  pick_target(ctx, target, sizeof target);
  gg_compile_result res;
  ggr_options opts;
  if ((st = ggr_module_options(ctx, d, &opts))) return st;
  double t0 = ggr_now_ms();
  st = ggr_compile_features(ctx->rtc, target, d->lua_file ? d->lua_file : d->name,
                            cuda ? d->cuda_source : d->hip_source, opts.list, module_features(d),
                            &res);
  *ms = ggr_now_ms() - t0;
  ggr_module_options_free(&opts);
  if (st) {
    ggr_set_error(st, "%s: %s for %s failed:", d->name ? d->name : "module",
                  ctx->rtc->name, target);
    ggr_append_log(res.log);
    gg_compile_result_free(&res);
    return st;
  }
  if (ctx->verbose && res.log && res.log[0]) {
    char log[GGR_ERR_LEN];
    ggr_clean(log, sizeof log, res.log, 1);
    ggr_warn("%s: %s log:", d->name ? d->name : "module", ctx->rtc->name);
    fprintf(stderr, "%s\n", log);
  }
  *bin = res.binary;
  *size = res.binary_size;
  res.binary = NULL;
  gg_compile_result_free(&res);
  return GG_OK;
}

/* The key, fetching the compiler's identity the cheapest way. */
static gg_status key_for(gg_context *ctx, const gg_module_desc *d, ggr_key *key) {
  char ident[800];
  if (compiler_identity(ctx, ident, sizeof ident)) {
    gg_status st = open_compiler(ctx);
    if (st) return st;
    snprintf(ident, sizeof ident, "%s %d.%d %s", ctx->rtc->name, ctx->rtc->version_major,
             ctx->rtc->version_minor, ctx->rtc->lib_path);
  }
  /* MathDx and NVSHMEM are CUDA only: on HIP the refusal names each the
     module uses */
  char extra[16384] = "", words[256];
  unsigned features = module_features(d);
  int k = ggr_compiled_features(features, words, sizeof words);
  if (k && ctx->be->kind != GG_BACKEND_CUDA)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "module %s uses %s, which %s CUDA only",
                         d->name ? d->name : "?", words, k > 1 ? "are" : "is");
  /* a MathDx module: the headers it includes are part of what it is.  A
     missing MathDx is said here, before any cache lookup, with the
     command that installs it */
  if (features & GG_FEAT_MATHDX) {
    char dir[1024], why[1400];
    if (ggr_mathdx_dir(dir, sizeof dir, why, sizeof why))
      return ggr_set_error(GG_ERR_NO_LIBRARY, "module %s: %s", d->name ? d->name : "?", why);
    ggr_mathdx_identity(dir, extra, sizeof extra / 2);
  }
  /* an NVSHMEM module: linked with its device library (-rdc=true, so a
     plain build of the same source never shares the entry); missing
     NVSHMEM is said here too */
  if (features & GG_FEAT_NVSHMEM) {
    char dir[1024], why[1400];
    size_t used = strlen(extra);
    if (ggr_nvshmem_dir(dir, sizeof dir, why, sizeof why))
      return ggr_set_error(GG_ERR_NO_LIBRARY, "module %s: %s", d->name ? d->name : "?", why);
    used += (size_t)snprintf(extra + used, sizeof extra - used, "|-rdc=true nvJitLink|");
    ggr_nvshmem_identity(dir, extra + used, sizeof extra - used);
  }
  ggr_options opts;
  gg_status st = ggr_module_options(ctx, d, &opts);
  if (st) return st;
  *key = module_key(ctx, d, &opts, ident, extra[0] ? extra : NULL);
  ggr_module_options_free(&opts);
  return GG_OK;
}

/* Binary for the module: from the disk cache, else built and stored. */
static gg_status get_binary(gg_context *ctx, gg_module *m, int skip_cache, void **bin,
                            size_t *size) {
  if (!skip_cache && ggr_cache_get(ctx->cache, (ggr_key){m->key_lo, m->key_hi}, bin, size) == GG_OK) {
    m->from_cache = 1;
    return GG_OK;
  }
  m->from_cache = 0;
  gg_status st = m->builder->compile(ctx, m->desc, bin, size, &m->compile_ms);
  if (st) return st;
  if (ggr_cache_put(ctx->cache, (ggr_key){m->key_lo, m->key_hi}, *bin, *size) && ctx->verbose)
    ggr_warn("could not store %s in the cache (%s)", m->desc->name ? m->desc->name : "?",
             ggr_cache_dir(ctx->cache));
  return GG_OK;
}

static gg_status alloc_workspace(gg_kernel *k) {
  const gg_kernel_desc *kd = k->desc;
  gg_context *ctx = k->mod->ctx;
  if (kd->ws_fixed == 0 && kd->ws_per_block == 0) return GG_OK;
  int64_t max_grid = k->resident;
  if (kd->grid_rule == GG_GRID_FIXED && !kd->cap_resident && kd->mode != GG_LAUNCH_COOPERATIVE)
    max_grid = kd->grid_fixed;
  if (max_grid < 1) max_grid = 1;
  /* a launch has at most GGR_MAX_BLOCKS blocks, so a larger fixed grid
   * would be refused at launch anyway: refuse it here, before the size
   * of its workspace can overflow */
  if (max_grid > GGR_MAX_BLOCKS)
    return ggr_set_error(GG_ERR_INVALID, "kernel %s: grid of %lld blocks (at most %d)",
                         kd->name, (long long)max_grid, GGR_MAX_BLOCKS);
  size_t bytes;
  if (ggr_mul_add_size((size_t)kd->ws_per_block, (size_t)max_grid, kd->ws_fixed, &bytes))
    return ggr_set_error(GG_ERR_INVALID, "kernel %s: workspace of %u + %u x %lld bytes "
                         "overflows", kd->name, kd->ws_fixed, kd->ws_per_block,
                         (long long)max_grid);
  gg_status st = ggr_check(ctx, ctx->be->mem_alloc(&k->ws, bytes), "workspace allocation");
  /* zero-filled once; kernels leave it zeroed (docs/internals.md) */
  if (!st) st = ggr_zero_landed(ctx, NULL, k->ws, bytes, "workspace zero-fill");
  if (!st) k->ws_bytes = bytes;
  return st;
}

/* A function of the module, loaded onto the device (cuda.c says why). */
static gg_status resolve_function(gg_module *m, const char *symbol, const char *what, void **fn) {
  gg_status st = ggr_check(m->ctx, m->ctx->be->module_function(fn, m->native, symbol), what);
  return st == GG_ERR_BACKEND ? GG_ERR_NOT_FOUND : st; /* the detail names the symbol */
}

static gg_status resolve_kernel(gg_module *m, int i) {
  gg_context *ctx = m->ctx;
  gg_kernel *k = &m->kernels[i];
  const gg_kernel_desc *kd = &m->desc->kernels[i];
  k->mod = m;
  k->desc = kd;
  if (!kd->symbol || !kd->name || kd->block_size <= 0)
    return ggr_set_error(GG_ERR_INVALID, "kernel %d of %s: no name, symbol or block size", i,
                         m->desc->name);
  gg_status st = ggr_kernel_check_layout(k);
  if (st) return st;
  char what[300];
  snprintf(what, sizeof what, "kernel %s (symbol %s)", kd->name, kd->symbol);
  /* a frame has no function: its stages run inside a persistent kernel,
     which starts it as a command (gg_launch refuses it) */
  if (kd->mode == GG_LAUNCH_PERSISTENT) return GG_OK;
  st = resolve_function(m, kd->symbol, what, &k->fn);
  if (st) return st;
  st = ggr_check(ctx, ggr_allow_shared(ctx->be, k->fn, kd->shared_bytes), what);
  if (st) return st;
  st = ggr_check(ctx, ctx->be->occupancy(&k->resident_per_sm, k->fn, kd->block_size,
                                         kd->shared_bytes), what);
  if (st) return st;
  /* the driver's figures, kept within what a launch can have */
  int64_t resident = (int64_t)k->resident_per_sm * ctx->sm_count;
  k->resident = resident < 0 ? 0 : resident > GGR_MAX_BLOCKS ? GGR_MAX_BLOCKS : (int)resident;
  return alloc_workspace(k);
}

/* Every persistent kernel's function, resolved (and loaded) while no
 * session can be running on the device (module loads wait for that). */
static gg_status resolve_persistent(gg_module *m) {
  const gg_module_desc *d = m->desc;
  int n = d->persistent && d->npersistent > 0 ? d->npersistent : 0;
  if (n == 0) return GG_OK;
  m->persistent_fn = calloc((size_t)n, sizeof *m->persistent_fn);
  if (!m->persistent_fn) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
  for (int i = 0; i < n; i++) {
    gg_status st = resolve_function(m, d->persistent[i].symbol, d->persistent[i].symbol,
                                    &m->persistent_fn[i]);
    if (st) return st;
  }
  return GG_OK;
}

static void module_release(gg_module *m) {
  gg_context *ctx = m->ctx;
  if (m->nvshmem_init) ggr_nvshmem_module_finalize(m->native);
  for (int i = 0; m->kernels && i < m->desc->nkernels; i++)
    if (m->kernels[i].ws) ggr_release(ctx, GGR_RELEASE_DEVICE, m->kernels[i].ws, NULL);
  if (m->native) ggr_release(ctx, GGR_RELEASE_MODULE, 0, m->native);
  free(m->kernels);
  free(m->persistent_fn);
  free(m);
}

static gg_status check_desc(gg_context *ctx, const gg_module_desc *d) {
  if (!d) return ggr_set_error(GG_ERR_INVALID, "module load: NULL descriptor");
  if (d->abi != GG_MODULE_ABI)
    return ggr_set_error(GG_ERR_INVALID, "module %s was generated for ABI %d; this runtime "
                         "reads ABI %d (regenerate it with this gpugen)", d->name ? d->name : "?",
                         d->abi, GG_MODULE_ABI);
  const char *src = ctx->be->kind == GG_BACKEND_CUDA ? d->cuda_source : d->hip_source;
  if (!src)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "module %s has no %s source (generate it with "
                         "that target)", d->name ? d->name : "?", ctx->be->name);
  if (d->nkernels < 0 || (d->nkernels > 0 && !d->kernels))
    return ggr_set_error(GG_ERR_INVALID, "module %s: bad kernel table", d->name);
  return GG_OK;
}

/* The plain build: NVRTC or hiprtc for the device's arch. */
const ggr_builder ggr_plain_builder = {"module load", check_desc, key_for, compile_module};

gg_status gg_module_load(gg_context *ctx, const gg_module_desc *desc, gg_module **out) {
  return ggr_module_load_with(ctx, desc, &ggr_plain_builder, out);
}

/* The driver's module load waits for every kernel of the device
 * (device.c): refused while a persistent kernel runs there, and no
 * session starts on the device while it loads.  A cached binary the
 * driver refuses (the driver changed under us) is rebuilt once, the
 * compile outside the device's lock. */
static gg_status load_native(gg_context *ctx, gg_module *m, void **bin, size_t *size) {
  const gg_module_desc *desc = m->desc;
  for (int rebuilt = 0;; rebuilt = 1) {
    int running = ggr_device_quiet(ctx);
    if (running)
      return ggr_set_error(GG_ERR_STATE, "%s %s: %d persistent session%s running on this "
                           "device (on this context or another), and the driver's module load "
                           "waits for every kernel of the device to end, which a session's "
                           "kernel does only at gg_session_terminate: load modules before "
                           "opening sessions, or terminate them first", m->builder->what,
                           desc->name ? desc->name : "?", running, running > 1 ? "s are" : " is");
    int r = ctx->be->module_load(&m->native, *bin);
    ggr_device_unlock();
    if (!r || !m->from_cache || rebuilt) return ggr_check(ctx, r, m->builder->what);
    if (ctx->verbose)
      ggr_warn("cached binary for %s refused (%s); recompiling",
               desc->name ? desc->name : "?", ctx->be->err_name(r));
    free(*bin);
    *bin = NULL;
    gg_status st = get_binary(ctx, m, 1, bin, size);
    if (st) return st;
  }
}

gg_status ggr_module_load_with(gg_context *ctx, const gg_module_desc *desc, const ggr_builder *b,
                               gg_module **out) {
  if (out) *out = NULL;
  if (!ctx || !desc || !out)
    return ggr_set_error(GG_ERR_INVALID, "%s: a required argument is NULL", b->what);
  for (gg_module *m = ctx->modules; m; m = m->next)
    if (m->desc == desc && m->builder == b) {
      m->refs++;
      *out = m;
      return GG_OK;
    }
  int had_compiler = ctx->rtc != NULL;
  gg_status st = b->check(ctx, desc);
  if (!st) st = ggr_make_current(ctx);
  if (st) return st;
  ggr_key key;
  if ((st = b->key(ctx, desc, &key))) return st;
  /* a different descriptor with the same contents: still one module */
  for (gg_module *m = ctx->modules; m; m = m->next)
    if (m->key_lo == key.lo && m->key_hi == key.hi && m->desc->nkernels == desc->nkernels) {
      m->refs++;
      *out = m;
      return GG_OK;
    }
  gg_module *m = calloc(1, sizeof *m);
  if (!m) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
  m->ctx = ctx;
  m->desc = desc;
  m->builder = b;
  m->key_lo = key.lo;
  m->key_hi = key.hi;
  m->refs = 1;
  void *bin = NULL;
  size_t size = 0;
  st = get_binary(ctx, m, 0, &bin, &size);
  if (!st) st = load_native(ctx, m, &bin, &size);
  free(bin);
  if (!st && (module_features(desc) & GG_FEAT_NVSHMEM)) {
    st = ggr_nvshmem_module_init(ctx, m->native, desc->name ? desc->name : "?");
    m->nvshmem_init = !st;
  }
  if (!st && desc->nkernels > 0) {
    m->kernels = calloc((size_t)desc->nkernels, sizeof *m->kernels);
    if (!m->kernels) st = ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
  }
  for (int i = 0; !st && i < desc->nkernels; i++) st = resolve_kernel(m, i);
  if (!st) st = resolve_persistent(m);
  if (st) {
    module_release(m);
    return st;
  }
  m->opened_compiler = !had_compiler && ctx->rtc != NULL;
  m->next = ctx->modules;
  ctx->modules = m;
  *out = m;
  return GG_OK;
}

void gg_module_free(gg_module *mod) {
  if (!mod || --mod->refs > 0) return;
  gg_context *ctx = mod->ctx;
  for (gg_module **p = &ctx->modules; *p; p = &(*p)->next)
    if (*p == mod) {
      *p = mod->next;
      break;
    }
  module_release(mod);
}

gg_status gg_kernel_get(gg_module *mod, const char *name, gg_kernel **out) {
  if (out) *out = NULL;
  if (!mod || !name || !out) return GGR_NULL_ARG();
  for (int i = 0; i < mod->desc->nkernels; i++)
    if (!strcmp(mod->kernels[i].desc->name, name) || !strcmp(mod->kernels[i].desc->symbol, name)) {
      *out = &mod->kernels[i];
      return GG_OK;
    }
  char msg[1024];
  ggr_missing_kernel(mod->desc, name, msg, sizeof msg);
  return ggr_set_error(GG_ERR_NOT_FOUND, "%s", msg);
}

gg_status gg_module_info_get(const gg_module *mod, gg_module_info *out) {
  if (!mod || !out) return GGR_NULL_ARG();
  out->from_disk_cache = mod->from_cache;
  out->opened_compiler = mod->opened_compiler;
  out->compile_ms = mod->compile_ms;
  return GG_OK;
}

const gg_kernel_desc *gg_kernel_describe(const gg_kernel *k) { return k ? k->desc : NULL; }
gg_context *gg_module_context(gg_module *mod) { return mod ? mod->ctx : NULL; }
void *gg_kernel_native_function(gg_kernel *k) { return k ? k->fn : NULL; }

gg_status gg_kernel_max_resident_blocks(gg_kernel *k, int *blocks) {
  if (!k || !blocks) return GGR_NULL_ARG();
  *blocks = k->resident;
  return GG_OK;
}
