// The binding's reader of JS arguments: its cost per member must not grow with the member
// count (each key is looked up once in a set, not searched for in a list). It reads a
// request of 16 384 members (the most an object may have) and one of 1 024 through the
// service module; the yardstick is the same copy written in JS (Reflect.ownKeys, a Set,
// Reflect.get and a plain object), timed on the same objects, alternated in one process:
// V8's own cost per member grows with an object's size (dictionary mode, GC), the yardstick
// carries that growth too. Reported: wasm/JS at each size, and how much that ratio grows
// from 1 024 to 16 384 members (about 1 when linear; a quadratic check made it about 16).
// Both requests are refused for their unknown members, after the whole copy.
//
//   node tests/bench/reader.mjs [--rounds 15]
import '../../pkg/service/index.js';
import { AttestationService } from '../../pkg/service/edgeattest.js';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 15;
const key = readFileSync(new URL('../fixtures/generated/token_signing_key.pem', import.meta.url), 'utf8');
const service = new AttestationService({ signingKey: key, rimServiceUrl: null, ocspUrl: null });

function request(members) {
  const value = { method: 'GET', path: '/health' };
  for (let i = 0; i < members - 2; i++) value[`member${i}`] = i;
  return value;
}

function wasmRead(value) {
  try {
    service.handle(value, 0);
  } catch (error) {
    if (error.code === 'ERR_INVALID_ARGUMENT') return;
    throw error;
  }
  throw new Error('an unknown member was accepted');
}

function jsCopy(value) {
  const out = {};
  const seen = new Set();
  for (const key of Reflect.ownKeys(value)) {
    if (seen.has(key)) continue;
    out[key] = Reflect.get(value, key);
    seen.add(key);
  }
  return out;
}

/** Microseconds per member of `read(value)`: the median of 5. */
function perMember(read, value, members) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    read(value);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return (times[2] * 1000) / members;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratios = {};
for (const members of [1024, 16384]) {
  const value = request(members);
  const samples = { wasm: [], js: [] };
  for (let round = 0; round < rounds; round++) {
    samples.wasm.push(perMember(wasmRead, value, members));
    samples.js.push(perMember(jsCopy, value, members));
  }
  const [ours, yardstick] = [median(samples.wasm), median(samples.js)];
  ratios[members] = ours / yardstick;
  console.log(`reader, ${members} members: ${ours.toFixed(3)} µs per member; the JS copy ${yardstick.toFixed(3)} µs`);
  console.log(`BENCH reader.${members}-members ${ours.toFixed(3)}us ${yardstick.toFixed(3)}us ${ratios[members].toFixed(2)}`);
}
const growth = ratios[16384] / ratios[1024];
console.log(`BENCH reader.growth-1k-to-16k ${ratios[16384].toFixed(2)} ${ratios[1024].toFixed(2)} ${growth.toFixed(2)} <=3`);
