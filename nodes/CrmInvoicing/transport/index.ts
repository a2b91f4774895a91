export { API_PREFIX, MAX_PAGE_SIZE } from './spec';
export { apiRequest, apiRequestFull, CREDENTIAL_TYPE, normalizeBaseUrl } from './request';
export type { ApiContext, ApiRequest, ApiVersion } from './request';
export { paginateV1, paginateV2 } from './pagination';
export type { PageRequest } from './pagination';
