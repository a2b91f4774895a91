// The README's "Limits", each with its reason.

export const RETRY = {
	maxRateLimitRetries: 20, // after a 429 (not processed, so safe); processes sharing a key met 5+ in a row
	maxTotalRateLimitWaitMs: 180_000,
	maxWaitMs: 60_000, // one Retry-After or RateLimit-Reset; a 429 asking more fails at once, not remembered
	maxPacingWaitMs: 180_000, // a request's wait for its turn under its key's rate limit
	defaultRateLimitWaitMs: 5_000, // when a 429 says nothing usable; doubled with each 429 of the request
	maxTransientRetries: 3, // of a GET or DELETE after 502/503/504 or a dropped connection
	transientBackoffMs: 500, // the first back-off, doubled each time
	requestTimeoutMs: 60_000, // one attempt, the whole body read included (a trickle cannot outlast it)
	maxSameOriginRedirects: 3, // only inside the API, for GET only (request.ts)
	firstAnswerPatienceMs: 2_000, // the pacer's wait for a window's first answer, then the documented rate
	turnGraceMs: 1_000, // a queued request with no deadline of its own is refused this long after its cap
	resetMarginMs: 50, // added to a wait for a window's reset, so the next request lands in the new window
} as const;

/** Past it the request fails; an error answer is cut. */
export const READ = {
	maxAnswerBytes: 16 * 1024 * 1024,
	maxErrorBodyBytes: 64 * 1024,
	maxErrorSnippetChars: 300,
} as const;

/** Every page but the last holds a record, so pages are bounded too. */
export const LIST = { maxRecords: 100_000, maxBytes: 128 * 1024 * 1024 } as const;

/** Used when a response carries no RateLimit-* headers. */
export const DOCUMENTED_RATE_LIMIT = { requests: 60, windowSeconds: 60 } as const;

/** spec §8; Return All asks for it: the fewest requests. */
export const MAX_PAGE_SIZE = 100;
