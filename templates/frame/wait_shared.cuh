  gg_sync(g); /* shared memory: the previous stage may still read it */
