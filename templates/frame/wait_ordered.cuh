  gg_sync(g); /* the neighbours: ordered by an earlier wait */
