  if (!gg_frame_barrier(gg_b, gg_ws, gg_mbox))
    return false;
