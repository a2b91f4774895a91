export * from './request';
export {
	credentialOf,
	CREDENTIAL_TYPE,
	runStatsOf,
	showPath,
	takeShare,
	unsafePathReason,
	type ApiContext,
	type ApiVersion,
	type RunStats,
} from './connection';
export { isDeadlineError } from './network';
export * from './pagination';
