/** How a comparison is run, for the lines that refuse what is not one: apart from the arms' parser, which loads the plug-ins. */
export const COMPARE_USAGE = 'pnpm bench <suite> --compare <baseline> <candidate> [...]   e.g. --compare ' +
  'node@24 node@26, or --compare node@26 "node@26 --max-semi-space-size=64"';
