/**
 * The one interface every output format implements. A new format is one file
 * and one entry in reporters/index.ts; a new kind of view is one entry in the
 * renderers (byKind) of each format that shows it.
 */
import type { ProfileSection } from '@rtbench/core/profile-view';
import type { CompanySection } from '../views/company.ts';
import type { MetricsSection } from '../views/metrics.ts';
import type { View } from '../views/types.ts';

export interface ReporterOptions {
  /** Colours and box drawing for a terminal (terminal reporter only). */
  color?: boolean;
  /** Terminal width in columns, for renderers that lay out to it. */
  columns?: number;
  /** Add a compact distribution plot per case (terminal). */
  plot?: boolean;
  /** The method under a table in full (terminal; markdown and the page always carry it): how it was measured, what each column and word is. */
  explain?: boolean;
}

/** The sections printed after a view, by the formats a person reads; the others carry the run they come from. */
interface SectionRenderers {
  /** --metrics gc: in the view's colours and width. */
  metrics(section: MetricsSection, options?: ReporterOptions): string;
  /** --profile: the profiles' top functions and what moved. */
  profiles(section: ProfileSection): string;
  /** --self-check: each cell beside its case alone and in a long loop. */
  company(section: CompanySection, options?: ReporterOptions): string;
}

export interface Reporter {
  /** The name given to --format, e.g. "markdown". */
  format: string;
  /** One line for --help. */
  description: string;
  /** File extension without the dot, for writing the output to a file. */
  extension: string;
  render(view: View, options: ReporterOptions): string;
  /**
   * The same text as render in parts, to be written one after another, for a
   * view too large to hold as one string (a history of thousands of runs);
   * undefined: this view is rendered whole.
   */
  parts?(view: View): Iterable<string> | undefined;
  /**
   * How what a run holds (case names, messages, stderr) is made safe in this
   * format: 'json' escapes C1 controls (the same data), 'page' escapes for
   * itself; text (the default) shows every control character.
   */
  escaping?: 'json' | 'page';
  sections?: SectionRenderers;
  /** Draws the flame graphs of the profiles saved beside a run (the view's `profiles`). */
  drawsProfiles?: boolean;
  /** The kinds of view this format cannot hold, each with the reason a user is told. */
  refuses?: Partial<Record<View['kind'], string>>;
  /** A person reads it row by row: a history in it shows its newest runs unless told otherwise (views/history-window.ts). */
  windowed?: boolean;
}

/** How a format renders each kind of view it shows. */
export type ViewRenderers = { [K in View['kind']]?: (view: Extract<View, { kind: K }>, options: ReporterOptions) => string };

/** A format's parts (Reporter.parts) from its writer per kind of view it writes in parts; undefined for the other kinds. */
export function partsByKind(writers: { [K in View['kind']]?: (view: Extract<View, { kind: K }>) => Iterable<string> }): NonNullable<Reporter['parts']> {
  return (view) => (writers[view.kind] as ((view: View) => Iterable<string>) | undefined)?.(view);
}

/**
 * A format's render from its renderer per kind of view: the one place it
 * dispatches on the kind. A kind it has no renderer for, it cannot show: it
 * throws the reason it `refuses` the kind with, if it gives one.
 */
export function byKind(renderers: ViewRenderers, refuses: Reporter['refuses'] = {}): Reporter['render'] {
  return (view, options) => {
    const render = renderers[view.kind] as ((view: View, options: ReporterOptions) => string) | undefined;
    if (!render) throw new Error(refuses[view.kind] ?? `this format cannot show a ${view.kind} view`);
    return render(view, options);
  };
}
