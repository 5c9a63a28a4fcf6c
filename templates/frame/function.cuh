
/* ==== frame {{NAME}} ({{FILE}}:{{LINE}}): {{NSTAGES}} stage(s), {{NBARRIERS}} grid barrier(s) ==== */
struct {{ARGS_T}} {
{{ARGS_FIELDS}}};

namespace {{NS}} {

/* Runs every stage on the virtual grid g; a stage that depends on an
 * earlier one waits at a grid barrier (the plan: gpugen explain). false:
 * the host aborted the session during a barrier. */
__device__ bool gg_frame(const {{ARGS_T}} &args, const gg_grid &g, const char *gg_mbox{{FRAME_SYM}})
{
  [[maybe_unused]] char *gg_ws = {{FRAME_WS}};
  [[maybe_unused]] unsigned long long gg_off = {{FRAME_WS_STAGES}}; /* past the {{FRAME_WS_HEAD_WORDS}} */
  gg_frame_bar gg_b;
  gg_fn_progress gg_n;
{{FRAME_BEGIN}}{{FRAME_EXCHANGE}}  (void)gg_b; (void)gg_n; (void)gg_mbox;
{{FRAME_STAGES}}  return true;
}

} /* namespace {{NS}} */
