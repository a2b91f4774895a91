export { API_PREFIX, MAX_PAGE_SIZE } from './spec';
export { apiRequest, apiRequestFull } from './request';
export {
	credentialOf,
	CREDENTIAL_TYPE,
	normalizeBaseUrl,
	requestsPerMinuteOf,
	takeShare,
} from './connection';
export { showPath, unsafePathReason } from './paths';
export { runStatsOf } from './stats';
export type { RunStats } from './stats';
export type { ApiContext, ApiRequest, ApiResponse, ApiVersion } from './connection';
export { isDeadlineError } from './errors';
export type { ExpectedAnswer } from './errors';
export { readList, readOnePage, readPages } from './pagination';
export type { ListPage, ListSpec, PageRequest } from './pagination';
export { contentTypeOf, headerValue, headerValues, httpStatusOf, isPlainObject } from './values';
export type { HeaderMap } from './values';
export { BoundedMap, Turns } from './boundedMap';
export { SendLog } from './sendLog';
export { RETRY } from './limits';
