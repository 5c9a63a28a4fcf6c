/*
 * session.h - a persistent-loop session's state, shared by session.c (open,
 * start, wait, terminate) and session_times.c (each frame's times, the
 * statistics and the deadline).  Internal to libgg: the public API is
 * include/gg_session.h.
 */
#ifndef GGR_SESSION_H
#define GGR_SESSION_H

#include "internal.h"
#include "session_mbox.h"
#include "session_stats.h"
#include "gg_session.h"

struct gg_session {
  gg_context *ctx;
  gg_module *mod;
  const gg_persistent_desc *pd;
  gg_session_options opt;
  void *fn, *stream;
  void *mbox_host;
  size_t mbox_bytes;        /* its size: kept for the next session when the kernel ended */
  ggr_dptr mbox_dev, dev;
  ggr_mbox mb;
  int blocks, block, groups;
  uint32_t group_smem, args_size;
  int ncommands;
  gg_kernel *cmd[GG_COMMANDS_MAX];
  /* frames on several GPUs: the kernel's symmetric workspace on the
   * team (gg_persistent_desc.sym_bytes), NULL otherwise */
  gg_array *sym;
  /* Hidden fields the session fills in every frame of a command: its own
   * workspace, sized for this kernel's virtual grid (never the classic
   * launch's, whose grid differs), and its own launch sequence. */
  ggr_dptr ws[GG_COMMANDS_MAX];
  int ws_off[GG_COMMANDS_MAX], seq_off[GG_COMMANDS_MAX]; /* -1: no such field */
  unsigned seq[GG_COMMANDS_MAX];
  unsigned char *pack;       /* args_size bytes: gg_session_start packs here */
  int *slot_cmd;             /* the command of each slot's frame */
  int result_cmd;            /* command of the frame waited for last (-1: none yet) */
  uint64_t result;           /* its result bits (gg_protocol.h: the acknowledgement) */
  /* Frame times (session_stats.h), taken when statistics, a deadline or
   * device times are on (clocked): */
  int clocked;
  int timed;                 /* the kernel stores device times (GG_PERSIST_TIMES) */
  uint64_t *slot_t0;         /* start time of each slot's frame (0: not clocked) */
  ggr_split split;           /* the clock offset */
  ggr_stats *stats;          /* NULL: no statistics */
  gg_frame_time last;        /* the frame recorded last (last.frame 0: none) */
  ggr_frame_in pending;      /* a done frame whose device times had not landed yet */
  int has_pending;
  int64_t deadline;          /* ns; 0: none */
  gg_late_fn late_fn;
  void *late_user;
  uint64_t late, late_by[GG_NPARTS + 1];
  gg_frame_time late_worst;
  int running;               /* launched and not yet terminated */
  int following;             /* gg_session_follow: rank 0's frames, no posts of its own */
  int counted;               /* counted in ctx->sessions_running: the kernel may still run */
  int lost;                  /* the context is gone (fault or reset) */
  gg_status final;           /* what terminate returns once done */
  char final_detail[1024];   /* and the detail it gives with it */
};

/* Frame `frame` is done (its wait saw the ack): its times are accounted
 * now, or once the device's have landed (session_times.c). */
void ggr_session_record(gg_session *s, uint64_t frame);
/* Account a done frame still waiting for its device times: before a post
 * may make the kernel rewrite its done line, and before statistics. */
void ggr_session_settle(gg_session *s);

#endif
