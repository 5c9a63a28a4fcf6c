/*
 * array.c - arrays in the four memory spaces and explicit copies.
 *
 *   device   cuMemAlloc: device only
 *   mapped   pinned host memory mapped into the device (zero-copy)
 *   managed  cuMemAllocManaged: migrates on demand
 *   host     pinned host memory, not for kernels: the fast end of copies
 *
 * Copies name both ends and move exactly the bytes asked for; with a
 * stream they are queued, with NULL they complete before returning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *space_name(gg_space s) {
#define NAME_(e, name) name,
  static const char *const n[] = {GG_SPACE_LIST(NAME_)};
#undef NAME_
  return (unsigned)s < sizeof n / sizeof n[0] ? n[s] : "?";
}

static gg_status alloc_space(gg_context *ctx, gg_array *a) {
  const ggr_backend *be = ctx->be;
  size_t n = a->bytes;
  char what[96];
  snprintf(what, sizeof what, "allocating %zu bytes of %s memory", n, space_name(a->space));
  switch (a->space) {
  case GG_SPACE_DEVICE:
    return ggr_check(ctx, be->mem_alloc(&a->dptr, n), what);
  case GG_SPACE_MANAGED: {
    if (!ctx->managed)
      return ggr_set_error(GG_ERR_UNSUPPORTED, "%s: the device has no managed memory", what);
    gg_status st = ggr_check(ctx, be->managed_alloc(&a->dptr, n), what);
    a->host = st ? NULL : (void *)(uintptr_t)a->dptr;
    return st;
  }
  case GG_SPACE_MAPPED: {
    if (!ctx->can_map_host)
      return ggr_set_error(GG_ERR_UNSUPPORTED, "%s: the device cannot map host memory", what);
    gg_status st = ggr_check(ctx, be->host_alloc(&a->host, n, 1), what);
    if (!st) st = ggr_check(ctx, be->host_device_ptr(&a->dptr, a->host), "mapped device address");
    if (st && a->host) {
      ggr_release(ctx, GGR_RELEASE_HOST, 0, a->host);
      a->host = NULL;
    }
    return st;
  }
  case GG_SPACE_HOST: {
    gg_status st = ggr_check(ctx, be->host_alloc(&a->host, n, 0), what);
    a->dptr = (ggr_dptr)(uintptr_t)a->host; /* unified addressing: copies take it as is */
    return st;
  }
  }
  return ggr_set_error(GG_ERR_INVALID, "unknown memory space %d", (int)a->space);
}

gg_status gg_array_alloc(gg_context *ctx, gg_space space, size_t bytes, gg_array **out) {
  if (out) *out = NULL;
  if (!ctx || !out) return GGR_NULL_ARG();
  if (bytes == 0) return ggr_set_error(GG_ERR_INVALID, "gg_array_alloc: zero bytes");
  if ((unsigned)space > GG_SPACE_HOST)
    return ggr_set_error(GG_ERR_INVALID, "gg_array_alloc: unknown memory space %d", (int)space);
  /* offsets into an array are added to its address in 64 bits, and the
   * largest address space of any device is far below 2^63 */
  if (bytes > (size_t)INT64_MAX)
    return ggr_set_error(GG_ERR_INVALID, "gg_array_alloc: %zu bytes (at most 2^63 - 1)",
                         bytes);
  gg_array *a = calloc(1, sizeof *a);
  if (!a) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
  a->ctx = ctx;
  a->space = space;
  a->bytes = bytes;
  gg_status st = ggr_make_current(ctx);
  if (!st) st = alloc_space(ctx, a);
  if (st) {
    free(a);
    return st;
  }
  *out = a;
  return GG_OK;
}

/* Now, or when the device's persistent kernels have ended (device.c: the
 * driver's frees wait for them). */
void gg_array_free(gg_array *a) {
  if (!a) return;
  if (a->release) {
    a->release(a);
    return;
  }
  if (a->space == GG_SPACE_MAPPED || a->space == GG_SPACE_HOST)
    ggr_release(a->ctx, GGR_RELEASE_HOST, 0, a->host);
  else
    ggr_release(a->ctx, GGR_RELEASE_DEVICE, a->dptr, NULL);
  free(a);
}

size_t gg_array_bytes(const gg_array *a) { return a ? a->bytes : 0; }
gg_space gg_array_space(const gg_array *a) { return a ? a->space : GG_SPACE_DEVICE; }
void *gg_array_host(const gg_array *a) { return a ? a->host : NULL; }
void *gg_array_native(const gg_array *a) { return a ? (void *)(uintptr_t)a->dptr : NULL; }

gg_status gg_array_mirror(const gg_array *a, gg_array **mirror) {
  if (mirror) *mirror = NULL;
  if (!a || !mirror) return GGR_NULL_ARG();
  return gg_array_alloc(a->ctx, GG_SPACE_HOST, a->bytes, mirror);
}

static gg_status check_range(gg_context *ctx, const gg_array *a, size_t off, size_t bytes,
                             const char *end) {
  if (off > a->bytes || bytes > a->bytes - off)
    return ggr_set_error(GG_ERR_INVALID, "copy: %s range [%zu, %zu+%zu) is outside the "
                         "%zu-byte array", end, off, off, bytes, a->bytes);
  return GG_OK;
}

/* Host memory of the caller: [p, p + bytes) must not wrap the address space. */
static gg_status check_host(gg_context *ctx, const void *p, size_t bytes, const char *end) {
  if (bytes > UINTPTR_MAX - (uintptr_t)p)
    return ggr_set_error(GG_ERR_INVALID, "copy: %s host range of %zu bytes at %p wraps "
                         "the address space", end, bytes, p);
  return GG_OK;
}

/* A stream must belong to the context of the arrays it moves. */
static gg_status check_stream(gg_context *ctx, const gg_stream *s, const char *what) {
  if (s && s->ctx != ctx)
    return ggr_set_error(GG_ERR_INVALID, "%s: the stream belongs to another context", what);
  return GG_OK;
}

static gg_status do_copy(gg_context *ctx, ggr_dptr dst, ggr_dptr src, size_t bytes,
                         gg_stream *s) {
  if (bytes == 0) return GG_OK;
  if (s) return ggr_check(ctx, ctx->be->memcpy_async(dst, src, bytes, s->native), "async copy");
  gg_status st = ggr_make_current(ctx);
  return st ? st : ggr_copy_landed(ctx, dst, src, bytes, "copy");
}

gg_status gg_copy(gg_array *dst, size_t dst_off, const gg_array *src, size_t src_off,
                  size_t bytes, gg_stream *stream) {
  if (!dst || !src) return GGR_NULL_ARG();
  gg_context *ctx = dst->ctx;
  if (src->ctx != ctx) return ggr_set_error(GG_ERR_INVALID, "copy between two contexts");
  gg_status st = check_range(ctx, dst, dst_off, bytes, "destination");
  if (!st) st = check_range(ctx, src, src_off, bytes, "source");
  if (!st) st = check_stream(ctx, stream, "copy");
  return st ? st : do_copy(ctx, dst->dptr + dst_off, src->dptr + src_off, bytes, stream);
}

gg_status gg_copy_from_host(gg_array *dst, size_t dst_off, const void *src, size_t bytes,
                            gg_stream *stream) {
  if (!dst || (!src && bytes)) return GGR_NULL_ARG();
  gg_status st = check_range(dst->ctx, dst, dst_off, bytes, "destination");
  if (!st) st = check_host(dst->ctx, src, bytes, "source");
  if (!st) st = check_stream(dst->ctx, stream, "copy");
  return st ? st : do_copy(dst->ctx, dst->dptr + dst_off, (ggr_dptr)(uintptr_t)src, bytes, stream);
}

gg_status gg_copy_to_host(void *dst, const gg_array *src, size_t src_off, size_t bytes,
                          gg_stream *stream) {
  if (!src || (!dst && bytes)) return GGR_NULL_ARG();
  gg_status st = check_range(src->ctx, src, src_off, bytes, "source");
  if (!st) st = check_host(src->ctx, dst, bytes, "destination");
  if (!st) st = check_stream(src->ctx, stream, "copy");
  return st ? st : do_copy(src->ctx, (ggr_dptr)(uintptr_t)dst, src->dptr + src_off, bytes, stream);
}

gg_status gg_fill_zero(gg_array *a, gg_stream *stream) {
  if (!a) return GGR_NULL_ARG();
  gg_context *ctx = a->ctx;
  gg_status cs = check_stream(ctx, stream, "fill");
  if (cs) return cs;
  if (!stream && (a->space == GG_SPACE_HOST || a->space == GG_SPACE_MAPPED)) { /* host memory: no driver call */
    memset(a->host, 0, a->bytes);
    return GG_OK;
  }
  if (stream)
    return ggr_check(ctx, ctx->be->memset_async(a->dptr, 0, a->bytes, stream->native), "fill");
  gg_status st = ggr_make_current(ctx);
  return st ? st : ggr_zero_landed(ctx, NULL, a->dptr, a->bytes, "fill");
}
