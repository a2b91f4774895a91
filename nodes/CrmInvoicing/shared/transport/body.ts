/**
 * Reading an answer within its limits: the body is read as a stream, its bytes counted as they come (after
 * decompression), and the read stops at a byte cap or at the deadline's signal. Then it is parsed (JSON when it parses,
 * else the text itself).
 */

/** Thrown by readBody when an answer passes its byte cap. */
export class AnswerTooLarge extends Error {}

/** A readable stream as n8n hands it back with `encoding: 'stream'` (an IncomingMessage). */
export interface BodyStream extends AsyncIterable<Buffer | string> {
	destroy(error?: Error): void;
}

export function isStream(value: unknown): value is BodyStream {
	return (
		!!value &&
		typeof value === 'object' &&
		typeof (value as BodyStream).destroy === 'function' &&
		typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
	);
}

/**
 * Reads a body, counting bytes as they come. Past `maxBytes`: with `cut`, keeps what was read and stops (an error
 * body); without it, fails with AnswerTooLarge. Either way the stream is destroyed, so the connection is closed and
 * nothing more is read into memory. The deadline's signal destroys the stream too (a trickling body).
 */
export async function readBody(
	body: unknown,
	maxBytes: number,
	cut: boolean,
	signal: AbortSignal,
): Promise<{ text: string; bytes: number }> {
	if (!isStream(body)) {
		// Not a stream (a helper that already buffered or parsed it): measure what is there.
		if (body === undefined || body === null) return { text: '', bytes: 0 };
		const text = Buffer.isBuffer(body)
			? body.toString('utf8')
			: typeof body === 'string'
				? body
				: JSON.stringify(body);
		const bytes = Buffer.byteLength(text);
		if (bytes > maxBytes && !cut) throw new AnswerTooLarge();
		return { text: cut ? text.slice(0, maxBytes) : text, bytes };
	}
	const stream = body;
	const onAbort = () =>
		stream.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
	if (signal.aborted) onAbort();
	else signal.addEventListener('abort', onAbort, { once: true });
	const chunks: Buffer[] = [];
	let bytes = 0;
	try {
		for await (const chunk of stream) {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			if (bytes + buffer.length > maxBytes) {
				if (!cut) {
					bytes += buffer.length;
					throw new AnswerTooLarge();
				}
				chunks.push(buffer.subarray(0, maxBytes - bytes));
				bytes = maxBytes;
				break;
			}
			chunks.push(buffer);
			bytes += buffer.length;
		}
	} finally {
		signal.removeEventListener('abort', onAbort);
		// Closes the connection when the loop stopped early (cap, error); a no-op after the end of the body.
		stream.destroy();
	}
	return { text: Buffer.concat(chunks).toString('utf8'), bytes };
}

/** A body's text parsed as JSON when it is JSON, else the text itself ('' when empty). */
export function parseBody(text: string): unknown {
	const trimmed = text.trim();
	if (trimmed === '') return '';
	try {
		return JSON.parse(trimmed) as unknown;
	} catch {
		return text;
	}
}
