/*
 * gg_protocol.h - the persistent loop's mailbox, defined once for both
 * sides: the runtime includes it (through gg_session.h), and gpugen pastes
 * this very text at the top of every rendered source, after gg_abi.h (it
 * is embedded into gpugen at build time), so host and device read the
 * same numbers.
 * It must stay valid C and valid CUDA/HIP device code: plain #defines,
 * enums and one struct, no includes.
 *
 * The mailbox, in host-mapped pinned memory (offsets in bytes):
 *
 *   0      line: abort      (host -> device)  u64, non-zero = exit
 *   128    line: heartbeat  (host -> device)  u64 counter, u64 stale limit in ns
 *   256    line: status     (device -> host)  u32 state, u32 exit reason, u64 frames run
 *   384    slots, GG_MBOX_SLOT_STRIDE(args) bytes each:
 *          +0   u64 word 0: frame tag << 32 | command   (host, release, written last;
 *                                  GG_MBOX_CMD_AHEAD set when posted ahead)
 *          +8   u64 words 1..: frame tag << 32 | 4 argument bytes (host, relaxed)
 *          +GG_MBOX_DONE_OFFSET(args)  the acknowledgement (device), two u64 words:
 *               +0  ack  = frame tag << 32 | result bits 0..31   (written last)
 *               +8  ack2 = frame tag << 32 | result bits 32..63  (8-byte results only)
 *               +16 seen_lo = frame tag << 32 | device time seen, bits 0..31  \  device
 *               +24 seen_hi = frame tag << 32 | device time seen, bits 32..63  > times, when
 *               +32 busy    = frame tag << 32 | ns from seen to the ack (u32) /  asked for
 *
 * Tagged words: every 8-byte word carries the low 32 bits of its frame
 * number, so one warp reads the command and all the arguments in ONE
 * round trip across PCIe and knows they belong to this frame when every
 * tag matches; lane 0's load of word 0 is the acquire that pairs with the
 * host's release.  (An untagged slot needs a second, dependent read for
 * the arguments after the sequence number: ~1 us more per frame.)
 *
 * Results in the acknowledgement: a command may declare a result of at
 * most 8 bytes (a frame's `result = "view"`: a sum, a flag, an index),
 * which the kernel returns inside the acknowledgement, tagged like the
 * slot's words.  Why tagged 64-bit words and not one wider store: the PTX
 * memory model gives single-copy atomicity to aligned scalar accesses of
 * up to 64 bits only; a vector access (st.v2.u64, st.v4.u32) is modelled
 * as one scalar access per element "in an unspecified order", so the host
 * could read a done tag next to a stale half of the value.  So a result of
 * <= 4 bytes rides in the ack word itself (one 64-bit store: tag and value
 * arrive together, never torn), and an 8-byte one is split: its high half
 * in ack2, its low half in ack, each carrying the tag; the host counts the
 * frame done when ack's tag is the frame's, then reads ack2 until its tag
 * is the frame's too (a stale ack2 has the tag of the slot's previous
 * frame).  No ordering between the two stores is needed for the value:
 * each word proves by its own tag that it is this frame's.
 * Ordering of everything else: the ack word is stored with release at
 * system scope (a fence.acq_rel.sys, then the store: ~0.6 us on an H100)
 * when the command writes a view the host may read - anything not declared
 * `space = "device"` - so the host's acquire of it makes those writes
 * visible.  When the result is the only thing the host needs (every other
 * written view is declared in device memory), both words are stored
 * relaxed at system scope, with no fence: the value is carried by the
 * store, not published by it.  The generator decides which (a command's
 * descriptor: result_bytes, ack_relaxed); the kernel and the runtime use
 * what it wrote.
 *
 * Device times (gg_persist_params.flags & GG_PERSIST_TIMES): the thread
 * that stores the ack then stores three tagged words: the device's
 * nanosecond clock (%globaltimer on CUDA) when the GPU saw the frame's
 * post (block 0's poll returned it) and how long after that the frame
 * was complete (read by each block's leader before its arrival, so block
 * 0's next seen time never precedes it, and before the ack's store, so a
 * release ack's fence belongs to the way back).  After the ack, not before: a release ack
 * waits for every write ahead of it, which cost 0.21 us a frame where
 * after it costs 0.06 (H200, bench/RESULTS.md).  So nothing orders them
 * with the ack: each word carries the tag, and the host takes them when
 * all three carry it: a few reads after the ack, else at its next post
 * (before that post can make the kernel rewrite the line) or statistics
 * call; a frame whose times have not landed even then counts as untimed.
 *
 * One 128-byte line per field that a side writes, so host and device
 * never write the same line.  Word 0 = GG_MBOX_WORD_ABORT in the slot the
 * kernel polls makes it exit at once (terminate writes it there, so the
 * poll reads nothing else).
 */
#ifndef GG_PROTOCOL_H
#define GG_PROTOCOL_H

#define GG_MBOX_LINE 128u
#define GG_MBOX_ABORT_OFF 0u
#define GG_MBOX_HEARTBEAT_OFF 128u                  /* u64 counter */
#define GG_MBOX_STALE_OFF (GG_MBOX_HEARTBEAT_OFF + 8u) /* u64 stale limit, ns (0: none) */
#define GG_MBOX_STATE_OFF 256u                      /* u32 GG_MBOX_STATE_* (device, release) */
#define GG_MBOX_REASON_OFF (GG_MBOX_STATE_OFF + 4u)  /* u32 GG_MBOX_EXIT_* */
#define GG_MBOX_FRAMES_OFF (GG_MBOX_STATE_OFF + 8u)  /* u64 frames run before the exit */
/* A frame on several GPUs: byte p is 1 while an exchange of the running
 * frame has polled for GPU (NVSHMEM PE) p for longer than one look at the
 * abort line (~0.3 ms), 0 again once what it waited for came; so a host
 * whose frame timed out can name the ranks it waits for. */
#define GG_MBOX_WAITING_OFF (GG_MBOX_STATE_OFF + 64u)
#define GG_MBOX_WAITING_MAX 64u /* PEs: GG_TEAM_MAX */
#define GG_MBOX_SLOTS_OFF 384u
#define GG_MBOX_ROUND(x) (((x) + GG_MBOX_LINE - 1u) / GG_MBOX_LINE * GG_MBOX_LINE)
#define GG_MBOX_WORDS(args) (1u + ((args) + 3u) / 4u) /* tagged words of a slot */
#define GG_MBOX_DONE_OFFSET(args) GG_MBOX_ROUND(8u * GG_MBOX_WORDS(args))
#define GG_MBOX_SLOT_STRIDE(args) (GG_MBOX_DONE_OFFSET(args) + GG_MBOX_LINE)
#define GG_MBOX_DONE_IN_SLOT(stride) ((stride) - GG_MBOX_LINE) /* the slot's last line */
#define GG_MBOX_BYTES(nslots, args) (GG_MBOX_SLOTS_OFF + (nslots) * GG_MBOX_SLOT_STRIDE(args))
#define GG_MBOX_ACK2_OFF 8u      /* ack2, from the done line's start */
#define GG_MBOX_RESULT_MAX 8u    /* bytes a result may have */
#define GG_MBOX_SEEN_LO_OFF 16u  /* device times, from the done line's start */
#define GG_MBOX_SEEN_HI_OFF 24u
#define GG_MBOX_BUSY_OFF 32u
#define GG_MBOX_BUSY_MAX 0xffffffffu /* busy saturates here (4.29 s) */
#define GG_MBOX_ACK(frame, bits) \
  ((unsigned long long)(unsigned)(frame) << 32 | (unsigned long long)(unsigned)(bits))
#define GG_MBOX_ACK_TAG(word) ((unsigned)((word) >> 32))
#define GG_MBOX_CMD_EXIT 0xffffffffu                  /* command of the abort word */
/* Set in word 0's command by a host that posts a frame while an earlier
 * one is still in flight (frames queued ahead): the kernel, which masks
 * it off, then reads the next slot at once instead of on the train it
 * keeps in phase with a host that waits for each frame (the CUDA
 * template, gg_p_phase). */
#define GG_MBOX_CMD_AHEAD 0x40000000u
#define GG_MBOX_WORD_ABORT 0xffffffffffffffffull      /* command GG_MBOX_CMD_EXIT, any tag */
/* Set in word 0's command by a rank of a team that follows rank 0
 * (gg_session_follow): the kernel keeps the command and its arguments
 * and from then on runs them once for each frame rank 0 relays, without
 * reading the host's slots again, until the abort line. */
#define GG_MBOX_CMD_FOLLOW 0x20000000u

enum { /* status line: state */
  GG_MBOX_STATE_LAUNCHED = 0, /* not yet running */
  GG_MBOX_STATE_RUNNING = 1,
  GG_MBOX_STATE_EXITED = 2
};
enum { /* status line: why the kernel exited */
  GG_MBOX_EXIT_NONE = 0, GG_MBOX_EXIT_ABORT = 1, GG_MBOX_EXIT_STALE = 2
};

/* The persistent kernel's one parameter (the same layout on the host,
 * x86-64, and on nvptx64 / amdgcn: all LP64). */
typedef struct gg_persist_params {
  void *mbox;                /* device address of the mailbox */
  void *dev;                 /* GG_PERSIST_DEV_BYTES(args) of zeroed device memory */
  unsigned int nslots;
  unsigned int slot_stride;  /* GG_MBOX_SLOT_STRIDE(the largest command's argument struct) */
  unsigned int groups;       /* pseudo-blocks per hardware block */
  unsigned int group_smem;   /* dynamic shared bytes per pseudo-block (largest command's) */
  unsigned int flags;        /* GG_PERSIST_* */
  unsigned int reserved;     /* 0 */
  void *sym;                 /* frames on several GPUs: the symmetric workspace (NVSHMEM's
                                heap, gg_persistent_desc.sym_bytes); NULL without a team */
} gg_persist_params;
#define GG_PERSIST_TIMES 1u  /* flags: store each frame's device times (mailbox, above) */
#define GG_PERSIST_RELAY 2u  /* flags, rank 0 of a team: each frame relayed to the others */

/* The relay (frames on several GPUs, one host posting: docs/multi-gpu.md)
 * at the start of the symmetric workspace (gg_persist_params.sym), the
 * generator's sym_bytes counting it.  Rank 0's kernel, with
 * GG_PERSIST_RELAY, stores its frame's number and command,
 * GG_RELAY_WORD(frame, command), in every other rank's signal word
 * (NVSHMEM signal, set) as soon as its poll returns the frame, once each
 * rank has finished the frame before; a following rank's kernel waits
 * for a number above the last it ran, runs its kept command if the
 * command is that one (a frame of another command runs on rank 0 alone),
 * and sets its own word of rank 0's done line to the number, after a
 * system-scope fence; rank 0 acknowledges its host once every word there
 * has reached the frame.  One line each way, a side writing only its
 * own: the signal line (rank 0 -> a follower), the done line (the
 * followers -> rank 0, a u64 per PE), the lines' 640 bytes rounded to
 * GG_FRAME_WS_ALIGN (the exchanges' areas follow). */
#define GG_RELAY_SIGNAL_OFF 0u
#define GG_RELAY_DONE_OFF GG_MBOX_LINE
#define GG_RELAY_BYTES 768u
#define GG_RELAY_WORD(frame, cmd) ((unsigned long long)(frame) << 8 | ((cmd) & 0xffu))
#define GG_RELAY_FRAME(word) ((word) >> 8)
#define GG_RELAY_CMD(word) ((unsigned)(word) & 0xffu)
#define GG_RELAY_SKIP 0xffu /* a following rank's command index for a frame not its own */

/* Device memory of many_blocks / hybrid: +0 u64 arrivals; +128 the
 * record: block 0's warp 0 polls the host's slot (one warp-wide load per
 * poll) and copies its tagged words here, where the other blocks' warp 0
 * poll them in L2 (only one poller crosses PCIe).  Every block adds one
 * arrival when done with a frame; the block whose arrival completes the
 * frame stores its done.  Then the seen line: block 0 stores there when
 * it saw the frame (device times), for the block that stores the done. */
#define GG_PERSIST_ARRIVE_OFF 0u
#define GG_PERSIST_RECORD_OFF 128u
#define GG_PERSIST_SEEN_OFF(args) (GG_PERSIST_RECORD_OFF + GG_MBOX_ROUND(8u * GG_MBOX_WORDS(args)))
/* The seen line's words 2 and 3 (by frame parity): the number of the
 * relayed frame a following rank runs, for the block that completes it. */
#define GG_PERSIST_RELAYED_WORD 2u
#define GG_PERSIST_DEV_BYTES(args) (GG_PERSIST_SEEN_OFF(args) + GG_MBOX_LINE)

#endif /* GG_PROTOCOL_H */
