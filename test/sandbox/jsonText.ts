/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The sandbox's JSON writer (answers, webhook deliveries): JSON.stringify's text, also for a value nested deeper than
 * JSON.stringify can write (a lead whose customFields nest 10,000 levels, as the spec's "any other key: any" allows).
 */
import type { ServerResponse } from 'node:http';

/** A piece of text jsonText writes as it is (its own tokens on the stack, never a value of the store). */
class Raw {
	constructor(readonly text: string) {}
}

/**
 * JSON text of a value: JSON.stringify's, or, for a value nested deeper than it can write (it throws RangeError),
 * the same text written without recursion.
 */
export function jsonText(value: unknown): string {
	try {
		return JSON.stringify(value);
	} catch (error) {
		if (!(error instanceof RangeError)) throw error;
	}
	const out: string[] = [];
	const stack: unknown[] = [value];
	while (stack.length > 0) {
		const next = stack.pop();
		if (next instanceof Raw) out.push(next.text);
		else if (Array.isArray(next)) {
			out.push('[');
			stack.push(new Raw(']'));
			for (let index = next.length - 1; index >= 0; index--) {
				stack.push(next[index] === undefined ? null : next[index]);
				if (index > 0) stack.push(new Raw(','));
			}
		} else if (next !== null && typeof next === 'object') {
			const entries = Object.entries(next).filter(
				([, child]) => child !== undefined && typeof child !== 'function',
			);
			out.push('{');
			stack.push(new Raw('}'));
			for (let index = entries.length - 1; index >= 0; index--) {
				stack.push(entries[index][1]);
				stack.push(new Raw(`${JSON.stringify(entries[index][0])}:`));
				if (index > 0) stack.push(new Raw(','));
			}
		} else out.push(JSON.stringify(next) ?? 'null');
	}
	return out.join('');
}

/** An answer of the sandbox: JSON `body`, or `text` as it is. */
export interface Answer {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	text?: string;
}

/** Writes an answer; a Content-Type among its headers (a fault's own) is kept, else the body's. */
export function writeAnswer(res: ServerResponse, answer: Answer): void {
	const headers: Record<string, string> = { ...answer.headers };
	let text = answer.text;
	if (text !== undefined) headers['content-type'] ??= 'text/plain; charset=utf-8';
	else if (answer.status !== 204 && answer.body !== undefined) {
		text = jsonText(answer.body);
		headers['content-type'] ??= 'application/json; charset=utf-8';
	}
	if (text !== undefined) headers['content-length'] = String(Buffer.byteLength(text));
	res.writeHead(answer.status, headers);
	res.end(text);
}
