/**
 * Where a name put into markdown could come alive, found the way a CommonMark
 * reader finds it: fenced blocks (opened by three or more backticks, closed
 * only by a run at least as long), inline code spans (closed only by a run of
 * the same length), backslash escapes. What is left outside code is the text
 * a reader renders: it must hold no link or image (`![`, `[…](`), no `<`
 * (HTML but the few tags rtbench writes itself, or an autolink), no `@name` mention and no `#123` reference.
 */

/** The line without its code spans: what a reader renders as markdown. */
function outsideCode(line: string): string {
  let out = '';
  for (let i = 0; i < line.length; ) {
    if (line[i] === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (line[i] === '`') {
      const run = /^`+/.exec(line.slice(i))![0];
      // The span closes at the next run of exactly the same length (a longer or shorter run is content).
      const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
      close.lastIndex = i + run.length;
      const end = close.exec(line);
      if (end) {
        i = end.index + run.length;
        continue;
      }
      out += run;
      i += run.length;
      continue;
    }
    out += line[i];
    i++;
  }
  return out;
}

/** The lines of `markdown` holding `marker` (a part of the name) that a reader would render live, each with what it found; empty when the name is inert. */
export function liveMarkdown(markdown: string, marker: string): string[] {
  const found: string[] = [];
  let fence: number | undefined;
  for (const line of markdown.split('\n')) {
    const ticks = /^\s*(`{3,})(.*)$/.exec(line);
    if (fence !== undefined) {
      if (ticks && ticks[1]!.length >= fence && ticks[2]!.trim() === '') fence = undefined;
      continue;
    }
    if (ticks && !ticks[2]!.includes('`')) {
      fence = ticks[1]!.length;
      continue;
    }
    if (!line.includes(marker)) continue;
    const text = outsideCode(line);
    if (/(^|[^\\])!\[|(^|[^\\])\[[^\]]*\]\(/.test(text)) found.push(`a link or image: ${line}`);
    if (/<(?!\/?(sub|br|details|summary)>)[a-z/!?]/i.test(text.replace(/<!--.*?-->/g, ''))) found.push(`HTML or an autolink: ${line}`);
    if (/(^|[^\w])@\w/.test(text)) found.push(`a mention: ${line}`);
    if (/(^|[^\w])#\d+(?!\w)/.test(text)) found.push(`a reference: ${line}`);
  }
  if (fence !== undefined) found.push('a fence left open');
  return found;
}
