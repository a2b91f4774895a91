export * from './request';
export { credentialOf, CREDENTIAL_TYPE, showPath, takeShare, unsafePathReason } from './connection';
export { MAX_PAGE_SIZE } from './limits';
export type { ApiContext, ApiVersion } from './connection';
export { runStatsOf, type RunStats } from './runStats';
export { isDeadlineError } from './errors';
export * from './pagination';
