// Builds the API reference from a built package's published types with typedoc:
//   node pkg-config/api-docs.mjs PKG_DIR OUT_DIR
// pkg-config/typedoc.json and tsconfig.docs.json name pkg/; build.sh builds in a temporary
// directory, so both are re-pointed at PKG_DIR (typedoc takes neither a tsconfig's `files`
// nor entry points from its command line in a way that overrides the options file).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [pkgArg, outArg] = process.argv.slice(2);
if (!pkgArg || !outArg) throw new Error('usage: node pkg-config/api-docs.mjs PKG_DIR OUT_DIR');
const pkg = resolve(pkgArg);
const options = JSON.parse(readFileSync(join(root, 'pkg-config', 'typedoc.json'), 'utf8'));
// typedoc.json's entries name ../pkg/…; the same files under PKG_DIR.
const entries = options.entryPoints.map((entry) => join(pkg, relative(join(root, 'pkg'), resolve(root, 'pkg-config', entry))));

const dir = mkdtempSync(join(tmpdir(), 'edgeattest-api-docs-'));
try {
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(tsconfig, JSON.stringify({ extends: join(root, 'pkg-config', 'tsconfig.docs.json'), files: entries }));
  const config = join(dir, 'typedoc.json');
  writeFileSync(config, JSON.stringify({ ...options, entryPoints: entries, tsconfig, favicon: resolve(root, 'pkg-config', options.favicon), out: resolve(outArg) }));
  const run = spawnSync(join(root, 'node_modules', '.bin', 'typedoc'), ['--options', config, '--logLevel', 'Warn'], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
