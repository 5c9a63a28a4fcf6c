  gg_sync(g); /* the block's own items: its writes before its reads */
