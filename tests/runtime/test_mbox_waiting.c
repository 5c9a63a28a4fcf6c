/* The waiting bytes of a team's mailbox without a GPU (runtime/session_mbox.h):
 * the ranks a timed-out frame's exchanges wait for, as the timeout's
 * message names them.  None, some (the first, a middle one, the last of
 * 64), all 64 in the buffer the message gives them, and a buffer too small
 * for them all: every waiting rank counted, the text cut, nothing written
 * past it (ASan in scripts/test --sanitize); ranks past the team's size
 * are not read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gg_protocol.h"
#include "session_mbox.h"
#include "../expect.h"

int main(void)
{
  const size_t bytes = ggr_mbox_bytes(1, 64);
  void *base = calloc(1, bytes);
  CHECK(base != NULL);
  if (!base) return 1;
  ggr_mbox mb;
  ggr_mbox_init(&mb, base, 1, 64);
  unsigned char *waiting = (unsigned char *)mb.base + GG_MBOX_WAITING_OFF;
  char out[4 * GG_MBOX_WAITING_MAX + 1]; /* as session.c's frame_timeout */

  CHECK(ggr_mbox_waiting(&mb, 64, out, sizeof out) == 0 && out[0] == 0);

  waiting[0] = waiting[17] = waiting[63] = 1;
  CHECK(ggr_mbox_waiting(&mb, 64, out, sizeof out) == 3);
  EXPECT(strcmp(out, "0, 17, 63") == 0, "ranks \"%s\"", out);
  /* a team of 20: rank 63 is no member, its byte is not read */
  CHECK(ggr_mbox_waiting(&mb, 20, out, sizeof out) == 2);
  EXPECT(strcmp(out, "0, 17") == 0, "ranks of 20 \"%s\"", out);

  memset(waiting, 1, GG_MBOX_WAITING_MAX);
  CHECK(ggr_mbox_waiting(&mb, 64, out, sizeof out) == 64);
  char want[4 * GG_MBOX_WAITING_MAX + 1] = "";
  for (int p = 0; p < 64; p++)
    snprintf(want + strlen(want), sizeof want - strlen(want), "%s%d", p ? ", " : "", p);
  EXPECT(strcmp(out, want) == 0, "all 64: \"%s\"", out);

  /* too small: every rank still counted, the text cut and terminated */
  char small[12];
  memset(small, 'x', sizeof small);
  CHECK(ggr_mbox_waiting(&mb, 64, small, 10) == 64);
  CHECK(strlen(small) < 10 && small[10] == 'x' && small[11] == 'x');
  EXPECT(strncmp(small, "0, 1, 2, 3", strlen(small)) == 0, "cut text \"%s\"", small);

  free(base);
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("mbox waiting: all checks passed\n");
  return failures ? 1 : 0;
}
