  if (!gg_fn_wait_neighbours(gg_n, g, gg_mbox)) /* b - 1 and b + 1 are done */
    return false;
