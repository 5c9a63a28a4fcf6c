/* The tuning record without a GPU (runtime/tune.h): what gg_session_tune
 * writes reads back as it was; a record cut short, edited, foreign to the
 * key's candidates or steering the choice to a slower row is refused, so
 * the caller measures again instead of trusting it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"
#include "../expect.h"

/* Three candidates as gg_session_tune lists them: a many-block kernel at
 * 264 and 132 blocks (the second faster), and one that did not fit. */
static void candidates(gg_tune_row *r)
{
  memset(r, 0, 3 * sizeof *r);
  r[0] = (gg_tune_row){"whole", "s1", 264, GG_TUNE_MEASURED, 4813, 4930};
  r[1] = (gg_tune_row){"whole", "s1", 132, GG_TUNE_MEASURED, 4790, 4902};
  r[2] = (gg_tune_row){"one", "s1", 1, GG_TUNE_NO_FIT, 0, 0};
}

/* The candidates of the key, as the parser gets them: no figures yet. */
static void blank(gg_tune_row *r)
{
  candidates(r);
  for (int i = 0; i < 3; i++) {
    r[i].state = GG_TUNE_NOT_REACHED;
    r[i].p50_ns = r[i].mean_ns = -1;
  }
}

static int parse(const char *text, size_t len, gg_tune_row *r, int *choice, char *why)
{
  blank(r);
  return ggr_tune_record_parse(text, len, r, 3, choice, why, 200);
}

static void test_pick(void)
{
  gg_tune_row r[3];
  candidates(r);
  CHECK(ggr_tune_pick(r, 3) == 1);
  r[0].p50_ns = r[1].p50_ns; /* a tie goes to the earlier candidate */
  CHECK(ggr_tune_pick(r, 3) == 0);
  r[0].state = r[1].state = GG_TUNE_NOT_REACHED;
  CHECK(ggr_tune_pick(r, 3) == -1);
  CHECK(ggr_tune_pick(r, 0) == -1);
}

static void test_round_trip(char *text, size_t *len)
{
  gg_tune_row r[3], back[3];
  candidates(r);
  *len = ggr_tune_record_format(r, 3, 1, text, GGR_TUNE_RECORD_MAX);
  CHECK(*len > 0 && *len == strlen(text));
  int choice = -1;
  char why[200] = "";
  EXPECT(parse(text, *len, back, &choice, why) == 0, "own record refused: %s\n%s", why, text);
  CHECK(choice == 1);
  for (int i = 0; i < 3; i++) {
    CHECK(back[i].state == r[i].state && back[i].blocks == r[i].blocks);
    CHECK(back[i].p50_ns == r[i].p50_ns && back[i].mean_ns == r[i].mean_ns);
  }
  char tiny[16];
  CHECK(ggr_tune_record_format(r, 3, 1, tiny, sizeof tiny) == 0); /* does not fit: 0 */
}

/* Every proper prefix of a record is refused: a file cut short is no record. */
static void test_truncated(const char *text, size_t len)
{
  gg_tune_row r[3];
  int choice;
  char why[200];
  for (size_t n = 0; n < len; n++)
    EXPECT(parse(text, n, r, &choice, why) != 0, "a record cut to %zu of %zu bytes was taken", n,
           len);
}

/* Records a person or a bug could leave: each is refused, with a reason. */
static void test_refused(void)
{
  static const struct { const char *what, *text; } bad[] = {
    {"the choice is the slower row",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 4813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 0\n"},
    {"the choice did not fit",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 4813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 2\n"},
    {"another key's blocks (foreign)",
     "gpugen tune record 1\nrows 3\nrow 0 266 0 4813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"fewer rows than candidates",
     "gpugen tune record 1\nrows 2\nrow 0 264 0 4813 4930\nrow 1 132 0 4790 4902\n"
     "choice 1\n"},
    {"rows out of order",
     "gpugen tune record 1\nrows 3\nrow 1 132 0 4790 4902\nrow 0 264 0 4813 4930\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a NaN figure",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 nan 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"an infinite figure",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 inf 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a negative figure",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 -4813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 0\n"},
    {"a hex figure",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 0x12c0 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 0\n"},
    {"a figure past 1000 s",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 1e300 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a measured row of 0 ns",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 0 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 0\n"},
    {"an unknown state",
     "gpugen tune record 1\nrows 3\nrow 0 264 7 4813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"another format version",
     "gpugen tune record 2\nrows 3\nrow 0 264 0 4813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"text after the choice",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 4813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\nchoice 0\n"},
    {"an empty line",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 4813 4930\n\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a field too many",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 4813 4930 9\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a huge row count",
     "gpugen tune record 1\nrows 99999999999999999999\nchoice 1\n"},
    {"a decimal figure (a figure is whole ns, in any locale)",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 4812.5 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a decimal comma (a de_DE writer)",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 4812,5 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a figure of 13 digits (past 1000 s)",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 1000000000000 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a leading zero",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 04813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a sign",
     "gpugen tune record 1\nrows 3\nrow 0 +264 0 4813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"two spaces",
     "gpugen tune record 1\nrows 3\nrow 0 264  0 4813 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
    {"a letter in a figure",
     "gpugen tune record 1\nrows 3\nrow 0 264 0 48x3 4930\nrow 1 132 0 4790 4902\n"
     "row 2 1 1 0 0\nchoice 1\n"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    gg_tune_row r[3];
    int choice = -7;
    char why[200] = "";
    EXPECT(parse(bad[i].text, strlen(bad[i].text), r, &choice, why) != 0 && why[0] &&
               choice == -7, "%s: taken", bad[i].what);
  }
  /* a row that did not fit keeps no figures, whatever the record says */
  {
    static const char odd[] = "gpugen tune record 1\nrows 3\nrow 0 264 0 4813 4930\n"
                              "row 1 132 0 4790 4902\nrow 2 1 1 7 9\nchoice 1\n";
    gg_tune_row r[3];
    int choice = -1;
    char why[200] = "";
    EXPECT(parse(odd, sizeof odd - 1, r, &choice, why) == 0 && r[2].p50_ns == 0 &&
               r[2].mean_ns == 0 && r[2].state == GG_TUNE_NO_FIT,
           "a no-fit row's figures: %s p50 %g", why, r[2].p50_ns);
  }
  /* a NUL inside the text */
  static const char nul[] = "gpugen tune record 1\nrows 3\0row 0 264 0 1 1\n";
  gg_tune_row r[3];
  int choice;
  char why[200];
  CHECK(parse(nul, sizeof nul - 1, r, &choice, why) != 0);
  CHECK(parse(NULL, 10, r, &choice, why) != 0);
  /* larger than any record */
  size_t big = GGR_TUNE_RECORD_MAX + 10;
  char *junk = malloc(big);
  if (junk) {
    memset(junk, 'a', big);
    junk[big - 1] = '\n';
    CHECK(parse(junk, big, r, &choice, why) != 0);
    free(junk);
  }
}

/* Every byte of a good record replaced by each of a few others: the
 * parser never crashes, and whatever it takes is still a record whose
 * choice is its fastest measured row of the key's blocks. */
static void test_every_byte(const char *text, size_t len)
{
  static const char subst[] = {'0', '9', ' ', '\n', '-', '.', 'x', '\0', (char)0xff};
  char *copy = malloc(len);
  if (!copy) return;
  for (size_t i = 0; i < len; i++)
    for (size_t k = 0; k < sizeof subst; k++) {
      memcpy(copy, text, len);
      if (copy[i] == subst[k]) continue;
      copy[i] = subst[k];
      gg_tune_row r[3];
      int choice = -1;
      char why[200];
      if (parse(copy, len, r, &choice, why) != 0) continue;
      gg_tune_row want[3];
      candidates(want);
      EXPECT(choice == ggr_tune_pick(r, 3) && choice >= 0 && r[choice].state == GG_TUNE_MEASURED,
             "byte %zu -> 0x%02x: choice %d taken", i, (unsigned char)subst[k], choice);
      for (int j = 0; j < 3; j++)
        EXPECT(r[j].blocks == want[j].blocks, "byte %zu: row %d blocks %d", i, j, r[j].blocks);
    }
  free(copy);
}

int main(void)
{
  char text[GGR_TUNE_RECORD_MAX];
  size_t len = 0;
  test_pick();
  test_round_trip(text, &len);
  test_truncated(text, len);
  test_refused();
  test_every_byte(text, len);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
