  gg_frame_bar_begin(gg_b, gg_ws);
