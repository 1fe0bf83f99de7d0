export interface EntryNames {
  values: string[];
  types: string[];
}
export function entryNames(source: string): EntryNames;
export function entriesIn(folder: string): Record<string, EntryNames>;
export function sharedNames(entries: Record<string, EntryNames>): [string, string[]][];
