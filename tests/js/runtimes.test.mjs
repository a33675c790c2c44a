// The release package under the other runtimes we target and its published types: Deno (from
// npm's `deno` package) and TypeScript's compiler over a typed usage file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name) => `${repo}node_modules/.bin/${name}`;
const deno = `${repo}target/tools/node_modules/.bin/deno`; // installed by pkg-config/setup.sh

test('Deno imports the package and runs it', () => {
  const out = execFileSync(
    deno,
    [
      'run', '--no-prompt', '--allow-read', 'tests/js/support/deno-smoke.mjs',
      'tests/fixtures/nvidia/evidence/hopper/nvat_hopper_535.86.09_report.hex',
      'tests/fixtures/nvidia/evidence/hopper/nvat_hopper_535.86.09_certchain.pem',
    ],
    { cwd: repo, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' }, encoding: 'utf8' },
  );
  const result = JSON.parse(out.trim().split('\n').pop());
  assert.match(result.runtime, /^deno 2\./);
  assert.equal(result.summary.nonce, result.nonce);
  assert.equal(result.summary.devices.length, 1);
  assert.equal(result.code, 'ERR_REQUEST_INVALID_ARCH');
});

test('the published TypeScript types compile against typed usage (tsc --strict)', () => {
  try {
    execFileSync(bin('tsc'), ['-p', 'tests/js/support/tsconfig.json'], { cwd: repo, encoding: 'utf8' });
  } catch (error) {
    assert.fail(`tsc failed:\n${error.stdout}${error.stderr}`);
  }
});
