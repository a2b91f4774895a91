export { apiRequest, apiRequestFull } from './request';
export {
	API_PREFIX,
	credentialOf,
	CREDENTIAL_TYPE,
	MAX_PAGE_SIZE,
	normalizeBaseUrl,
	requestsPerMinuteOf,
	showPath,
	takeShare,
	unsafePathReason,
} from './connection';
export type { ApiContext, ApiRequest, ApiResponse, ApiVersion } from './connection';
export { runStatsOf } from './wire';
export type { RunStats } from './wire';
export { cut, isDeadlineError, RETRY } from './errors';
export type { ExpectedAnswer } from './errors';
export { readList, readOnePage, readPages } from './pagination';
export type { ListPage, ListSpec, PageRequest } from './pagination';
