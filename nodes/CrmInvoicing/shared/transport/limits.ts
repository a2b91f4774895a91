/** Bounds of the transport's waiting, retrying, reading and following, in one place (the README's "Limits"). */
export const RETRY = {
	/**
	 * Attempts after a 429 before giving up (each waits for Retry-After or RateLimit-Reset). A 429 means the request was
	 * not processed, so a retry is always safe; what bounds a request is maxTotalRateLimitWaitMs. Several processes on
	 * one key can make one request meet more than five 429s in a row under load (seen in the queue-mode load case on
	 * n8n 2.41: one create failed after its fifth), so the count leaves room within the time bound.
	 */
	maxRateLimitRetries: 20,
	/** Longest total time one request may spend waiting for the rate limit, in ms. */
	maxTotalRateLimitWaitMs: 180_000,
	/**
	 * Longest single wait, in ms: no answer of the API (Retry-After, RateLimit-Reset) makes a request, or the shared
	 * pacer of its key, wait longer than this. A 429 that asks for more fails at once, and its wait is not remembered.
	 * Far below 2^31 ms, so no timer can overflow.
	 */
	maxWaitMs: 60_000,
	/**
	 * Longest wait of a request for its turn in the pacing of its key (the documented rate, or the announced window),
	 * in ms: reached only when many executions with one key queue up at once.
	 */
	maxPacingWaitMs: 180_000,
	/** Wait when a 429 carries neither Retry-After nor RateLimit-Reset, in ms. */
	defaultRateLimitWaitMs: 5_000,
	/** Retries of a GET or DELETE after 502/503/504 or a dropped connection. */
	maxTransientRetries: 3,
	/** First back-off of those retries, doubled each time, in ms. */
	transientBackoffMs: 500,
	/**
	 * Wall-clock deadline of one attempt, in ms: connecting, waiting for the answer and reading its whole body. Enforced
	 * by aborting the request, so a server that trickles its answer cannot hold it longer. An attempt that reaches it
	 * is not retried: the request fails with an error that names the deadline.
	 */
	requestTimeoutMs: 60_000,
} as const;

/**
 * Redirects. The transport never lets n8n follow a redirect: a redirect to another origin (scheme, host or port than
 * the Base URL's) is an error and nothing is sent there, neither the key nor a body. A redirect within the Base
 * URL's origin is followed for GET only, at most `maxSameOriginRedirects` times; other methods fail with an error.
 */
export const REDIRECTS = { maxSameOriginRedirects: 3 } as const;

/** Bounds of reading answers. */
export const READ = {
	/**
	 * Most bytes of one successful answer (one record, one page of a list), counted while the body is read (after
	 * decompression). Past it the node stops reading, closes the connection and fails with an error: an endless or
	 * huge answer never fills n8n's memory. A page of 100 records is a few hundred KB at most.
	 */
	maxAnswerBytes: 16 * 1024 * 1024,
	/**
	 * Most bytes of an error answer (4xx, 5xx, a redirect) the node reads; the rest is not read and the connection
	 * is closed. What was read is then cut to `maxErrorBodyChars` characters.
	 */
	maxErrorBodyBytes: 64 * 1024,
	/** An error body is cut to this many characters before it is parsed, searched or shown. */
	maxErrorBodyChars: 16_384,
	/** Longest text of an error body (or of the API's message) put into an error message. */
	maxErrorSnippetChars: 300,
	/** Most pages one list may take (100 records each): a bound on Return All even against a broken cursor. */
	maxPages: 100_000,
} as const;

/**
 * Bounds of one list (transport/pagination.ts, the one list reader). Return All, Custom API Request → Paginate,
 * webhook lists, the lead picker's scan, Create or Update's search and the polling trigger all read through it.
 * Past a bound the list fails with an error that says how to narrow it; it never returns part of a list as if whole.
 */
export const LIST = {
	/** Most records one list may hold. */
	maxRecords: 100_000,
	/** Most bytes of answers one list may read (the sum of its pages' bodies). */
	maxBytes: 128 * 1024 * 1024,
} as const;

/** The API's published limit; used when a response carries no RateLimit-* headers. */
export const DOCUMENTED_RATE_LIMIT = { requests: 60, windowSeconds: 60 } as const;
