/**
 * Builders for hand-made heap profiles in the allocation tests: a frame
 * locator that maps `h:` URLs to the harness and `b:` URLs to a suite, and
 * short constructors for call frames and nodes.
 */
import type { CallFrame, FrameLocator, HeapProfileNode } from '../src/index.ts';

export const locate: FrameLocator = (frame) => {
  if (frame.url.startsWith('h:')) return { source: `packages/core/src/${frame.url.slice(2)}`, line: frame.lineNumber + 1, column: 1, inBundle: true };
  if (frame.url.startsWith('b:')) return { source: `bench/x/${frame.url.slice(2)}`, line: frame.lineNumber + 1, column: 1, inBundle: true };
  return frame.url ? { source: frame.url, line: frame.lineNumber + 1, column: 1, inBundle: false } : undefined;
};

export const cf = (functionName: string, url = '', lineNumber = 0): CallFrame => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '1' });

export const node = (id: number, frame: CallFrame, selfSize: number, children: HeapProfileNode[] = []): HeapProfileNode => ({ id, callFrame: frame, selfSize, children });
