#!/usr/bin/env node
// The installed `rtbench` command. rtbench's packages are TypeScript sources;
// tsx compiles them as they load (the same way `pnpm bench` runs in the
// checkout), so what is installed is what the repository tests.
import { register } from 'tsx/esm/api';

register();
await import('../src/bin.ts');
