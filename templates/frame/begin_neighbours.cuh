  gg_fn_begin(gg_n, g, gg_ws + {{FRAME_WS_HEAD}}u, {{FRAME_PROGRESS_BYTES}}u);
