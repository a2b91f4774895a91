export * from './request';
export {
	credentialOf,
	CREDENTIAL_TYPE,
	MAX_PAGE_SIZE,
	showPath,
	takeShare,
	unsafePathReason,
} from './connection';
export type { ApiContext, ApiVersion } from './connection';
export { runStatsOf, type RunStats } from './wire';
export { isDeadlineError } from './errors';
export * from './pagination';
