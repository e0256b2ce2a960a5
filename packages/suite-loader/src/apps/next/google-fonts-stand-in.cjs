/**
 * Required by `next build` (NEXT_FONT_GOOGLE_MOCKED_RESPONSES, Next.js's own
 * setting for a build without Google Fonts) when an app loads a font with
 * next/font/google: rtbench's builds reach no network beyond the npm
 * registry, so each stylesheet Google Fonts would answer is stood in for by
 * @font-face rules of the same families, styles and weights, each naming a
 * placeholder file (Next.js then takes the name's text as the file). The
 * page's HTML keeps its shape: the font's class names, variables and
 * preload links; the font files served are not the font.
 */
'use strict';

/** The @font-face rules for a css2 address (family=Name:ital,wght@0,400;1,700&display=swap). */
function faces(address) {
  const url = new URL(address);
  const display = url.searchParams.get('display') || 'swap';
  const rules = [];
  for (const spec of url.searchParams.getAll('family')) {
    const [name, axes = ''] = spec.split(':');
    const [keys = '', tuples = ''] = axes.split('@');
    const names = keys ? keys.split(',') : [];
    for (const tuple of tuples ? tuples.split(';') : ['']) {
      const values = tuple ? tuple.split(',') : [];
      const axis = (key) => values[names.indexOf(key)];
      const style = axis('ital') === '1' ? 'italic' : 'normal';
      const weight = (axis('wght') || '400').replace('..', ' ');
      const file = `rtbench-stand-in/${name}-${style}-${weight}.woff2`.replace(/ /g, '_');
      rules.push(`/* latin */\n@font-face {\n  font-family: '${name}';\n  font-style: ${style};\n  font-weight: ${weight};\n  font-display: ${display};\n  src: url(${file}) format('woff2');\n}`);
    }
  }
  return `${rules.join('\n')}\n`;
}

module.exports = new Proxy({}, { get: (_, key) => (typeof key === 'string' && key.startsWith('https://fonts.googleapis.com/') ? faces(key) : undefined) });
