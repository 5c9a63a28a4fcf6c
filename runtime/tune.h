/*
 * tune.h - the tuning record (internal to libgg; the API is gg_session.h:
 * gg_session_tune).  Pure text handling, no device: tune_record.c, tested
 * by tests/runtime/test_tune_record.c.
 *
 * A record is the payload of one kernel-cache entry (cache.h: the key and
 * an XXH64 of the payload guard the file), in text:
 *
 *   gpugen tune record 1
 *   rows 3
 *   row 0 264 0 4813 4930             index, blocks, gg_tune_state, p50 ns, mean ns
 *   row 1 132 0 4790 4902             (whole ns: digits only, in any locale)
 *   row 2 1 1 0 0
 *   choice 1
 *
 * Rows follow the candidates of the key in order, so a row names its
 * candidate by index; the parser takes a record only when every row
 * matches its candidate's blocks, every figure is a plain finite number
 * in range, and the choice is the measured row of lowest p50 (what
 * ggr_tune_pick gives): a record edited to steer the choice is refused
 * like a corrupt one.  A record whose figures and choice agree is
 * believed: what keeps other users' records out is the cache folder's
 * own rule (cache.h: a folder only the user can write, entries that are
 * the user's regular files), as for compiled kernels.
 */
#ifndef GGR_TUNE_H
#define GGR_TUNE_H

#include <stddef.h>

#include "gg_session.h"

#define GGR_TUNE_RECORD_MAX 16384 /* bytes of a record of GG_TUNE_ROWS rows, with room */

/* The measured row of lowest p50 (the earlier on a tie), or -1 when none
 * was measured. */
int ggr_tune_pick(const gg_tune_row *rows, int n);

/* The record of rows[0..n) and the choice into buf; its length, or 0
 * when it does not fit. */
size_t ggr_tune_record_format(const gg_tune_row *rows, int n, int choice, char *buf,
                              size_t size);

/* Fill rows[0..n)'s state and figures from a record.  rows come in with
 * their candidates' kernel, command and blocks.  0 and *choice on
 * success; -1 with the reason in why (rows then undefined). */
int ggr_tune_record_parse(const char *buf, size_t len, gg_tune_row *rows, int n, int *choice,
                          char *why, size_t why_size);

#endif /* GGR_TUNE_H */
