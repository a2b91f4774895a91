/**
 * The package's shared layer, and its one door: the action node, the webhook trigger and the polling trigger (and the
 * credential) import what they share from here, never from a file inside `shared/`.
 *
 * - `transport/`: the only code that does HTTP (the one request function, the key's rate limiter, the one list reader);
 * - `values.ts`, `boundedMap.ts`: the small readers of answers and headers, and the size-capped map everything uses;
 * - `deadline.ts`, `hash.ts`: the one deadline type and the one hash helper;
 * - `apiChoices.ts`: the values of the choices made where the API's specification is silent (the choices themselves
 *   are listed in docs/spec-choices.md);
 * - `simplify.ts`, `events.ts`, `webhookList.ts`: the simplified record per resource, event names, the webhook list;
 * - `nodeIdentity.ts`: which node this is, and the one key per node for this process's memories.
 */
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
export { EVENT_OPTIONS, eventNamesOf } from './events';
export { simplify, simplifyPropertyFrom } from './simplify';
export type { SimplifiedResource } from './simplify';
export { listWebhookSubscriptions } from './webhookList';
export { deadlineIn, msLeft } from './deadline';
export type { Deadline } from './deadline';
export { sha256 } from './hash';
export { isBusy, nodeIdentity, nodeKey, oneAtATime } from './nodeIdentity';
export { BoundedMap, Turns } from './boundedMap';
export { contentTypeOf, headerValue, headerValues, httpStatusOf, isPlainObject } from './values';
export type { HeaderMap } from './values';
export type { NodeIdentity, NodeIdentityContext } from './nodeIdentity';
