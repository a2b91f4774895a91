export { API_PREFIX, MAX_PAGE_SIZE } from './spec';
export { apiRequest, apiRequestFull, CREDENTIAL_TYPE, normalizeBaseUrl } from './request';
export type { ApiContext, ApiRequest, ApiResponse, ApiVersion } from './request';
export type { ExpectedAnswer } from './errors';
export { readList, readOnePage, readPages } from './pagination';
export type { ListPage, ListSpec, PageRequest } from './pagination';
