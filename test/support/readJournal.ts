import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The entries child processes appended to `work/journal.jsonl` (one JSON object a line, written
 * synchronously so they survive a SIGKILL); none when the file does not exist yet.
 * @example const calls = readJournal<Entry>(work).filter((entry) => entry.type === 'call');
 */
export function readJournal<Entry>(work: string): Entry[] {
  const file = join(work, 'journal.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Entry);
}
