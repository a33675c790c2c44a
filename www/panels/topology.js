// Panel 2b: the protected-PCIe (PPCIE) topology of a node of 8 GPUs and 4 NVSwitches. The wasm
// core verifies every device's evidence and applies NVIDIA's PPCIE rules and edgeattest's own
// (checkTopology); this module lays out its report: the verdict, the links the devices report
// with the ones a failed rule names in red, and every rule's outcome. It decides nothing.
import { checkTopology } from '../pkg/service/index.js';
import { $, el, badge, codeEl, table, showError, levelBadge } from './ui.js';

let sample = null;

/**
 * The nodes the buttons check: the real node as recorded, and two edits of it that a
 * verifier must refuse (the edit is said beside the result).
 */
const NODES = {
  real: {
    title: 'the real node, as recorded',
    make: (s) => ({ gpus: s.gpus.devices, switches: s.switches.devices }),
  },
  'no-switch': {
    title: 'the real node without SWITCH-3',
    edit: "SWITCH-3's evidence left out: 8 GPUs and 3 switches are given, and every GPU still lists the missing switch.",
    make: (s) => ({ gpus: s.gpus.devices, switches: s.switches.devices.slice(0, 3) }),
  },
  twice: {
    title: 'the real node with GPU-7 twice',
    edit: "GPU-6's evidence replaced by a second copy of GPU-7's: 8 GPU reports, 7 devices. The core names devices by position, so the copy shows as GPU-6.",
    make: (s) => ({ gpus: [...s.gpus.devices.slice(0, 6), s.gpus.devices[7], s.gpus.devices[7]], switches: s.switches.devices }),
  },
};

// ---- the failing findings, by device and by link -----------------------------------------

/** A finding as text: the core's message, which names the devices and the PDI. */
const findingText = (f) => f.message;

/** The failed rules' findings, each with its rule id. */
function failingFindings(report) {
  return report.rules.filter((r) => r.status === 'failed')
    .flatMap((r) => r.findings.map((f) => ({ ...f, rule: r.rule })));
}

// ---- the topology view -------------------------------------------------------------------

const SVG_NS = 'http://www.w3.org/2000/svg';
const SLOT = 122; // the width a box needs with its PDI; a row of 8 fits 960 wide
const BOX_H = 52;
const TOP_Y = 12;
const BOTTOM_Y = 250;
const HEIGHT = BOTTOM_Y + BOX_H + 12;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  node.append(...children.filter(Boolean));
  return node;
}

const titleOf = (lines) => svg('title', {}, lines.join('\n'));

/**
 * The two rows of the view: the attested devices, then one "unknown PDI" box per PDI a device
 * of the other row lists that no attested device has (GPUs list switches, switches list GPUs).
 */
function rows(report) {
  const item = (kind, device) => ({ id: device.label, kind, label: device.label, pdi: device.pdi, device, reasons: [] });
  const top = report.gpus.map((d) => item('gpu', d));
  const bottom = report.switches.map((d) => item('switch', d));
  const unknown = (row, pdi, by) => {
    let box = row.find((i) => i.kind === 'unknown' && i.pdi === pdi);
    if (!box) {
      box = { id: `pdi:${pdi}`, kind: 'unknown', label: 'unknown PDI', pdi, listedBy: [], reasons: [] };
      row.push(box);
    }
    box.listedBy.push(by);
    return box;
  };
  const links = new Map();
  const link = (gpu, sw, reporter, pdi) => {
    const key = `${gpu.id}|${sw.id}`;
    if (!links.has(key)) links.set(key, { gpu, switch: sw, pdi, reporters: [], reasons: [] });
    links.get(key).reporters.push(reporter);
  };
  for (const gpu of top.filter((i) => i.kind === 'gpu')) {
    for (const pdi of gpu.device.links ?? []) {
      const targets = bottom.filter((i) => i.kind === 'switch' && i.pdi === pdi);
      for (const target of targets.length ? targets : [unknown(bottom, pdi, gpu.label)]) link(gpu, target, gpu.label, pdi);
    }
  }
  for (const sw of bottom.filter((i) => i.kind === 'switch')) {
    for (const pdi of sw.device.links ?? []) {
      const targets = top.filter((i) => i.kind === 'gpu' && i.pdi === pdi);
      for (const target of targets.length ? targets : [unknown(top, pdi, sw.label)]) link(target, sw, sw.label, pdi);
    }
  }
  return { top, bottom, links: [...links.values()] };
}

/** Marks the devices and links each failing finding names (a link by its two ends, or by one end and the PDI). */
function markFindings(report, { top, bottom, links }) {
  for (const f of failingFindings(report)) {
    const why = `${f.rule}: ${findingText(f)}`;
    for (const device of [...top, ...bottom]) {
      if (device.kind !== 'unknown' && (device.label === f.gpu || device.label === f.switch)) device.reasons.push(why);
    }
    for (const l of links) {
      const named = f.gpu && f.switch
        ? l.gpu.label === f.gpu && l.switch.label === f.switch
        : (f.gpu && f.pdi && l.gpu.label === f.gpu && l.switch.pdi === f.pdi)
          || (f.switch && f.pdi && l.switch.label === f.switch && l.gpu.pdi === f.pdi);
      if (named) l.reasons.push(why);
    }
  }
}

function layout(row, y, width) {
  const slot = width / row.length;
  const w = Math.min(112, slot - 8);
  row.forEach((item, i) => Object.assign(item, { x: slot * i + (slot - w) / 2, y, w, index: i, of: row.length }));
}

function deviceBox(item) {
  const failed = item.reasons.length > 0;
  const classes = ['device', item.kind, failed || item.kind === 'unknown' ? 'failed' : null].filter(Boolean).join(' ');
  const about = item.kind === 'unknown'
    ? [`PDI ${item.pdi}: listed by ${item.listedBy.join(', ')}, but no attested device has it`]
    : [`${item.label}, PDI ${item.pdi ?? 'unknown'}${item.device.ueid ? `, ueid ${item.device.ueid}` : ''}`];
  const cx = item.x + item.w / 2;
  return svg('g', { class: classes, 'data-label': item.kind === 'unknown' ? null : item.label, 'data-pdi': item.pdi },
    titleOf([...about, ...item.reasons]),
    svg('rect', { x: item.x, y: item.y, width: item.w, height: BOX_H, rx: 6 }),
    svg('text', { x: cx, y: item.y + 21, 'text-anchor': 'middle', class: 'name' }, item.label),
    svg('text', { x: cx, y: item.y + 40, 'text-anchor': 'middle', class: 'pdi' }, item.pdi ?? '—'));
}

function linkLine(l) {
  // Each end's anchor is spread along its box by the other end's place, so lines fan out.
  const x1 = l.gpu.x + (l.gpu.w * (l.switch.index + 1)) / (l.switch.of + 1);
  const x2 = l.switch.x + (l.switch.w * (l.gpu.index + 1)) / (l.gpu.of + 1);
  const unknown = l.gpu.kind === 'unknown' || l.switch.kind === 'unknown';
  const classes = ['link', l.reasons.length ? 'failed' : null, unknown ? 'to-unknown' : null].filter(Boolean).join(' ');
  const ends = `${l.gpu.kind === 'unknown' ? `unknown GPU PDI ${l.gpu.pdi}` : l.gpu.label} ↔ ${l.switch.kind === 'unknown' ? `unknown switch PDI ${l.switch.pdi}` : l.switch.label}`;
  return svg('line', {
    class: classes, x1, y1: l.gpu.y + BOX_H, x2, y2: l.switch.y,
    'data-gpu': l.gpu.kind === 'unknown' ? null : l.gpu.label,
    'data-switch': l.switch.kind === 'unknown' ? null : l.switch.label,
    'data-pdi': l.pdi,
  }, titleOf([`${ends}, reported by ${[...new Set(l.reporters)].join(' and ')}`, ...l.reasons]));
}

function topologyView(report) {
  const view = rows(report);
  markFindings(report, view);
  const width = Math.max(960, SLOT * Math.max(view.top.length, view.bottom.length));
  layout(view.top, TOP_Y, width);
  layout(view.bottom, BOTTOM_Y, width);
  const red = view.links.filter((l) => l.reasons.length).length;
  const unknown = [...view.top, ...view.bottom].filter((i) => i.kind === 'unknown').length;
  const summary = `${report.gpus.length} GPUs above, ${report.switches.length} switches below, ${view.links.length} links`
    + `${red ? `, ${red} named by a failed rule` : ''}${unknown ? `, ${unknown} unknown PDI${unknown > 1 ? 's' : ''}` : ''}`;
  // Links first, the failing ones last: red is drawn over the others, the boxes over all.
  const ordered = [...view.links.filter((l) => !l.reasons.length), ...view.links.filter((l) => l.reasons.length)];
  return svg('svg', { viewBox: `0 0 ${width} ${HEIGHT}`, role: 'img', 'aria-label': `Topology: ${summary}` },
    svg('g', { class: 'links' }, ...ordered.map(linkLine)),
    svg('g', { class: 'devices' }, ...[...view.top, ...view.bottom].map(deviceBox)));
}

// ---- the verdict and the tables ----------------------------------------------------------

const STATUS = { passed: ['pass', 'passed'], failed: ['fail', 'failed'], skipped: ['skip', 'skipped'] };

function findingList(findings) {
  return findings.length ? el('ul', { class: 'reasons' }, findings.map((f) => el('li', { text: findingText(f) }))) : null;
}

/** The verdict box: green only when the core's verdict is passed; red, as an alert, with every failed rule otherwise. */
function showVerdict(report) {
  const box = $('topology-verdict');
  const failed = report.rules.filter((r) => r.status === 'failed');
  const skipped = report.rules.filter((r) => r.status === 'skipped').length;
  if (report.verdict === 'passed') {
    box.setAttribute('role', 'status');
    box.className = 'summary good';
    box.dataset.level = 'passed';
    box.replaceChildren(el('p', { class: 'verdict-line' }, levelBadge('passed', 'topology passed'),
      ` ${report.gpus.length} GPUs and ${report.switches.length} switches (${report.expectedGpus} and ${report.expectedSwitches} expected), every device's evidence verified; `
      + `${report.rules.length - skipped} rules passed${skipped ? `, ${skipped} skipped` : ''}.`));
    return;
  }
  box.setAttribute('role', 'alert');
  box.className = 'summary bad';
  box.dataset.level = 'failed';
  box.replaceChildren(
    el('p', { class: 'verdict-line' }, levelBadge('failed', 'topology failed'),
      ` ${failed.length} rule${failed.length === 1 ? '' : 's'} failed: ${report.failedRules.join(', ')}. Do not rely on this node.`),
    el('ul', { class: 'reasons' }, failed.map((r) => el('li', { 'data-rule': r.rule }, codeEl(r.rule), findingList(r.findings)))),
  );
}

function rulesTable(report) {
  return table('Every rule, as the core decided it', ['Rule', 'Status', 'Findings'], report.rules.map((r) => ({
    class: r.status === 'failed' ? 'failed' : undefined,
    id: `topology-rule-${r.rule}`,
    cells: [el('code', { text: r.rule }), badge(STATUS[r.status]?.[0] ?? 'fail', STATUS[r.status]?.[1] ?? r.status), findingList(r.findings) ?? '—'],
  })), 'stack');
}

function devicesTable(report) {
  const rowsOf = (devices) => devices.map((d) => [d.label, el('span', { class: 'claim', text: d.pdi ?? '—' }),
    el('span', { class: 'claim', text: (d.links ?? []).join(' ') || 'none' })]);
  return el('details', { class: 'claims' }, el('summary', { text: 'The devices and the PDIs each lists' }),
    table('The devices and the PDIs each lists', ['Device', 'PDI', 'Lists'], [...rowsOf(report.gpus), ...rowsOf(report.switches)], 'stack'));
}

function clear() {
  showError('topology-error', null);
  $('topology-output').hidden = true;
  for (const id of ['topology-verdict', 'topology-view', 'topology-rules', 'topology-devices']) $(id).replaceChildren();
}

/** Checks one of the nodes (`real`, `no-switch`, `twice`) and shows the core's report; returns it, or null. */
export function checkNode(kind) {
  clear();
  const node = NODES[kind];
  const { gpus, switches } = node.make(sample);
  let report;
  try {
    report = checkTopology({
      gpus: { devices: gpus, nonce: sample.nonce, arch: sample.gpus.arch },
      switches: { devices: switches, nonce: sample.nonce, arch: sample.switches.arch },
    });
  } catch (error) {
    showError('topology-error', error);
    return null;
  }
  $('topology-input').replaceChildren(
    node.edit ? badge('warn', 'edited') : badge('info', 'as recorded'),
    ` Checked: ${node.title} — ${gpus.length} GPU reports, ${switches.length} switch reports, nonce ${sample.nonce.slice(0, 16)}…`,
    node.edit ? ` ${node.edit}` : '',
  );
  showVerdict(report);
  $('topology-view').replaceChildren(topologyView(report));
  $('topology-rules').replaceChildren(rulesTable(report));
  $('topology-devices').replaceChildren(devicesTable(report));
  $('topology-output').hidden = false;
  return report;
}

export function initTopologyPanel(topologySample) {
  if (!topologySample?.gpus?.devices?.length) throw new Error('the bundled topology sample is missing');
  sample = topologySample;
  $('topology-about').textContent = `Bundled: ${sample.gpus.devices.length} GPUs and ${sample.switches.devices.length} switches. ${sample.provenance}`;
  for (const [id, kind] of [['topology-real', 'real'], ['topology-no-switch', 'no-switch'], ['topology-twice', 'twice']]) {
    $(id).addEventListener('click', () => checkNode(kind));
    $(id).disabled = false;
  }
}
