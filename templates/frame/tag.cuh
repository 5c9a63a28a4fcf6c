  const unsigned gg_tag = args.gg_seq; /* this frame's: the publications' tag */
