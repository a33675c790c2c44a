// The deprecation JS API from the release package in Node: notices, request and query
// checks, standard headers, the registry and the time formats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../pkg/service/index.js';
import {
  attestDeprecationHeaders,
  checkDeprecatedQuery,
  checkDeprecatedRequest,
  deprecationHeaders,
  deprecationNotices,
  deprecationRegistry,
  formatHttpDate,
  formatRfc3339,
} from '../../pkg/service/edgeattest.js';

const SEPT_10 = Date.UTC(2026, 8, 10) / 1000;
const OCT_10 = Date.UTC(2026, 9, 10) / 1000;
const DAY = 86400;

function rejects(fn, code, field) {
  assert.throws(fn, (error) => {
    assert.equal(error.name, 'EdgeAttestError');
    assert.equal(error.code, code, error.message);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  });
}

test('deprecationNotices: exact objects before, at and after the date, then dropped', () => {
  assert.deepEqual(deprecationNotices('NVLinkInterface', SEPT_10 - 1), [{
    attribute: 'nvLinklogicalPartitionId',
    replacedBy: 'nvLinkLogicalPartitionId',
    takeActionBy: '2026-09-10T00:00:00Z',
    notice: "Attribute 'nvLinklogicalPartitionId' is being deprecated in favor of 'nvLinkLogicalPartitionId'. Please take action prior to the specified date",
  }]);
  const at = deprecationNotices('NVLinkInterface', SEPT_10);
  assert.equal(at[0].notice, "Attribute 'nvLinklogicalPartitionId' has been deprecated in favor of 'nvLinkLogicalPartitionId'. Please take action immediately");
  assert.deepEqual(deprecationNotices('NVLinkInterface', SEPT_10 + 30 * DAY - 1), at);
  assert.deepEqual(deprecationNotices('NVLinkInterface', SEPT_10 + 30 * DAY), []);
  assert.equal(deprecationNotices('NVLinkInterface', SEPT_10 + 60 * DAY, { releaseCycleSeconds: 90 * DAY }).length, 1);
  const tenant = deprecationNotices('TenantAccount', SEPT_10 - DAY);
  assert.deepEqual(tenant.map((n) => n.attribute), ['accountNumber', 'subscriptionId', 'subscriptionTier']);
  for (const notice of tenant) {
    assert.equal('replacedBy' in notice, false);
    assert.equal('queryParam' in notice, false);
  }
  assert.deepEqual(deprecationNotices('GET /instance', OCT_10 - 1).map((n) => n.queryParam), ['infrastructureProviderId']);
  assert.equal(deprecationNotices('POST /v2/attest/gpu', 0)[0].endpoint, 'POST /v2/attest/gpu');
  assert.deepEqual(deprecationNotices('Unknown', 0), []);
  rejects(() => deprecationNotices('TenantAccount', -5), 'ERR_INVALID_ARGUMENT', 'now');
});

test('checkDeprecatedRequest: both present, after the date, ignored attributes', () => {
  const both = checkDeprecatedRequest('MachineInstanceType', { id: 'm1', machineId: 'm1' }, SEPT_10 - DAY);
  assert.equal(both.ok, false);
  assert.equal(both.status, 400);
  assert.equal(both.body.code, 'ERR_DEPRECATED_BOTH_PRESENT');
  assert.match(both.body.message, /'machineId' is preferred/);
  assert.equal(both.body.deprecation.replacedBy, 'machineId');

  const late = checkDeprecatedRequest('MachineInstanceType', '{"id":"m1"}', SEPT_10);
  assert.equal(late.body.code, 'ERR_DEPRECATED_ATTRIBUTE');
  assert.equal(late.body.message, "Attribute 'id' is deprecated and no longer accepted since 2026-09-10T00:00:00Z; use 'machineId' instead");

  const early = checkDeprecatedRequest('MachineInstanceType', { id: 'm1' }, SEPT_10 - DAY);
  assert.equal(early.ok, true);
  assert.deepEqual(early.body, { id: 'm1' });
  assert.equal(early.used[0].attribute, 'id');
  const headers = new Headers(early.headers);
  assert.equal(headers.get('sunset'), 'Thu, 10 Sep 2026 00:00:00 GMT');
  assert.equal(headers.get('link'), '</deprecations#machine-instance-type-id>; rel="deprecation"');
  assert.equal(headers.get('access-control-expose-headers'), 'Deprecation, Sunset, Link');

  const os = checkDeprecatedRequest('OperatingSystem', { name: 'u', isCloudInit: true, userData: '' }, SEPT_10);
  assert.equal(os.ok, true);
  assert.deepEqual(os.body, { name: 'u', userData: '' });
  assert.equal(os.ignored[0].attribute, 'isCloudInit');
  assert.deepEqual(os.headers, []);

  const duplicate = checkDeprecatedRequest('TenantAccount', '{"a":1,"a":2}', 0);
  assert.equal(duplicate.ok, false);
  assert.equal(duplicate.body.code, 'ERR_JSON_DUPLICATE_MEMBER');
  assert.equal(checkDeprecatedRequest('TenantAccount', '[1]', 0).body.code, 'ERR_DEPRECATED_NOT_OBJECT');
  rejects(() => checkDeprecatedRequest('TenantAccount', 5, 0), 'ERR_INVALID_ARGUMENT', 'body');
});

test('checkDeprecatedQuery: accepted before, refused from the date, removed parameters refused', () => {
  const before = checkDeprecatedQuery('GET /instance', '?siteId=1&infrastructureProviderId=2', OCT_10 - 1);
  assert.equal(before.ok, true);
  assert.equal(before.used[0].queryParam, 'infrastructureProviderId');
  assert.equal(new Headers(before.headers).get('sunset'), 'Sat, 10 Oct 2026 00:00:00 GMT');
  const after = checkDeprecatedQuery('GET /instance', 'infrastructureProviderId=2', OCT_10);
  assert.equal(after.ok, false);
  assert.equal(after.body.code, 'ERR_DEPRECATED_QUERY_PARAM');
  const removed = checkDeprecatedQuery('GET /site', 'isRackLevelAdministrationEnabled=true', OCT_10);
  assert.match(removed.body.message, /use 'isFlowEnabled' instead$/);
  assert.deepEqual(checkDeprecatedQuery('GET /site', 'isFlowEnabled=true', OCT_10), { ok: true, used: [], ignored: [], headers: [] });
});

test('deprecationHeaders and attestDeprecationHeaders for the V2 attest endpoints', () => {
  const v2 = new Headers(attestDeprecationHeaders('/v2/attest/gpu', SEPT_10));
  assert.equal(v2.get('deprecation'), `@${Date.UTC(2026, 0, 1) / 1000}`);
  assert.equal(v2.get('sunset'), null);
  assert.match(v2.get('link'), /<\/v4\/attest\/gpu>; rel="successor-version"$/);
  assert.match(v2.get('link'), /#attest-gen1-evidences>; rel="deprecation"/);
  assert.deepEqual(attestDeprecationHeaders('/v4/attest/gpu', SEPT_10), []);
  assert.deepEqual(attestDeprecationHeaders('/v1/attest/gpu', SEPT_10), []);
  const docs = new Headers(attestDeprecationHeaders('/v2/attest/switch', 0, { docUrl: 'https://docs.example/deprecations' }));
  assert.match(docs.get('link'), /^<https:\/\/docs\.example\/deprecations#attest-v2-switch>; rel="deprecation"/);
  assert.deepEqual(new Headers(deprecationHeaders('POST /v2/attest/switch', 0)).get('deprecation'), v2.get('deprecation'));
  assert.deepEqual(deprecationHeaders('GET /instance', 0), []);
  rejects(() => attestDeprecationHeaders('/v5/attest/gpu', 0), 'ERR_REQUEST_UNKNOWN_ENDPOINT');
});

test('deprecationRegistry lists every row; time formats', () => {
  const rows = deprecationRegistry();
  assert.equal(rows.length, 14);
  assert.equal(rows.filter((r) => r.api === 'infrastructure' && r.listing === 'active').length, 9);
  assert.equal(rows.filter((r) => r.listing === 'removed').length, 2);
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length);
  assert.equal(formatRfc3339(SEPT_10), '2026-09-10T00:00:00Z');
  assert.equal(formatHttpDate(784111777), 'Sun, 06 Nov 1994 08:49:37 GMT');
  for (const secs of [0, 951782400, SEPT_10 + 12345, 253402300799]) {
    assert.equal(formatRfc3339(secs), new Date(secs * 1000).toISOString().replace('.000Z', 'Z'));
    assert.equal(formatHttpDate(secs), new Date(secs * 1000).toUTCString());
  }
  rejects(() => formatRfc3339(253402300800), 'ERR_INVALID_ARGUMENT', 'secs');
});
