import { NodeOperationError, type IHttpRequestOptions } from 'n8n-workflow';

import { describeDuration } from '../values';
import {
	API_PREFIX,
	credentialOf,
	pacerOf,
	runStatsOf,
	showPath,
	unsafePathReason,
	type ApiContext,
	type ApiRequest,
} from './connection';
import { apiError, apiErrorFromResponse, checkFirst } from './errors';
import { RETRY } from './limits';
import { redactValue } from './redact';
import { type PacerTurn, RATE_ADVICE, type RateLimitWait } from './rateLimit';

const UNSAFE_PATH_ADVICE =
	'So that every request stays under the API path of the Base URL, no ID or path may be "." or ".." ' +
	'or hold a control character (a line break) or a backslash. ' +
	"Check it in the node's parameters or the input item. Nothing was sent.";

const REDIRECT_ADVICE =
	'The node follows a redirect only for GET, only inside the API under the Base URL ' +
	`(same scheme, host and port), at most ${RETRY.maxSameOriginRedirects} times, ` +
	'so that the API key goes nowhere else. ' +
	'Check the Base URL in the "CRM Invoicing API" credential: ' +
	'use the address the API answers on without a redirect ' +
	'(for example https:// rather than http://, or without a trailing path).';

/** One request's state across its tries. Nothing is read before the path is checked. */
export async function startAttempt(context: ApiContext, request: ApiRequest) {
	const { method, itemIndex } = request;
	const path = `${API_PREFIX[request.version ?? 'v1']}${request.path}`;
	const unsafe = unsafePathReason(request.path);
	if (unsafe) {
		throw new NodeOperationError(
			context.getNode(),
			`The node refused to send ${method} ${showPath(path)}: ${unsafe}`,
			{ itemIndex, description: UNSAFE_PATH_ADVICE },
		);
	}
	const connection = await credentialOf(context);
	const options: IHttpRequestOptions = {
		method,
		url: `${connection.baseUrl}${path}`,
		json: true,
		// The body is read here, as a stream, so that its size and time are bounded while it comes.
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		qs: request.qs,
	};
	// Serialised here: n8n's config merge drops keys such as "__proto__" or "constructor" at any depth.
	if (request.body !== undefined) {
		options.body = JSON.stringify(request.body);
		options.headers = { 'content-type': 'application/json' };
	}
	return {
		context,
		request,
		summary: { method, path, itemIndex },
		connection,
		pacer: pacerOf(connection),
		options,
		deadline: request.deadline ?? Infinity,
		cancel: context.getExecutionCancelSignal?.(),
		// The pacer's; a retry keeps its place.
		turn: undefined as PacerTurn | undefined,
		rateLimitRetries: 0,
		rateLimitWaitedMs: 0,
		transientRetries: 0,
		redirects: 0,
	};
}
export type Attempt = Awaited<ReturnType<typeof startAttempt>>;

/** Only a GET or DELETE is tried again (a dropped connection, 502/503/504): others may have taken effect. */
export function backOff(attempt: Attempt) {
	const { method, once } = attempt.request;
	const idempotent = !once && (method === 'GET' || method === 'DELETE');
	const waitMs = RETRY.transientBackoffMs * 2 ** attempt.transientRetries;
	const spent = attempt.transientRetries >= RETRY.maxTransientRetries;
	// Not when the wait would outlast the request's deadline.
	if (!idempotent || spent || Date.now() + waitMs >= attempt.deadline) return undefined;
	attempt.transientRetries++;
	return waitMs;
}

/** Throws when the 429's wait is too long. */
export function waitsOut(attempt: Attempt, wait: RateLimitWait, body: unknown) {
	runStatsOf(attempt.context).rateLimited++;
	const waitedMs = attempt.rateLimitWaitedMs;
	const tooLong = wait.ms > RETRY.maxWaitMs;
	if (tooLong || waitedMs + wait.ms > RETRY.maxTotalRateLimitWaitMs) {
		const error = apiErrorFromResponse(attempt.context.getNode(), 429, body, attempt.summary);
		const asked =
			wait.source === 'default'
				? `gave no usable wait${wait.unusable ? ` (${wait.unusable})` : ''}, so the node would wait`
				: 'asked to wait';
		const most = tooLong
			? describeDuration(RETRY.maxWaitMs)
			: `${describeDuration(RETRY.maxTotalRateLimitWaitMs)} for a request and had waited ${describeDuration(waitedMs)}`;
		error.message = `The CRM API answered 429 (rate limit) and ${asked} ${describeDuration(wait.ms)} before the next request; the node waits at most ${most}, so it did not wait`;
		error.description = RATE_ADVICE;
		throw error;
	}
	attempt.rateLimitWaitedMs += wait.ms;
	attempt.rateLimitRetries++;
	const fits = Date.now() + wait.ms < attempt.deadline;
	// The retry waits for its turn, ahead of later requests.
	return !attempt.request.once && attempt.rateLimitRetries <= RETRY.maxRateLimitRetries && fits;
}

/** n8n's client follows no redirect: it would send the key, and on 307/308 the body, to any host. Whether the next
 * try goes to the Location; throws when a redirect may not be followed. */
export function followsRedirect(attempt: Attempt, status: number, location = '//') {
	if (status < 300 || status >= 400 || status === 304) return false;
	const from = attempt.options.url;
	const target = URL.canParse(location, from) ? new URL(location, from) : undefined;
	const refused = refusedRedirect(attempt, target);
	if (refused || !target) {
		const { method } = attempt.request;
		const sent = method === 'GET' ? 'was' : 'and the request body were';
		throw apiError(attempt.context.getNode(), attempt.summary, {
			// Redacted again: URL parsing drops tabs and line breaks and lower-cases the host, which may rejoin the key.
			message: redactValue(
				`The CRM API answered ${status} with a redirect to ${refused}. The node did not follow it: the API key ${sent} not sent there`,
				attempt.connection.secrets,
			),
			description: REDIRECT_ADVICE + checkFirst(method),
			status,
		});
	}
	attempt.redirects++;
	attempt.options.url = target.href;
	delete attempt.options.qs; // the Location holds the target's query
	return true;
}

/** Followed only inside the API, for GET only, at most RETRY.maxSameOriginRedirects times. */
function refusedRedirect(attempt: Attempt, target?: URL) {
	if (!target) return 'no address (its Location header is missing or unreadable)';
	const base = new URL(attempt.connection.baseUrl);
	if (target.origin !== base.origin || target.origin === 'null')
		return `${target.host} (${target.protocol}//${target.host}), another origin than the Base URL's (${base.origin})`;
	const to = showPath(`${target.pathname}${target.search}`);
	const basePath = base.pathname.replace(/\/+$/, '');
	const roots = Object.values(API_PREFIX).map((api) => basePath + api);
	const root = roots.find((one) => `${target.pathname}/`.startsWith(`${one}/`));
	// URL parsing has resolved "." and ".." (also %2e); what is left must stay safe for a server that decodes again.
	if (!root || target.username || target.password || unsafePathReason(target.pathname))
		return `${to}, outside the API (${roots.join(' or ')})`;
	const { method } = attempt.request;
	if (method !== 'GET')
		return `${to} for ${method} ${attempt.summary.path}, and the node follows redirects only for GET`;
	const most = RETRY.maxSameOriginRedirects;
	if (attempt.redirects >= most) return `${to}, after ${most} redirects, the most the node follows`;
	return undefined;
}
