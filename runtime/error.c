/*
 * error.c - status codes, the per-thread error detail, and every message
 * the runtime writes (gg.h, "Errors").
 *
 * The detail lives in one buffer per thread: a context is used from many
 * threads at once (gg_launch is meant to be), so a buffer per context
 * would let one thread's failure overwrite another's before it was read.
 * A call that succeeds writes nothing here, which keeps the launch hot
 * path free of stores.  This file depends on no other runtime file but
 * the vendor status mapping (backend.c), so that every other file may
 * report errors without a circle between them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#ifndef GG_VERSION_STRING
#define GG_VERSION_STRING "0.0.0"
#endif

/* The calling thread's detail of its last failure: long enough for the
 * head of a compiler log. */
static _Thread_local char detail[GGR_ERR_LEN];

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

const char *gg_error_detail(void) { return detail; }

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
  /* format first, then copy: an argument may point into dst (the detail) */
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

gg_status ggr_set_errorv(gg_status status, const char *fmt, va_list ap) {
  ggr_formatv(detail, sizeof detail, fmt, ap);
  return status;
}

gg_status ggr_set_error(gg_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ggr_set_errorv(status, fmt, ap);
  va_end(ap);
  return status;
}

void ggr_append_log(const char *log) {
  size_t used = strlen(detail);
  if (used + 1 >= sizeof detail) return;
  detail[used] = '\n';
  ggr_clean(detail + used + 1, sizeof detail - used - 1, log ? log : "(no log)", 1);
}

const char *ggr_code_text(const ggr_backend *be, int code, char *buf, size_t n) {
  const char *name = be->err_name(code), *text = be->err_string(code);
  if (!text || !*text || !strcmp(text, name)) snprintf(buf, n, "%s", name);
  else snprintf(buf, n, "%s: %s", name, text);
  return buf;
}

gg_status ggr_check(const gg_context *ctx, int code, const char *what) {
  if (code == 0) return GG_OK;
  char text[300];
  return ggr_set_error(ggr_status_of(code), "%s: %s", what,
                       ggr_code_text(ctx->be, code, text, sizeof text));
}
