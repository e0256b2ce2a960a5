/**
 * The page builds its DOM from the run's data with this one helper: text
 * always goes in as text nodes, never as markup, so a case name such as
 * "</script><img onerror=…>" is shown as written and never parsed.
 */
export type Child = Node | string | number | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) node.setAttribute(name, value);
  append(node, children);
  return node;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** A table of one row per variant (`data-variant`, which the runtime filter reads): its heads, then each variant's cells. */
export function variantTable(className: string, heads: Child[], rows: readonly { variant: string; cells: Child[] }[]): HTMLTableElement {
  return el('table', { class: className }, el('thead', {}, el('tr', {}, ...heads)), el('tbody', {}, ...rows.map((row) => el('tr', { 'data-variant': row.variant }, ...row.cells))));
}

/** Replaces a container's content (charts are redrawn when the filters change). */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A small colour square (a variant's, a category's, a verdict's): filled, or hollow with a coloured edge. */
export function swatch(colour: string, filled = true): HTMLElement {
  const s = el('span', { class: 'swatch' });
  s.style.background = filled ? colour : '#ffffff';
  s.style.boxShadow = `inset 0 0 0 2px ${colour}`;
  return s;
}
