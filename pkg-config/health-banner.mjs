// The start banner's words about the service: what its GET /health says — the core decides the
// status from the sources' probe, the banner only lays it out — once the probe has ended.
// Used by serve.mjs (start.sh); its own module so that a test can read the wording.

/** The column the banner's values start at ("edgeattest service: " and friends). */
const INDENT = ' '.repeat(20);
const WIDTH = 100;

/** `text` in lines of at most WIDTH columns, each after `INDENT` but the first. */
function wrap(text) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && INDENT.length + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.join(`\n${INDENT}`);
}

/**
 * The banner's lines about the service at `origin`, from its /health answer (`status`, the
 * parsed `health`): the overall status and whether the sources answer, and what fails and what
 * to do when one does not.
 */
export function healthBanner(origin, status, health) {
  const overall = health?.overallStatus ?? `HTTP ${status}`;
  const network = health?.network;
  const lines = [`edgeattest service: ${origin}/  (health: ${overall}${network ? `; network: ${network}` : ''})`];
  if (network === 'UNKNOWN') {
    lines.push(`sources:            not probed yet (no answer within the probe's time); GET ${origin}/health says more later`);
  } else if (health?.networkDetail) {
    lines.push(`sources:            ${wrap(health.networkDetail)}`);
  }
  return lines;
}

/**
 * GET /health (`fetchHealth()` resolves to a Response) until it no longer says the network is
 * UNKNOWN (the first request starts the sources' probe, which ends within its timeout), or
 * `timeoutMs` passed. Resolves to `{ status, health }` of the last answer.
 */
export async function settledHealth(fetchHealth, { timeoutMs, intervalMs = 100 }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetchHealth();
    const health = await response.json().catch(() => undefined);
    if (health?.network !== 'UNKNOWN' || Date.now() >= deadline) return { status: response.status, health };
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
