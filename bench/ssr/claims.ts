/** What ssr shows, as claims `rtbench claims ssr` checks (README.md, "The claims"). */
export const claims = [];
