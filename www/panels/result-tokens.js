// Panel 1's result as pasted, for display only: its tokens, and their header and payload
// decoded without trusting them (the core verifies; a token that does not verify is shown as
// decoded, and labelled so).
function decodePart(part) {
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

export function decodeToken(token) {
  const [header, payload] = typeof token === 'string' ? token.split('.') : [];
  return { header: header ? decodePart(header) : null, payload: payload ? decodePart(payload) : null };
}

/** The tokens of a result as pasted: [{label, token}] with the overall token first (label null). */
export function tokensOf(value) {
  if (Array.isArray(value) && Array.isArray(value[0])) {
    const devices = value[1] && typeof value[1] === 'object' ? Object.entries(value[1]) : [];
    return [{ label: null, token: value[0][1] }, ...devices.map(([label, token]) => ({ label, token }))];
  }
  if (value && typeof value === 'object' && typeof value.eat === 'string') return [{ label: null, token: value.eat }];
  return [];
}

export function parseResult(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // the core reports the syntax error with its code
  }
}
