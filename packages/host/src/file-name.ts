/** A name for a file or folder from free text (a command's ranges, suites, filters): word characters and @ . + - kept, any other run as one "_", at most 120 characters. */
export function slug(text: string): string {
  return text.replace(/[^\w@.+-]+/g, '_').replace(/_+/g, '_').slice(0, 120);
}
