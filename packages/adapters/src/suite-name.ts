/** The suite name of a brought-over file: its file name without the extension(s), kebab-case. */
export function suiteNameFor(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.(bench|benchmark)?\.?[cm]?[jt]sx?$/i, '');
  return base.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'brought-file';
}
