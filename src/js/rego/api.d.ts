// Types of the Rego API: the values rego/api.js exports, and the types they use.
export { appraiseRego } from './edgeattest.js';
export type {
  PolicyDecision, DeviceDecision, RuleOutcome, RuleStatus, RegoAppraisalInput, RegoInputV1,
  RegoReason,
} from './edgeattest.js';
export { EdgeAttestError } from './error.js';
export type { EdgeAttestErrorCode, VerdictErrorCode } from './error.js';
