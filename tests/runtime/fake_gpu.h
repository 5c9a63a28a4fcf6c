/* A pretend device for CPU tests of the runtime above the vendor layer:
 * a ggr_backend whose entries succeed without a GPU, remember the last
 * launch and allocation, and keep "device" memory in host memory.  A
 * context made by fake_context() goes through the real module loading,
 * packing, grid and launch code; only the driver calls are pretended. */
#ifndef FAKE_GPU_H
#define FAKE_GPU_H

#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "internal.h"

static struct {
  int launches;
  unsigned grid, block;
  size_t last_alloc;
  int occupancy;  /* blocks per SM the fake occupancy reports */
  int frees, unloads; /* device and host frees, module unloads done */
  void *busy_stream;  /* a stream whose work never ends (NULL: none) */
  int hang_launches;  /* 1: a launched kernel never ends (its stream becomes busy_stream) */
  int streams;        /* streams created */
} fake;

static int f_ok_void(void) { return 0; }
static int f_set_current(void *c, int o) { (void)c; (void)o; return 0; }
static int f_module_load(void **m, const void *img) { (void)img; *m = (void *)0x1; return 0; }
static int f_module_unload(void *m) { (void)m; fake.unloads++; return 0; }
static int f_module_function(void **fn, void *m, const char *sym) {
  (void)m; (void)sym; *fn = (void *)0x2; return 0;
}
static int f_occupancy(int *b, void *fn, int block, size_t smem) {
  (void)fn; (void)block; (void)smem; *b = fake.occupancy; return 0;
}
static int f_launch(void *fn, unsigned grid, unsigned block, unsigned smem, void *s, void **p) {
  (void)fn; (void)smem; (void)p;
  fake.launches++; fake.grid = grid; fake.block = block;
  if (fake.hang_launches) fake.busy_stream = s;
  return 0;
}
static int f_mem_alloc(ggr_dptr *p, size_t bytes) {
  fake.last_alloc = bytes;
  void *m = bytes < ((size_t)1 << 30) ? calloc(1, bytes) : NULL;
  *p = (ggr_dptr)(uintptr_t)m;
  return m ? 0 : GGR_E_OUT_OF_MEMORY;
}
static int f_mem_free(ggr_dptr p) { fake.frees++; free((void *)(uintptr_t)p); return 0; }
static int f_host_alloc(void **p, size_t bytes, int mapped) {
  (void)mapped; ggr_dptr d; int r = f_mem_alloc(&d, bytes); *p = (void *)(uintptr_t)d; return r;
}
static int f_host_free(void *p) { fake.frees++; free(p); return 0; }
static int f_host_device_ptr(ggr_dptr *d, void *h) { *d = (ggr_dptr)(uintptr_t)h; return 0; }
/* copies and fills are done when queued: every stream is always idle */
static int f_memcpy_async(ggr_dptr dst, ggr_dptr src, size_t n, void *s) {
  (void)s; memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n); return 0;
}
static int f_memset_async(ggr_dptr d, unsigned char v, size_t n, void *s) {
  (void)s; memset((void *)(uintptr_t)d, v, n); return 0;
}
static int f_stream_idle(void *s) {
  return s && s == fake.busy_stream ? GGR_E_NOT_READY : 0;
}
static int f_stream_create(void **s) { *s = (void *)(uintptr_t)(0x1000 + ++fake.streams); return 0; }
static int f_stream_destroy(void *s) { (void)s; return 0; }
static const char *f_err(int code) { (void)code; return "FAKE_ERROR"; }

/* A context on the pretend device: 100 SMs, cooperative, mapped memory. */
static gg_context *fake_context(void) {
  ggr_backend *be = calloc(1, sizeof *be);
  gg_context *ctx = calloc(1, sizeof *ctx);
  if (!be || !ctx) abort();
  pthread_mutex_init(&ctx->kept_lock, NULL);
  be->kind = GG_BACKEND_CUDA;
  be->name = "FAKE";
  be->lib_path = "(fake)";
  be->init = f_ok_void;
  be->ctx_set_current = f_set_current;
  be->ctx_sync = f_ok_void;
  be->module_load = f_module_load;
  be->module_unload = f_module_unload;
  be->module_function = f_module_function;
  be->occupancy = f_occupancy;
  be->launch = f_launch;
  be->launch_cooperative = f_launch;
  be->mem_alloc = f_mem_alloc;
  be->mem_free = f_mem_free;
  be->host_alloc = f_host_alloc;
  be->host_free = f_host_free;
  be->host_device_ptr = f_host_device_ptr;
  be->managed_alloc = f_mem_alloc;
  be->memcpy_async = f_memcpy_async;
  be->memset_async = f_memset_async;
  be->stream_sync = f_stream_idle;
  be->stream_query = f_stream_idle;
  be->stream_create = f_stream_create;
  be->stream_destroy = f_stream_destroy;
  be->err_name = f_err;
  be->err_string = f_err;
  ctx->be = be;
  snprintf(ctx->arch, sizeof ctx->arch, "sm_90");
  snprintf(ctx->device_name, sizeof ctx->device_name, "fake device");
  ctx->sm_count = 100;
  ctx->cooperative = ctx->can_map_host = ctx->managed = 1;
  fake.occupancy = 2;
  if (ggr_cache_open_none(&ctx->cache)) abort();
  return ctx;
}

/* Module loading with the real code path, the compiler pretended. */
static gg_status fake_check(gg_context *ctx, const gg_module_desc *d) { (void)ctx; (void)d; return GG_OK; }
static gg_status fake_key(gg_context *ctx, const gg_module_desc *d, ggr_key *k) {
  (void)ctx; k->lo = (uint64_t)(uintptr_t)d; k->hi = 7; return GG_OK;
}
static gg_status fake_compile(gg_context *ctx, const gg_module_desc *d, void **bin, size_t *size,
                              double *ms) {
  (void)ctx; (void)d;
  *bin = malloc(16);
  *size = 16;
  *ms = 0;
  return *bin ? GG_OK : GG_ERR_OUT_OF_MEMORY;
}
static const ggr_builder fake_builder = {"fake load", fake_check, fake_key, fake_compile};

#endif /* FAKE_GPU_H */
