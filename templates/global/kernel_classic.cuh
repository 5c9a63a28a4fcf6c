/* {{SYMBOL}}: classic launch, one virtual block per hardware block. */
extern "C" __global__ void __launch_bounds__({{BLOCK}}) {{SYMBOL}}({{ARGS_T}} args)
{
  {{PDL_ENTRY}}{{NS}}::{{LAUNCH_BODY}}(args, gg_grid_hw());
}
