/**
 * Which program serves a load measurement on a runtime, chosen by what the
 * runtime's plug-in declares (how it runs programs, its fetch server), never
 * by the runtime's name: adding a runtime touches no suite.
 */
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import type { LoadServer, Unsupported } from './suite.ts';

/** The file to bundle, and how bundle.ts wraps it. */
export interface ServedBy {
  file: string;
  wrapper: 'none' | 'server-handler' | 'load-server';
}

export function servedBy(server: LoadServer, plugin: Pick<RuntimePlugin, 'programs' | 'displayName'>): ServedBy | Unsupported {
  const programs = plugin.programs;
  if ('program' in server) return programs.kind === 'process' ? { file: server.program, wrapper: 'none' } : { unsupported: `this server is a program that prints its port; ${plugin.displayName} serves modules (a fetch handler)` };
  if (programs.kind === 'server') return { file: server.handler, wrapper: 'server-handler' };
  if (programs.fetchServer === undefined && server.nodeHttp !== undefined) return { file: server.nodeHttp, wrapper: 'none' };
  return { file: server.handler, wrapper: 'load-server' };
}
