// The architectures the page offers, and whether each is a GPU or a switch: rows of the
// core's architecture table (architectures()), never a list or a name test of the page's own.
import { architectures } from '../pkg/service/index.js';

const rows = architectures();

/** The row of an architecture's wire name, or undefined. */
export const architecture = (name) => rows.find((row) => row.name === name);

/** 'gpu' or 'switch' (undefined for a name the table does not hold). */
export const deviceKind = (name) => architecture(name)?.deviceKind;

/** The architectures of one device kind, in the table's order. */
export const architecturesOf = (kind) => rows.filter((row) => row.deviceKind === kind);

/** The V4 attest endpoint that takes an architecture, as its row lists them. */
export const v4Endpoint = (name) => architecture(name)?.endpoints.find((path) => path.startsWith('/v4/'));

/** Fills every `<select data-arch>` with the table's architectures (the first selected). */
export function fillArchSelects(root = document) {
  for (const select of root.querySelectorAll('select[data-arch]')) {
    select.replaceChildren(...rows.map((row, i) => new Option(row.name, row.name, i === 0, i === 0)));
  }
}
