export * from './request';
export {
	credentialOf,
	CREDENTIAL_TYPE,
	MAX_PAGE_SIZE,
	normalizeBaseUrl,
	requestsPerMinuteOf,
	showPath,
	takeShare,
	unsafePathReason,
} from './connection';
export type { ApiContext, ApiRequest, ApiVersion } from './connection';
export { runStatsOf } from './wire';
export type { RunStats } from './wire';
export { cut, isDeadlineError, RETRY } from './errors';
export * from './pagination';
