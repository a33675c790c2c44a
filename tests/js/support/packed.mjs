// The npm tarball that pkg-config/build.sh packs (target/npm/edgeattest-<version>.tgz),
// installed into a scratch project as a user would: `npm install <tarball>`, offline (the
// package has no dependencies), no install scripts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const version = JSON.parse(readFileSync(join(REPO, 'pkg', 'package.json'), 'utf8')).version;
export const TARBALL = join(REPO, 'target', 'npm', `edgeattest-${version}.tgz`);

/** The tarball's file names, without the `package/` prefix. */
export function tarballFiles() {
  if (!existsSync(TARBALL)) throw new Error(`${TARBALL} is missing: run bash pkg-config/build.sh`);
  return execFileSync('tar', ['-tzf', TARBALL], { encoding: 'utf8' })
    .split('\n').filter(Boolean).map((name) => name.replace(/^package\//, ''));
}

/**
 * A scratch project with the tarball installed, and `files` ({ path: text }) written into
 * it. Returns { dir, write(path, text), run(cmd, args, options), close() }.
 */
export function scratchProject(files = {}, name = 'edgeattest-scratch') {
  tarballFiles();
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const write = (path, text) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('package.json', JSON.stringify({ name, private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', TARBALL], { cwd: dir, stdio: 'pipe' });
  for (const [path, text] of Object.entries(files)) write(path, text);
  return {
    dir,
    write,
    run: (cmd, args, options = {}) => execFileSync(cmd, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe', ...options }),
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
