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
export * from './runStats'; // runStatsOf, RunStats
export { isDeadlineError } from './network';
export * from './pagination';
