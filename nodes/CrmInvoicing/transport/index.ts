export {
	API_PREFIX,
	DATE_ONLY_IS_SENT_AS_UTC_MIDNIGHT,
	DELETE_NOT_FOUND_ON_RETRY_IS_DELETED,
	DOCUMENTED_EVENTS,
	KNOWN_EVENTS,
	LEAD_PATCH_FIELDS_CHECKED_AFTERWARDS,
	LEAD_UPDATE_READS_BACK_WHEN_RESPONSE_IS_NOT_A_LEAD,
	MAX_PAGE_SIZE,
	RESPONSE_ONLY_LINE_ITEM_KEYS,
	USER_SEARCH_QUERY_PARAMETER,
	userMatchesSearch,
} from './apiChoices';
export { apiRequest, apiRequestFull, CREDENTIAL_TYPE, normalizeBaseUrl } from './request';
export type { ApiContext, ApiRequest, ApiResponse, ApiVersion } from './request';
export type { ExpectedAnswer } from './errors';
export { paginateV1, paginateV2 } from './pagination';
export type { PageRequest } from './pagination';
