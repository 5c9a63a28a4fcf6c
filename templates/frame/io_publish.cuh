      gg_io.{{IO_VIEW}} = gg_xchg_pub_of(gg_pub{{STAGE}}_{{IO_PARAM}}, {{IO_HALO}}LL, gg_tag);
