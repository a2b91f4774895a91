/** Bounds of the transport's waiting and retrying, in one place. */
export const RETRY = {
	/** Attempts after a 429 before giving up (each waits for Retry-After or RateLimit-Reset). */
	maxRateLimitRetries: 5,
	/** Longest total time one request may spend waiting for the rate limit, in ms. */
	maxTotalRateLimitWaitMs: 180_000,
	/** Wait when a 429 carries neither Retry-After nor RateLimit-Reset, in ms. */
	defaultRateLimitWaitMs: 5_000,
	/** Retries of a GET or DELETE after 502/503/504 or a dropped connection. */
	maxTransientRetries: 3,
	/** First back-off of those retries, doubled each time, in ms. */
	transientBackoffMs: 500,
	/** Time after which one request is abandoned, in ms. */
	requestTimeoutMs: 60_000,
} as const;

/** The API's published limit; used when a response carries no RateLimit-* headers. */
export const DOCUMENTED_RATE_LIMIT = { requests: 60, windowSeconds: 60 } as const;
