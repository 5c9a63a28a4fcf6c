  {
{{STAGE_ARGS}}    if (gg_xchg) {
      {{STAGE_NS}}::gg_io_t gg_io;
{{STAGE_IO}}      {{STAGE_NS}}::gg_body(gg_a, g, gg_io);
    } else {
      {{STAGE_NS}}::gg_body(gg_a, g);
    }
  }
