/** Where a suite is: its name (bench/<name>, or a brought file's) and the file a bundle starts from. */
export interface SuiteLocation {
  name: string;
  entry: string;
}
