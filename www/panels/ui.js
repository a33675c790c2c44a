// Small DOM helpers shared by the panels: no framework, only what the page needs.

export const $ = (id) => document.getElementById(id);

/** An element with attributes/properties and children (strings become text nodes). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name in node && !name.includes('-')) node[name] = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return node;
}

/**
 * An error code as one `<code>`: it may break only after an underscore (ERR_EAT_/DIGEST_/
 * MISMATCH), never inside a word.
 */
export function codeEl(code) {
  const parts = String(code).split(/(?<=_)/);
  return el('code', { class: 'code' }, parts.flatMap((part, i) => (i ? [document.createElement('wbr'), part] : [part])));
}

/** Shows an error (an EdgeAttestError with code/field, an Error, or text) in a role=alert box. */
export function showError(target, error) {
  const box = typeof target === 'string' ? $(target) : target;
  box.replaceChildren();
  if (!error) {
    box.hidden = true;
    return;
  }
  const message = typeof error === 'string' ? error : error.message;
  box.append(codeEl(error.code ?? 'ERR_UNEXPECTED'), ` ${message}`);
  if (error.field) box.append(el('span', { text: ` (field: ${error.field})` }));
  box.hidden = false;
}

/** A pass/fail/other badge: the word is always shown, colour is only a second cue. */
export function badge(state, text) {
  const words = { pass: 'pass', fail: 'fail', skip: 'not checked', warn: 'warning', info: 'info' };
  return el('span', { class: `badge ${state}`, text: text ?? words[state] ?? state });
}

// ---- the verdict scale --------------------------------------------------------------------
// The core decides the level (the appraisal's `level`, or a token failure's `level`); this is
// the one table of its words and colour, used by every panel. `tone` is the box's colour
// (`summary good|warn|bad`), `state` the badge's. Only the two passing levels are green or
// amber; every other level is red, so that a negative result never looks like success.

export const LEVELS = {
  forged: {
    words: 'not authentic', tone: 'bad', state: 'fail',
    meaning: 'A signature, key, digest or issuer check failed: nothing in this result can be trusted, its verdict included.',
  },
  'wrong-nonce': {
    words: 'wrong nonce', tone: 'bad', state: 'fail',
    meaning: 'Correctly signed, but it answers another challenge than the nonce given: a replay, another request, or a typo in the nonce.',
  },
  expired: {
    words: 'authentic but expired', tone: 'bad', state: 'fail',
    meaning: 'Correctly signed, but outside its validity time at the time of the check: not a fresh answer. A recorded result can be checked at its recorded time.',
  },
  failed: {
    words: 'attestation failed', tone: 'bad', state: 'fail',
    meaning: 'Authentic, and the verdict is not a pass: do not rely on these devices.',
  },
  'passed-with-warnings': {
    words: 'passed with warnings', tone: 'warn', state: 'warn',
    meaning: 'Authentic and passed, but a device carries warnings: read them before relying on it.',
  },
  passed: {
    words: 'attestation passed', tone: 'good', state: 'pass',
    meaning: 'Authentic and passed, with no warning.',
  },
};

/**
 * The other panels' verdicts on the same scale: the EAR's status (AR4SI tiers), the evidence
 * panel's report verdict (partial: nothing failed, something not checked).
 */
export const EAR_LEVEL = { affirming: 'passed', warning: 'passed-with-warnings', contraindicated: 'failed', none: 'failed' };
export const EVIDENCE_LEVEL = { passed: 'passed', partial: 'passed-with-warnings', failed: 'failed' };

/** The scale's row for `level` (an unknown or absent level reads as failed: never a pass). */
export const levelOf = (level) => LEVELS[level] ?? LEVELS.failed;

/** The badge of a level: its words, its colour, and `data-level` for tests and styles. */
export function levelBadge(level, text) {
  const row = levelOf(level);
  return el('span', { class: `badge ${row.state}`, 'data-level': LEVELS[level] ? level : 'failed', text: text ?? row.words });
}

/**
 * A panel's verdict for `level`, beside the result's (`resultLevel`, when a result is shown):
 * when the two differ, the sentence `why` says why, so that two panels never contradict each
 * other silently.
 */
export function levelAgreement(level, resultLevel, why) {
  if (!resultLevel || resultLevel === level) return null;
  return el('p', { class: 'level-why', 'data-result-level': resultLevel },
    `The result's verdict is ${levelOf(resultLevel).words}; this says ${levelOf(level).words}: ${why}`);
}

/**
 * A table from column titles and rows of cells (nodes or text); rows may carry a class and
 * an id.
 * Cells carry their column title (data-label) so that a `stack` table reads as cards on a
 * phone.
 */
export function table(caption, headers, rows, className) {
  return el('table', { class: className },
    caption ? el('caption', { text: caption }) : null,
    el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, rows.map((row) => {
      const cells = Array.isArray(row) ? row : row.cells;
      return el('tr', Array.isArray(row) ? {} : { class: row.class, id: row.id },
        cells.map((cell, i) => (i === 0
          ? el('th', { scope: 'row', 'data-label': headers[i] }, cell)
          : el('td', { 'data-label': headers[i] }, cell))));
    })),
  );
}

// ---- time --------------------------------------------------------------------------------

/** Unix seconds as the value of a datetime-local input read as UTC. */
export function toInputValue(seconds) {
  return new Date(Math.floor(seconds) * 1000).toISOString().slice(0, 19);
}

/**
 * The Unix seconds a datetime-local input (read as UTC) holds; now when it is empty or still
 * says "now" (set by its Now button and not edited since: the clock has moved on).
 */
export function fromInputValue(input) {
  const value = input.value.trim();
  if (!value || input.dataset.auto === 'now') {
    const now = Math.floor(Date.now() / 1000);
    input.value = toInputValue(now);
    return now;
  }
  const ms = Date.parse(`${value.length === 16 ? `${value}:00` : value}Z`);
  if (Number.isNaN(ms)) {
    const error = new Error(`"${value}" is not a date and time`);
    error.code = 'ERR_INVALID_ARGUMENT';
    error.field = input.id;
    throw error;
  }
  return Math.floor(ms / 1000);
}

export const isoSeconds = (seconds) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** Wires a "Now" button to a datetime-local input and fills it with the current time. */
export function timeControl(input, nowButton) {
  const setNow = () => {
    input.value = toInputValue(Date.now() / 1000);
    input.dataset.auto = 'now';
    delete input.dataset.recorded;
  };
  setNow();
  nowButton.addEventListener('click', setNow);
  input.addEventListener('input', () => {
    delete input.dataset.auto;
    delete input.dataset.recorded;
  });
}

/** Sets a time input to a fixed time (no longer following the clock). */
export function setTime(input, seconds) {
  input.value = toInputValue(seconds);
  delete input.dataset.auto;
  delete input.dataset.recorded;
}

// ---- files ---------------------------------------------------------------------------------

/** Makes `zone` accept dropped files, calling onFiles(FileList). */
export function dropZone(zone, onFiles) {
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    if (e.dataTransfer?.files?.length) onFiles(e.dataTransfer.files);
  });
}

/** Text of a value for a claims table: strings as they are, the rest as JSON. */
export function claimText(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// Claims that hold Unix seconds: the JWT times, and NVIDIA's dated claims by their names.
const TIME_CLAIMS = new Set(['iat', 'nbf', 'exp']);
const TIME_NAME = /(^|[-_])(time|timestamp|date|expiration|expires|issued)([-_]|$)/i;

/** Unix seconds as "ISO (local time)", for a person reading a claim. */
export function dateText(seconds) {
  const date = new Date(seconds * 1000);
  const local = date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  return `${isoSeconds(seconds)} (${local} your time)`;
}

/** A claim's value for display: Unix-seconds claims carry their date beside the number. */
export function claimCell(name, value) {
  const seconds = typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 2 ** 37;
  if (seconds && (TIME_CLAIMS.has(name) || TIME_NAME.test(name))) {
    return el('span', { class: 'claim' }, String(value), ' ',
      el('time', { class: 'date', datetime: isoSeconds(value), text: `= ${dateText(value)}` }));
  }
  return el('span', { class: 'claim', text: claimText(value) });
}

/** Hex text of bytes. */
export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The items of an evidence file as NVIDIA's SDK tools write it — a JSON array of
 * {arch, nonce, evidence (base64), certificate (base64 of PEM)} — or null for other text.
 */
export function serializedEvidence(text) {
  let items;
  try {
    items = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(items) || !items.length) return null;
  if (!items.every((i) => i && typeof i.evidence === 'string' && typeof i.certificate === 'string')) return null;
  const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return items.map((item) => ({
    arch: typeof item.arch === 'string' ? item.arch.toUpperCase() : undefined,
    nonce: typeof item.nonce === 'string' ? item.nonce : undefined,
    evidenceHex: hex(bytes(item.evidence)),
    certificatePem: item.certificate.includes('-----BEGIN') ? item.certificate : new TextDecoder().decode(bytes(item.certificate)),
  }));
}
