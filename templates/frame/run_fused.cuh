  {
{{FOR_ARGS}}{{STAGE_ARGS}}    {{STAGE_NS}}::gg_body(gg_a, g, gg_each_of([&](long long gg_i) { {{FOR_NS}}::gg_at(gg_p, gg_i); }));
  }
