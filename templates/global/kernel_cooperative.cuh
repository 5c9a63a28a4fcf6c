/* {{SYMBOL}}: cooperative launch.  The runtime sizes the grid to the
 * blocks that are co-resident and launches it cooperatively, so a body
 * whose threads all reach it may wait for the whole grid (gg_grid_sync). */
extern "C" __global__ void __launch_bounds__({{BLOCK}}) {{SYMBOL}}({{ARGS_T}} args)
{
  {{NS}}::{{LAUNCH_BODY}}(args, gg_grid_hw());
}
