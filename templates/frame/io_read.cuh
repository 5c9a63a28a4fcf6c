      gg_io.{{IO_VIEW}} = gg_xchg_rd_of(gg_pub{{PUB_STAGE}}_{{PUB_PARAM}}, {{IO_HALO}}LL, {{WORK}}, gg_tag, gg_mbox);
