/*
 * context.c - one device of one backend: opening, streams, events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "internal.h"
#include "toolkit.h"

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
  return ggr_set_error(st, "%s%s%s", err_cuda, err_cuda[0] && err_hip[0] ? "; " : "",
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
    return ggr_set_error(GG_ERR_NO_LIBRARY, "%s is the toolkit's link stub, not a driver "
                         "(no %s driver installed)", be->lib_path, be->name);
  if (r) {
    gg_status st = ggr_check(ctx, r, "driver init");
    if (st == GG_ERR_BACKEND) st = GG_ERR_NO_DEVICE;
    return ggr_set_error(st, "%s driver (%s) found no usable device (%s)", be->name,
                         be->lib_path, ggr_code_text(be, r, why, sizeof why));
  }
  int n = 0;
  r = be->device_count(&n);
  if (r || n == 0)
    return ggr_set_error(GG_ERR_NO_DEVICE, "%s driver (%s) reports no device%s%s%s",
                         be->name, be->lib_path, r ? " (" : "",
                         r ? ggr_code_text(be, r, why, sizeof why) : "", r ? ")" : "");
  if (ctx->device < 0 || ctx->device >= n)
    return ggr_set_error(GG_ERR_NO_DEVICE, "device %d asked for; %s has %d device(s)",
                         ctx->device, be->name, n);
  return GG_OK;
}

/* The device's context: its primary context, or a green context on part
 * of its SMs (opt->sm_count).  *sms: the partition's SM count, 0 for the
 * whole device. */
static gg_status create_native(gg_context *ctx, const gg_context_options *opt, int *sms) {
  const ggr_backend *be = ctx->be;
  *sms = 0;
  if (opt->sm_count == 0)
    return ggr_check(ctx, be->ctx_create(&ctx->native, ctx->device), "create context");
  if (!be->ctx_create_partition)
    return ggr_set_error(GG_ERR_UNSUPPORTED, "sm_count = %d asks for an SM partition, which "
                         "needs CUDA green contexts (a driver of CUDA 12.4 or newer); %s %s has "
                         "none: leave sm_count at 0 to use the whole device", opt->sm_count,
                         be->name, be->kind == GG_BACKEND_CUDA ? "driver" : "runtime");
  gg_status st = ggr_check(ctx, be->ctx_create_partition(&ctx->native, &ctx->green, sms,
                                                         ctx->device, opt->sm_count,
                                                         opt->sm_rest), "SM partition");
  if (st)
    ggr_set_error(st, "%s: the device could not be split at sm_count = %d%s (the driver rounds "
                  "the count up to its granularity, 8 SMs on an H100; sm_rest needs SMs left "
                  "over)", gg_error_detail(), opt->sm_count, opt->sm_rest ? ", sm_rest = 1" : "");
  return st;
}

gg_status gg_context_open(gg_context **out, const gg_context_options *opt) {
  gg_context_options defaults;
  memset(&defaults, 0, sizeof defaults);
  if (!opt) opt = &defaults;
  if (!out) return GGR_NULL_ARG();
  *out = NULL;
  if (opt->sm_count < 0 || (opt->sm_rest && opt->sm_count == 0) || (unsigned)opt->sm_rest > 1)
    return ggr_set_error(GG_ERR_INVALID, "gg_context_options: sm_count = %d, sm_rest = %d; "
                         "sm_count is 0 (every SM) or the SMs of a partition (> 0), and sm_rest "
                         "(0 or 1) takes the SMs left after such a partition", opt->sm_count,
                         opt->sm_rest);
  gg_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
  pthread_mutex_init(&ctx->kept_lock, NULL);
  ctx->device = opt->device;
  ctx->verbose = opt->verbose;
  char note[600];
  gg_status st = load_backend(opt->backend, &ctx->be, note, sizeof note);
  if (st) {
    pthread_mutex_destroy(&ctx->kept_lock);
    free(ctx);
    return st;
  }
  if (!st && (st = find_device(ctx)) && note[0]) {
    /* AUTO passed CUDA over for HIP, and HIP found no device either: both
     * causes, once each, the vendor whose toolkit is installed first. */
    if (ggr_cuda_toolkit_present())
      ggr_set_error(st, "%.600s; %.2000s", note, gg_error_detail());
    else
      ggr_set_error(st, "%.2000s; %.600s", gg_error_detail(), note);
  }
  int partition_sms = 0;
  if (!st) st = create_native(ctx, opt, &partition_sms);
  if (st == GG_ERR_KERNEL_FAULT) {
    /* CUDA keeps a kernel fault (trap, illegal address) for the life of the
     * process: "to continue using CUDA, the process must be terminated and
     * relaunched".  Measured on an H100: resetting the primary context did
     * not clear it.  Say so rather than leave the user guessing. */
    ggr_set_error(st, "%s; a kernel faulted earlier in this process and the driver keeps that "
                  "error until the process exits: restart the process (or run GPU work in a "
                  "child process)", gg_error_detail());
  }
  ctx->ctx_created = !st && !ctx->green;
  if (!st) st = describe_device(ctx);
  if (!st && partition_sms > 0) ctx->sm_count = partition_sms; /* what the context's kernels get */
  if (!st) {
    if (opt->no_disk_cache)
      st = ggr_cache_open_none(&ctx->cache);
    else
      st = ggr_cache_open(&ctx->cache, opt->cache_dir, opt->cache_limit, opt->verbose);
  }
  if (st) {
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
  ggr_mapped_release_all(ctx);
  /* after its modules' and buffers' frees, which may be put off too: the
     teardown is device.c's release_now */
  ggr_release(ctx, GGR_RELEASE_CONTEXT, 0, NULL);
}

gg_backend gg_context_backend(const gg_context *ctx) { return ctx ? ctx->be->kind : GG_BACKEND_AUTO; }
const char *gg_context_arch(const gg_context *ctx) { return ctx ? ctx->arch : ""; }
const char *gg_context_device_name(const gg_context *ctx) { return ctx ? ctx->device_name : ""; }
int gg_context_sm_count(const gg_context *ctx) { return ctx ? ctx->sm_count : 0; }

gg_status gg_device_sync(gg_context *ctx) {
  if (!ctx) return GGR_NULL_ARG();
  /* A context's synchronize waits for its own kernels, and the whole
   * device's primary context's for those of its SM partitions too
   * (device.c). */
  int running = __atomic_load_n(&ctx->sessions_running, __ATOMIC_ACQUIRE);
  const char *where = "this context";
  if (running == 0 && !ctx->green) {
    running = ggr_device_running(ctx);
    where = "this device (a context on every SM waits for its SM partitions' kernels too)";
  }
  if (running > 0)
    return ggr_set_error(GG_ERR_STATE, "gg_device_sync would wait forever: %d persistent "
                         "session%s running on %s, and a session's kernel runs until "
                         "gg_session_terminate; terminate %s first, or sync your own stream "
                         "(gg_stream_sync)", running, running > 1 ? "s are" : " is", where,
                         running > 1 ? "them" : "it");
  gg_status st = ggr_make_current(ctx);
  return st ? st : ggr_check(ctx, ctx->be->ctx_sync(), "device synchronize");
}

/* ---- streams and events ---- */

gg_status gg_stream_open(gg_context *ctx, gg_stream **out) {
  if (out) *out = NULL;
  if (!ctx || !out) return GGR_NULL_ARG();
  gg_stream *s = calloc(1, sizeof *s);
  if (!s) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
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

gg_status gg_stream_set_pdl(gg_stream *s, int enable) {
  if (!s) return GGR_NULL_ARG();
  gg_context *ctx = s->ctx;
  if (enable && (!ctx->be->launch_pdl || ctx->cc_major < 9))
    return ggr_set_error(GG_ERR_UNSUPPORTED, "programmatic dependent launch needs CUDA on sm_90 "
                         "or newer and a driver with cuLaunchKernelEx; this is %s on %s (%s)",
                         ctx->be->name, ctx->device_name, ctx->arch);
  s->pdl = enable != 0;
  return GG_OK;
}

void gg_stream_free(gg_stream *s) {
  if (!s) return;
  s->ctx->be->stream_destroy(s->native);
  free(s);
}

gg_status gg_stream_sync(gg_stream *s) {
  if (!s) /* the default stream needs a context */
    return ggr_set_error(GG_ERR_INVALID, "gg_stream_sync: stream is NULL (for the default "
                         "stream use gg_device_sync)");
  return ggr_check(s->ctx, s->ctx->be->stream_sync(s->native), "stream synchronize");
}

gg_status gg_event_open(gg_context *ctx, gg_event **out) {
  if (out) *out = NULL;
  if (!ctx || !out) return GGR_NULL_ARG();
  gg_event *e = calloc(1, sizeof *e);
  if (!e) return ggr_set_error(GG_ERR_OUT_OF_MEMORY, "out of host memory");
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
  if (!e) return GGR_NULL_ARG();
  return ggr_check(e->ctx, e->ctx->be->event_record(e->native, s ? s->native : NULL),
                   "event record");
}

/* Waits for `end`, then reads the time between the two events. */
gg_status gg_event_elapsed_ms(gg_event *start, gg_event *end, float *ms) {
  if (!start || !end || !ms) return GGR_NULL_ARG();
  if (start->ctx != end->ctx)
    return ggr_set_error(GG_ERR_INVALID, "gg_event_elapsed_ms: the events belong to two "
                         "contexts");
  gg_context *ctx = start->ctx;
  gg_status st = ggr_check(ctx, ctx->be->event_sync(end->native), "event synchronize");
  return st ? st : ggr_check(ctx, ctx->be->event_elapsed(ms, start->native, end->native),
                             "event elapsed time");
}

void *gg_stream_native(gg_stream *s) { return s ? s->native : NULL; }
