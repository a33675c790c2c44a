// Size report of the release wasm module: raw and gzip -9 bytes against the budget.
// Budget: 400 KB (400,000 bytes) gzipped — small enough for a page to load on a phone
// connection in about a second and far below the 10 MB Cloudflare Workers limit.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP_BYTES = 400_000;
const wasm = readFileSync(new URL('../pkg/edgeattest_bg.wasm', import.meta.url));
const gzipped = gzipSync(wasm, { level: 9 }).length;
const share = ((100 * gzipped) / BUDGET_GZIP_BYTES).toFixed(1);
console.log(`edgeattest_bg.wasm: ${wasm.length} bytes raw, ${gzipped} bytes gzip -9 (${share}% of the ${BUDGET_GZIP_BYTES}-byte budget)`);
if (gzipped > BUDGET_GZIP_BYTES) {
  console.error(`over budget by ${gzipped - BUDGET_GZIP_BYTES} bytes`);
  process.exit(1);
}
