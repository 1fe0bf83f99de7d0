import { chmodSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

const NOBODY = 65534;

/** True when this process runs as root, where file modes stop no one. */
export const runningAsRoot = process.getuid?.() === 0;

/**
 * Spawn options that run a child as `nobody` when this process is root (so a folder's mode stops
 * it as it would stop a user), and nothing otherwise. The child must reach `paths` (the script it
 * runs and the node_modules it imports): as root, each folder above them that `nobody` cannot
 * pass through (a checkout under `mktemp -d`, mode 0700) is given search permission for others.
 * @example spawn(process.execPath, [script], { ...asNobody([script]) });
 */
export function asNobody(paths: readonly string[]): { uid?: number; gid?: number } {
  if (!runningAsRoot) return {};
  for (const path of paths) {
    for (let folder = dirname(path); ; folder = dirname(folder)) {
      const mode = statSync(folder).mode;
      if ((mode & 0o001) === 0) chmodSync(folder, (mode & 0o7777) | 0o001);
      if (dirname(folder) === folder) break;
    }
  }
  return { uid: NOBODY, gid: NOBODY };
}
