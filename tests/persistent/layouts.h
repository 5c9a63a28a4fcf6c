/* layouts.h - the persistent kernels the tests use: every layout with one
 * and with three commands (sizes chosen not to be powers of two where
 * they can), plus one for the timeout and trap paths. */
#ifndef GG_TEST_LAYOUTS_H
#define GG_TEST_LAYOUTS_H

#include "handmade.h"

static const hm_persistent test_layouts[] = {
  {"one_1", GG_PLAYOUT_ONE_BLOCK, 256, 1, 0, 1, {HM_AXPB}},
  {"one_3", GG_PLAYOUT_ONE_BLOCK, 256, 1, 0, 3, {HM_AXPB, HM_PSUM, HM_REV}},
  {"many_1", GG_PLAYOUT_MANY_BLOCKS, 128, 5, 0, 1, {HM_AXPB}},
  {"many_3", GG_PLAYOUT_MANY_BLOCKS, 128, 5, 0, 3, {HM_AXPB, HM_PSUM, HM_REV}},
  {"groups_1", GG_PLAYOUT_THREAD_GROUPS, 256, 1, 4, 1, {HM_AXPB}},
  {"groups_3", GG_PLAYOUT_THREAD_GROUPS, 192, 1, 3, 3, {HM_AXPB, HM_PSUM, HM_REV}},
  {"hybrid_1", GG_PLAYOUT_HYBRID, 128, 3, 2, 1, {HM_AXPB}},
  {"hybrid_3", GG_PLAYOUT_HYBRID, 192, 3, 3, 3, {HM_AXPB, HM_PSUM, HM_REV}},
  {"faults", GG_PLAYOUT_ONE_BLOCK, 64, 1, 0, 3, {HM_AXPB, HM_SPIN, HM_TRAP}},
};
#define N_TEST_LAYOUTS ((int)(sizeof test_layouts / sizeof test_layouts[0]))
#define N_FRAME_LAYOUTS 8 /* the first 8 run frames; "faults" is last */

#endif
