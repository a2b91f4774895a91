export * from './request';
export {
	credentialOf,
	CREDENTIAL_TYPE,
	showPath,
	takeShare,
	unsafePathReason,
	type ApiContext,
	type ApiVersion,
} from './connection';
export { runStatsOf, type RunStats } from './runStats';
export { isDeadlineError } from './network';
export * from './pagination';
