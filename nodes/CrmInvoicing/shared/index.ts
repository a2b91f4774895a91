// The shared layer's one door: import from here, never from a file inside shared/. Only transport/ does HTTP.
export * from './transport';
export {
	DOCUMENTED_EVENTS,
	INACTIVE_SUBSCRIPTION_STATUS,
	LINE_ITEM_BOUNDS,
	RESPONSE_ONLY_LINE_ITEM_KEYS,
	SECRET_KEY_PATTERN,
	UNIX_TIME_RULE,
	USER_SEARCH_QUERY_PARAMETER,
	userMatchesSearch,
} from './apiChoices';
export * from './events';
export * from './simplify';
export { listWebhookSubscriptions } from './webhookList';
export * from './deadline';
export * from './hash';
export * from './nodeIdentity';
export * from './boundedMap';
export {
	commaList,
	cut,
	describeDuration,
	describeValue,
	filledTexts,
	type HeaderMap,
	headerValues,
	httpStatusOf,
	isPlainObject,
	isPresent,
	isText,
	nothing,
} from './values';
