export {
	API_PREFIX,
	KNOWN_EVENTS,
	LEAD_UPDATE_READS_BACK_WHEN_RESPONSE_IS_NOT_A_LEAD,
	MAX_PAGE_SIZE,
	USER_SEARCH_QUERY_PARAMETER,
	userMatchesSearch,
} from './apiChoices';
export { apiRequest, apiRequestFull, CREDENTIAL_TYPE, normalizeBaseUrl } from './request';
export type { ApiContext, ApiRequest, ApiVersion } from './request';
export { paginateV1, paginateV2 } from './pagination';
export type { PageRequest } from './pagination';
