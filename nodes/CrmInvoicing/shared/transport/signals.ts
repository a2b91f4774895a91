import type { ApiContext } from './connection';
import { isStream } from './body';

/**
 * The abort signals of one attempt. n8n replaces a request's `abortSignal` by the execution's cancel signal in
 * contexts that have one (a node's execution), so the attempt's deadline would be dropped there: `withSignal` hands
 * n8n a context whose cancel signal aborts on either, and `raceSignal` races the helper's promise against the deadline
 * whatever the helper does with it.
 */

type WithCancel = ApiContext & { getExecutionCancelSignal?: () => AbortSignal | undefined };

/** A context whose cancel signal aborts on the user's cancellation or on `signal`; else the context itself (its prototype). */
export function withSignal(
	context: ApiContext,
	signal: AbortSignal,
	cancel: AbortSignal | undefined,
): ApiContext {
	const own = context as WithCancel;
	if (typeof own.getExecutionCancelSignal !== 'function') return context;
	const combined = cancel ? AbortSignal.any([cancel, signal]) : signal;
	const derived = Object.create(context) as WithCancel;
	derived.getExecutionCancelSignal = () => combined;
	return derived;
}

/** The execution's cancel signal (the user stopped the execution), in contexts that have one. */
export function cancelSignalOf(context: ApiContext): AbortSignal | undefined {
	const own = context as WithCancel;
	return typeof own.getExecutionCancelSignal === 'function'
		? own.getExecutionCancelSignal()
		: undefined;
}

/** Resolves like `promise`, or rejects when `signal` aborts first (whatever the request helper does with it). */
export async function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) throw signal.reason;
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(signal.reason as Error);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, aborted]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
		// The helper may still settle after the race was decided: a late answer's body is closed, not left open.
		promise.then(
			(late) => {
				if (signal.aborted) {
					const body = (late as { body?: unknown } | undefined)?.body;
					if (isStream(body)) body.destroy();
				}
			},
			() => undefined,
		);
	}
}
