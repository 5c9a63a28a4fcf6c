  unsigned long long *gg_pub{{PUB_STAGE}}_{{PUB_PARAM}} = (unsigned long long *)(gg_ws + gg_off); /* stage {{PUB_STAGE}}'s {{PUB_VIEW}} */
  gg_off += ({{PUB_BYTES}}ull * g.nblocks + {{WS_ALIGN_LESS_1}}u) / {{WS_ALIGN}}u * {{WS_ALIGN}}u;
