/* The public API handed NULL handles and hostile names: every function
 * of gg.h tolerates NULL (GG_ERR_INVALID or a documented neutral value),
 * and every refusal leaves a detail of its own; messages never carry raw
 * control characters from names, and a message built from the previous
 * one (the detail into itself) comes out intact.
 * CPU only (the fake device of fake_gpu.h). */
#include <stdio.h>
#include <string.h>

#include "fake_gpu.h"
#include "gg_session.h"
#include "../expect.h"

/* A call refused with GG_ERR_INVALID that leaves a detail of its own in
 * gg_error_detail() (not the one before it). */
#define FAILS(call) do {                                                         \
    ggr_set_error(GG_ERR_STATE, "earlier detail");                               \
    CHECK((call) == GG_ERR_INVALID);                                             \
    CHECK(gg_error_detail()[0] && strcmp(gg_error_detail(), "earlier detail"));  \
  } while (0)

/* gg_session.h: the getters and the statistics take NULL too. */
static void test_null_session(void) {
  CHECK(gg_session_ncommands(NULL) == 0);
  CHECK(gg_session_nslots(NULL) == 0);
  CHECK(gg_session_blocks(NULL) == 0);
  CHECK(gg_session_started(NULL) == 0);
  CHECK(gg_session_completed(NULL) == 0);
  CHECK(gg_session_frame_slot(NULL, 7) == -1);
  gg_session *s = (gg_session *)1;
  FAILS(gg_session_open(NULL, NULL, NULL, &s));
  int cmd;
  FAILS(gg_session_command(NULL, "c", &cmd));
  FAILS(gg_session_start(NULL, 0, NULL, 0, NULL));
  FAILS(gg_session_start_packed(NULL, 0, NULL, 0, NULL));
  FAILS(gg_session_wait(NULL, 0));
  FAILS(gg_session_run(NULL, 0, NULL, 0, 0));
  FAILS(gg_session_terminate(NULL));
  gg_stats st;
  FAILS(gg_session_stats(NULL, &st));
  FAILS(gg_session_histogram_csv(NULL, stderr, 0));
  FAILS(gg_stats_histogram_csv(NULL, 3, stderr, 0));
  gg_frame_time ft;
  size_t nt = 9;
  FAILS(gg_session_tails(NULL, &ft, 1, &nt));
  FAILS(gg_session_tails_csv(NULL, stderr));
  FAILS(gg_session_deadline(NULL, 1000, NULL, NULL));
  FAILS(gg_session_last_frame(NULL, &ft));
  CHECK(gg_session_late(NULL) == 0);
  CHECK(!strcmp(gg_part_name((gg_part)-1), "unknown") && !strcmp(gg_part_name(GG_PART_GPU), "gpu"));
  FAILS(gg_rt_pin_cpu(-1));
  memset(&st, 0xff, sizeof st);
  gg_stats_compute(NULL, 5, &st); /* no samples: an empty result, not a read of NULL */
  CHECK(st.count == 0);
  double one = 2.0;
  gg_stats_compute(&one, 1, NULL);
}

static void test_null_handles(void) {
  CHECK(gg_context_backend(NULL) == GG_BACKEND_AUTO);
  CHECK(gg_context_arch(NULL) && !strcmp(gg_context_arch(NULL), ""));
  CHECK(gg_context_device_name(NULL) && !strcmp(gg_context_device_name(NULL), ""));
  CHECK(gg_context_sm_count(NULL) == 0);
  FAILS(gg_context_open(NULL, NULL));
  gg_context_free(NULL);
  gg_compile_result res;
  FAILS(gg_compile(GG_BACKEND_CUDA, NULL, "x", NULL, NULL, &res));
  gg_compile_result_free(&res);
  FAILS(gg_compile(GG_BACKEND_CUDA, "sm_90", "x", "", NULL, NULL));
  gg_compile_result_free(NULL);
  CHECK(gg_arch_supported(GG_BACKEND_CUDA, NULL) == 0);
  FAILS(gg_compile_rdc(NULL, NULL, NULL, NULL, NULL));

  gg_module *mod = (gg_module *)1;
  FAILS(gg_module_load(NULL, NULL, &mod));
  FAILS(gg_module_load_rdc(NULL, NULL, NULL));
  gg_module_free(NULL);
  gg_kernel *k = NULL;
  FAILS(gg_kernel_get(NULL, "k", &k));
  CHECK(gg_kernel_describe(NULL) == NULL);
  CHECK(gg_module_context(NULL) == NULL);
  gg_module_info info;
  FAILS(gg_module_info_get(NULL, &info));

  gg_array *a = NULL;
  FAILS(gg_array_alloc(NULL, GG_SPACE_DEVICE, 16, &a));
  CHECK(!a);
  gg_array_free(NULL);
  CHECK(gg_array_bytes(NULL) == 0);
  CHECK(gg_array_host(NULL) == NULL);
  CHECK(gg_array_native(NULL) == NULL);
  (void)gg_array_space(NULL);
  FAILS(gg_array_mirror(NULL, &a));
  char host[8];
  FAILS(gg_copy(NULL, 0, NULL, 0, 8, NULL));
  FAILS(gg_copy_from_host(NULL, 0, host, 8, NULL));
  FAILS(gg_copy_to_host(host, NULL, 0, 8, NULL));
  FAILS(gg_fill_zero(NULL, NULL));

  gg_stream *s = NULL;
  gg_event *e = NULL;
  FAILS(gg_stream_open(NULL, &s));
  gg_stream_free(NULL);
  FAILS(gg_stream_sync(NULL));
  FAILS(gg_device_sync(NULL));
  FAILS(gg_event_open(NULL, &e));
  gg_event_free(NULL);
  FAILS(gg_event_record(NULL, NULL));
  float ms;
  FAILS(gg_event_elapsed_ms(NULL, NULL, &ms));
  CHECK(gg_stream_native(NULL) == NULL);

  unsigned char buf[64];
  FAILS(gg_pack_args(NULL, NULL, 0, buf, sizeof buf));
  FAILS(gg_pack_args(NULL, NULL, 0, NULL, 0));
  FAILS(gg_launch(NULL, NULL, NULL, 0));
  FAILS(gg_launch_grid(NULL, NULL, 1, NULL, 0));
  int blocks;
  FAILS(gg_kernel_max_resident_blocks(NULL, &blocks));
  CHECK(gg_kernel_native_function(NULL) == NULL);

  gg_graph *g = NULL;
  FAILS(gg_graph_capture_begin(NULL, &g));
  CHECK(!g);
  FAILS(gg_graph_capture_begin(NULL, NULL));
  FAILS(gg_graph_capture_end(NULL));
  FAILS(gg_graph_launch(NULL, NULL));
  gg_graph_free(NULL);
}

/* No byte below 0x20, no DEL, no UTF-8 C1 control in the text. */
static int clean(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)) return 0;
  return 1;
}

static void test_names_in_messages(void) {
  gg_context *ctx = fake_context();
  static const gg_kernel_desc kd = {.name = "k", .symbol = "gg_k", .block_size = 32,
                                     .items_per_thread = 1, .grid_rule = GG_GRID_FIXED,
                                     .grid_fixed = 1};
  gg_module_desc md;
  memset(&md, 0, sizeof md);
  md.abi = GG_MODULE_ABI;
  md.name = "m";
  md.cuda_source = "";
  md.nkernels = 1;
  md.kernels = &kd;
  gg_module *mod = NULL;
  CHECK(ggr_module_load_with(ctx, &md, &fake_builder, &mod) == GG_OK);
  gg_kernel *k = NULL;
  const char *hostile[] = {"evil\n/* forged line */", "\x1b]0;title\x07\x1b[2J", "tab\there\r",
                           "c1\xc2\x9b" "31m", "del\x7f"};
  for (int i = 0; i < 5 && mod; i++) {
    CHECK(gg_kernel_get(mod, hostile[i], &k) == GG_ERR_NOT_FOUND && !k);
    CHECK(clean(gg_error_detail()));
    CHECK(strstr(gg_error_detail(), "\\x")); /* shown, escaped */
  }
  if (mod) CHECK(strstr(gg_error_detail(), "del\\x7f"));
  /* a descriptor with hostile names: packing messages are clean too */
  gg_param_desc p = {"x\n\x1b[1m", GG_PARAM_VIEW, GG_F32, 1, {{4, -1}}, GG_LAYOUT_RIGHT,
                     GG_SPACE_DEVICE, GG_ACCESS_IN, 0, 0, 8};
  gg_kernel_desc bad = {.name = "k\r\n", .symbol = "gg_k", .block_size = 32, .args_size = 8,
                        .nparams = 1, .params = &p};
  gg_arg arg = gg_arg_i32(3);
  unsigned char buf[16];
  CHECK(gg_pack_args(&bad, &arg, 1, buf, sizeof buf) == GG_ERR_INVALID);
  CHECK(clean(gg_error_detail()) && strstr(gg_error_detail(), "x\\x0a\\x1b[1m"));
  /* a bad cache folder named in a warning: same rules (checked by eye in
   * the output: the warning goes to stderr) */
  gg_context_free(ctx);
}

/* ggr_set_error(st, "...%s", gg_error_detail()): the old message in the new. */
static void test_message_from_itself(void) {
  char want[GGR_ERR_LEN];
  for (int i = 0; i < 3; i++) {
    ggr_set_error(GG_ERR_BACKEND, "driver said: %s (%d)", "NO", i);
    snprintf(want, sizeof want, "launch %d: %s", i, gg_error_detail());
    CHECK(ggr_set_error(GG_ERR_LAUNCH, "launch %d: %s", i, gg_error_detail()) == GG_ERR_LAUNCH);
    CHECK(!strcmp(gg_error_detail(), want));
  }
  /* a long message truncated, not garbled */
  memset(want, 'a', sizeof want);
  want[sizeof want - 1] = 0;
  ggr_set_error(GG_ERR_BACKEND, "%s", want);
  ggr_set_error(GG_ERR_LAUNCH, "again: %s", gg_error_detail());
  CHECK(!strncmp(gg_error_detail(), "again: aaaa", 11));
  CHECK(strlen(gg_error_detail()) == GGR_ERR_LEN - 1);
  CHECK(gg_error_detail()[GGR_ERR_LEN - 2] == 'a');
  /* a compiler log keeps its lines, and only those */
  ggr_set_error(GG_ERR_COMPILE, "m: NVRTC for %s failed:", "sm_90\n");
  ggr_append_log("w.lua(3): error: x\nw.lua(4): error: \x1b[31my");
  CHECK(!strcmp(gg_error_detail(), "m: NVRTC for sm_90\\x0a failed:\nw.lua(3): error: x\n"
                                    "w.lua(4): error: \\x1b[31my"));
}

int main(void) {
  test_null_handles();
  test_null_session();
  test_names_in_messages();
  test_message_from_itself();
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("hostile api: all checks passed\n");
  return failures ? 1 : 0;
}
