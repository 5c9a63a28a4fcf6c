/*
 * context.c - one device of one backend: opening, errors, streams, events.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "internal.h"
#include "toolkit.h"

#ifndef GG_VERSION_STRING
#define GG_VERSION_STRING "0.0.0"
#endif

/* Per thread: the detail of a failure that had no context to hold it. */
static _Thread_local char open_error[1024];

const char *gg_version(void) { return GG_VERSION_STRING; }

const char *gg_strerror(gg_status s) {
  switch (s) {
  case GG_OK: return "success";
  case GG_ERR_INVALID: return "invalid argument";
  case GG_ERR_NO_LIBRARY: return "GPU library not found";
  case GG_ERR_NO_DEVICE: return "no GPU device";
  case GG_ERR_COMPILE: return "kernel compilation failed";
  case GG_ERR_LAUNCH: return "kernel launch failed";
  case GG_ERR_OUT_OF_MEMORY: return "out of memory";
  case GG_ERR_UNSUPPORTED: return "not supported by this device";
  case GG_ERR_NOT_CORESIDENT: return "cooperative grid is larger than the device can hold";
  case GG_ERR_TIMEOUT: return "timed out";
  case GG_ERR_KERNEL_FAULT: return "kernel fault (context lost)";
  case GG_ERR_CACHE: return "kernel cache problem";
  case GG_ERR_IO: return "I/O error";
  case GG_ERR_BACKEND: return "GPU driver error";
  case GG_ERR_NOT_FOUND: return "not found";
  case GG_ERR_STATE: return "call not valid in the current state";
  }
  return "unknown gpugen status";
}

/* Control characters (C0, DEL, and C1 as UTF-8 encodes them) become
 * \xNN, so a name or path inside a message can neither drive the terminal
 * nor start a line of its own.  keep_lines keeps '\n' and '\t'. */
void ggr_clean(char *dst, size_t n, const char *src, int keep_lines) {
  if (n == 0) return;
  size_t o = 0;
  for (const unsigned char *p = (const unsigned char *)src; *p; p++) {
    int c1 = p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
    int ctl = *p < 0x20 || *p == 0x7f || c1;
    if (ctl && keep_lines && (*p == '\n' || *p == '\t')) ctl = 0;
    if (!ctl) {
      if (o + 1 >= n) break;
      dst[o++] = (char)*p;
      continue;
    }
    unsigned v = c1 ? *++p : *p; /* C1: escape its code point, U+0080..U+009F */
    if (o + 4 >= n) break;
    snprintf(dst + o, 5, "\\x%02x", v);
    o += 4;
  }
  dst[o] = 0;
}

void ggr_formatv(char *dst, size_t n, const char *fmt, va_list ap) {
  /* format first, then copy: an argument may point into dst (ctx->err) */
  char tmp[GGR_ERR_LEN];
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  ggr_clean(dst, n, tmp, 0);
}

void ggr_format(char *dst, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ggr_formatv(dst, n, fmt, ap);
  va_end(ap);
}

void ggr_warn(const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  ggr_formatv(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "gpugen: %s\n", msg);
}

gg_status ggr_set_errorv(gg_context *ctx, gg_status status, const char *fmt, va_list ap) {
  char *buf = ctx ? ctx->err : open_error;
  size_t n = ctx ? sizeof ctx->err : sizeof open_error;
  ggr_formatv(buf, n, fmt, ap);
  return status;
}

void ggr_append_log(gg_context *ctx, const char *log) {
  size_t used = strlen(ctx->err);
  if (used + 1 >= sizeof ctx->err) return;
  ctx->err[used] = '\n';
  ggr_clean(ctx->err + used + 1, sizeof ctx->err - used - 1, log ? log : "(no log)", 1);
}

gg_status ggr_set_error(gg_context *ctx, gg_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ggr_set_errorv(ctx, status, fmt, ap);
  va_end(ap);
  return status;
}

/* "name" or "name: string" when the driver's string says more than its name. */
static const char *code_text(const ggr_backend *be, int code, char *buf, size_t n) {
  const char *name = be->err_name(code), *text = be->err_string(code);
  if (!text || !*text || !strcmp(text, name)) snprintf(buf, n, "%s", name);
  else snprintf(buf, n, "%s: %s", name, text);
  return buf;
}

gg_status ggr_check(gg_context *ctx, int code, const char *what) {
  if (code == 0) return GG_OK;
  char text[300];
  return ggr_set_error(ctx, ggr_status_of(code), "%s: %s", what,
                       code_text(ctx->be, code, text, sizeof text));
}

gg_status ggr_make_current(gg_context *ctx) {
  return ggr_check(ctx, ctx->be->ctx_set_current(ctx->native, ctx->device), "set current context");
}

const char *gg_last_error(const gg_context *ctx) { return ctx ? ctx->err : open_error; }
const char *gg_last_open_error(void) { return open_error; }

double ggr_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- opening ---- */

/* note: why CUDA was passed over in AUTO mode, for a later "no device". */
static gg_status load_backend(gg_backend want, ggr_backend **be, char *note, size_t note_len) {
  char err_cuda[600] = "", err_hip[600] = "";
  gg_status st;
  if (want == GG_BACKEND_CUDA)
    st = ggr_cuda_load(be, err_cuda, sizeof err_cuda);
  else if (want == GG_BACKEND_HIP)
    st = ggr_hip_load(be, err_hip, sizeof err_hip);
  else if ((st = ggr_cuda_load(be, err_cuda, sizeof err_cuda)) != GG_OK)
    st = ggr_hip_load(be, err_hip, sizeof err_hip);
  snprintf(note, note_len, "%s", err_cuda);
  if (st == GG_OK) return GG_OK;
  return ggr_set_error(NULL, st, "%s%s%s", err_cuda, err_cuda[0] && err_hip[0] ? "; " : "",
                       err_hip);
}

/* Ask the device what it is; fills ctx's description fields. */
static gg_status describe_device(gg_context *ctx) {
  const ggr_backend *be = ctx->be;
  int v = 0;
  gg_status st = GG_OK;
  if (!st) st = ggr_check(ctx, be->device_name(ctx->device_name, sizeof ctx->device_name,
                                               ctx->device), "device name");
  if (!st) st = ggr_check(ctx, be->device_arch(ctx->arch, sizeof ctx->arch, ctx->device),
                          "device arch");
  if (!st) st = ggr_check(ctx, be->device_attr(&ctx->sm_count, GGR_ATTR_SM_COUNT, ctx->device),
                          "SM count");
  if (!st) st = ggr_check(ctx, be->device_attr(&ctx->cc_major, GGR_ATTR_CC_MAJOR, ctx->device),
                          "compute capability");
  if (!st) st = ggr_check(ctx, be->device_attr(&ctx->cc_minor, GGR_ATTR_CC_MINOR, ctx->device),
                          "compute capability");
  if (!st) st = ggr_check(ctx, be->device_attr(&v, GGR_ATTR_COOPERATIVE, ctx->device),
                          "cooperative launch attribute");
  ctx->cooperative = v;
  if (!st) st = ggr_check(ctx, be->device_attr(&v, GGR_ATTR_CAN_MAP_HOST, ctx->device),
                          "map host attribute");
  ctx->can_map_host = v;
  if (!st) st = ggr_check(ctx, be->device_attr(&v, GGR_ATTR_MANAGED, ctx->device),
                          "managed memory attribute");
  ctx->managed = v;
  if (!st) st = ggr_check(ctx, be->driver_version(&ctx->driver_version), "driver version");
  return st;
}

/* init + device count: the two calls that tell "no GPU" from the rest. */
static gg_status find_device(gg_context *ctx) {
  const ggr_backend *be = ctx->be;
  char why[300];
  int r = be->init();
  if (r == GGR_E_STUB_LIBRARY)
    return ggr_set_error(ctx, GG_ERR_NO_LIBRARY, "%s is the toolkit's link stub, not a driver "
                         "(no %s driver installed)", be->lib_path, be->name);
  if (r) {
    gg_status st = ggr_check(ctx, r, "driver init");
    if (st == GG_ERR_BACKEND) st = GG_ERR_NO_DEVICE;
    return ggr_set_error(ctx, st, "%s driver (%s) found no usable device (%s)", be->name,
                         be->lib_path, code_text(be, r, why, sizeof why));
  }
  int n = 0;
  r = be->device_count(&n);
  if (r || n == 0)
    return ggr_set_error(ctx, GG_ERR_NO_DEVICE, "%s driver (%s) reports no device%s%s%s",
                         be->name, be->lib_path, r ? " (" : "",
                         r ? code_text(be, r, why, sizeof why) : "", r ? ")" : "");
  if (ctx->device < 0 || ctx->device >= n)
    return ggr_set_error(ctx, GG_ERR_NO_DEVICE, "device %d asked for; %s has %d device(s)",
                         ctx->device, be->name, n);
  return GG_OK;
}

gg_status gg_context_open(gg_context **out, const gg_context_options *opt) {
  gg_context_options defaults;
  memset(&defaults, 0, sizeof defaults);
  if (!opt) opt = &defaults;
  if (!out) return ggr_set_error(NULL, GG_ERR_INVALID, "gg_context_open: out is NULL");
  *out = NULL;
  gg_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return ggr_set_error(NULL, GG_ERR_OUT_OF_MEMORY, "out of host memory");
  ctx->device = opt->device;
  ctx->verbose = opt->verbose;
  char note[600];
  gg_status st = load_backend(opt->backend, &ctx->be, note, sizeof note);
  if (st) {
    free(ctx);
    return st;
  }
  if (!st && (st = find_device(ctx)) && note[0]) {
    /* AUTO passed CUDA over for HIP, and HIP found no device either: both
     * causes, once each, the vendor whose toolkit is installed first. */
    char hip[sizeof ctx->err];
    snprintf(hip, sizeof hip, "%s", ctx->err);
    if (ggr_cuda_toolkit_present())
      snprintf(ctx->err, sizeof ctx->err, "%.600s; %.2000s", note, hip);
    else
      snprintf(ctx->err, sizeof ctx->err, "%.2000s; %.600s", hip, note);
  }
  if (!st) st = ggr_check(ctx, ctx->be->ctx_create(&ctx->native, ctx->device), "create context");
  if (st == GG_ERR_KERNEL_FAULT) {
    /* CUDA keeps a kernel fault (trap, illegal address) for the life of the
     * process: "to continue using CUDA, the process must be terminated and
     * relaunched".  Measured on an H100: resetting the primary context did
     * not clear it.  Say so rather than leave the user guessing. */
    size_t n = strlen(ctx->err);
    snprintf(ctx->err + n, sizeof ctx->err - n,
             "; a kernel faulted earlier in this process and the driver keeps that error "
             "until the process exits: restart the process (or run GPU work in a child process)");
  }
  ctx->ctx_created = !st;
  if (!st) st = describe_device(ctx);
  if (!st) {
    if (opt->no_disk_cache)
      st = ggr_cache_open_none(&ctx->cache);
    else
      st = ggr_cache_open(&ctx->cache, opt->cache_dir, opt->cache_limit, opt->verbose);
  }
  if (st) {
    ggr_set_error(NULL, st, "%s", ctx->err);
    gg_context_free(ctx);
    return st;
  }
  *out = ctx;
  return GG_OK;
}

void gg_context_free(gg_context *ctx) {
  if (!ctx) return;
  while (ctx->modules) {
    ctx->modules->refs = 1; /* free them all, however often they were loaded */
    gg_module_free(ctx->modules);
  }
  if (ctx->ctx_created) ctx->be->ctx_destroy(ctx->native, ctx->device);
  ggr_cache_close(ctx->cache);
  ggr_compiler_unload(ctx->rtc);
  ggr_backend_unload(ctx->be);
  free(ctx);
}

gg_backend gg_context_backend(const gg_context *ctx) { return ctx ? ctx->be->kind : GG_BACKEND_AUTO; }
const char *gg_context_arch(const gg_context *ctx) { return ctx ? ctx->arch : ""; }
const char *gg_context_device_name(const gg_context *ctx) { return ctx ? ctx->device_name : ""; }
int gg_context_sm_count(const gg_context *ctx) { return ctx ? ctx->sm_count : 0; }

gg_status gg_device_sync(gg_context *ctx) {
  if (!ctx) return GG_ERR_INVALID;
  gg_status st = ggr_make_current(ctx);
  return st ? st : ggr_check(ctx, ctx->be->ctx_sync(), "device synchronize");
}

/* ---- streams and events ---- */

gg_status gg_stream_open(gg_context *ctx, gg_stream **out) {
  if (out) *out = NULL;
  if (!ctx || !out) return GG_ERR_INVALID;
  gg_stream *s = calloc(1, sizeof *s);
  if (!s) return ggr_set_error(ctx, GG_ERR_OUT_OF_MEMORY, "out of host memory");
  s->ctx = ctx;
  gg_status st = ggr_make_current(ctx);
  if (!st) st = ggr_check(ctx, ctx->be->stream_create(&s->native), "stream create");
  if (st) {
    free(s);
    return st;
  }
  *out = s;
  return GG_OK;
}

void gg_stream_free(gg_stream *s) {
  if (!s) return;
  s->ctx->be->stream_destroy(s->native);
  free(s);
}

gg_status gg_stream_sync(gg_stream *s) {
  if (!s) return GG_ERR_INVALID; /* the default stream needs a context: gg_device_sync */
  return ggr_check(s->ctx, s->ctx->be->stream_sync(s->native), "stream synchronize");
}

gg_status gg_event_open(gg_context *ctx, gg_event **out) {
  if (out) *out = NULL;
  if (!ctx || !out) return GG_ERR_INVALID;
  gg_event *e = calloc(1, sizeof *e);
  if (!e) return ggr_set_error(ctx, GG_ERR_OUT_OF_MEMORY, "out of host memory");
  e->ctx = ctx;
  gg_status st = ggr_make_current(ctx);
  if (!st) st = ggr_check(ctx, ctx->be->event_create(&e->native), "event create");
  if (st) {
    free(e);
    return st;
  }
  *out = e;
  return GG_OK;
}

void gg_event_free(gg_event *e) {
  if (!e) return;
  e->ctx->be->event_destroy(e->native);
  free(e);
}

gg_status gg_event_record(gg_event *e, gg_stream *s) {
  if (!e) return GG_ERR_INVALID;
  return ggr_check(e->ctx, e->ctx->be->event_record(e->native, s ? s->native : NULL),
                   "event record");
}

/* Waits for `end`, then reads the time between the two events. */
gg_status gg_event_elapsed_ms(gg_event *start, gg_event *end, float *ms) {
  if (!start || !end || !ms || start->ctx != end->ctx) return GG_ERR_INVALID;
  gg_context *ctx = start->ctx;
  gg_status st = ggr_check(ctx, ctx->be->event_sync(end->native), "event synchronize");
  return st ? st : ggr_check(ctx, ctx->be->event_elapsed(ms, start->native, end->native),
                             "event elapsed time");
}

void *gg_stream_native(gg_stream *s) { return s ? s->native : NULL; }
