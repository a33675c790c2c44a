#!/usr/bin/env node
// Fills the verified mirror of a running service (the worker: `bash pkg-config/start.sh`, or a
// deployment) for a list of RIM ids, before anyone needs them:
//
//   node pkg-config/prewarm.mjs --url http://127.0.0.1:8787 NV_GPU_DRIVER_GH100_550.144.03 ...
//
// Each id is asked of the mirror (`GET <url>/v1/rim/<id>`), as any client would: a mirror that
// does not hold it fetches it from its configured RIM service, verifies it and keeps it only if
// it verifies, so pre-warming needs no key and can put nothing unverified in the mirror.
// Prints one line per id (200 served, or the mirror's error code); exits 1 when any id is not
// served, 2 on bad arguments.
const args = process.argv.slice(2);
const at = args.indexOf('--url');
const url = at >= 0 ? args[at + 1] : undefined;
const ids = args.filter((_, i) => i !== at && i !== at + 1);
if (!url || !/^https?:\/\//.test(url) || ids.length === 0) {
  console.error('usage: node pkg-config/prewarm.mjs --url http://127.0.0.1:8787 RIM_ID...');
  process.exit(2);
}
let failed = 0;
for (const id of ids) {
  let line;
  try {
    const response = await fetch(new URL(`/v1/rim/${encodeURIComponent(id)}`, url), { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
    const body = await response.json().catch(() => ({}));
    if (response.status === 200) line = `${id}: served (sha256 ${body.sha256})`;
    else {
      failed += 1;
      line = `${id}: not served, ${response.status} ${body.code ?? ''} ${body.message ?? ''}`.trim();
    }
  } catch (error) {
    failed += 1;
    line = `${id}: the mirror did not answer (${error.message})`;
  }
  console.log(line);
}
process.exit(failed ? 1 : 0);
