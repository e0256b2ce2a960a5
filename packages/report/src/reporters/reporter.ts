/**
 * The one interface every output format implements. A new format is one file
 * and one entry in reporters/index.ts.
 */
import type { View } from '../views/types.ts';

export interface ReporterOptions {
  /** Colours and box drawing for a terminal (terminal reporter only). */
  color?: boolean;
  /** Terminal width in columns, for renderers that lay out to it. */
  columns?: number;
  /** Add a compact distribution plot per case (terminal). */
  plot?: boolean;
}

export interface Reporter {
  /** The name given to --format, e.g. "markdown". */
  format: string;
  /** One line for --help. */
  description: string;
  /** File extension without the dot, for writing the output to a file. */
  extension: string;
  render(view: View, options: ReporterOptions): string;
}
