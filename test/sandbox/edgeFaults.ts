/**
 * The fault switches of issue 23 (the transport's edges) and issue 40 (`cycle`), described in README.md: `echoKey`,
 * `location`, `forMs`, `skewedClock`, `cycle`.
 */
import { errorBody, validationError } from './api';
import type { Fault } from './types';

/** Reads the switches above from a fault's JSON; throws a validation error for a bad one. */
export function parseEdgeFault(raw: Record<string, unknown>) {
	if (
		raw.echoKey !== undefined &&
		raw.echoKey !== true &&
		raw.echoKey !== false &&
		raw.echoKey !== 'escaped'
	) {
		throw validationError('echoKey must be true or "escaped"');
	}
	if (raw.cycle !== undefined && typeof raw.cycle !== 'boolean')
		throw validationError('cycle must be a boolean');
	if (raw.location !== undefined && (typeof raw.location !== 'string' || raw.location === ''))
		throw validationError('location must be a path or a URL');
	if (
		raw.forMs !== undefined &&
		(typeof raw.forMs !== 'number' ||
			!Number.isInteger(raw.forMs) ||
			raw.forMs < 1 ||
			raw.forMs > 600_000)
	) {
		throw validationError('forMs must be an integer of 1 to 600000 ms');
	}
	let skewedClock: Fault['skewedClock'];
	if (raw.skewedClock !== undefined) {
		const value = raw.skewedClock as { skewMs?: unknown; sendDate?: unknown };
		if (
			!value ||
			typeof value !== 'object' ||
			typeof value.skewMs !== 'number' ||
			!Number.isFinite(value.skewMs) ||
			Math.abs(value.skewMs) > 86_400_000
		) {
			throw validationError('skewedClock must be { skewMs, sendDate? } with skewMs within a day');
		}
		if (value.sendDate !== undefined && typeof value.sendDate !== 'boolean')
			throw validationError('skewedClock.sendDate must be a boolean');
		skewedClock = { skewMs: value.skewMs, sendDate: value.sendDate as boolean | undefined };
	}
	return {
		echoKey: raw.echoKey === 'escaped' ? ('escaped' as const) : raw.echoKey === true,
		location: raw.location as string | undefined,
		forMs: raw.forMs as number | undefined,
		skewedClock,
		cycle: raw.cycle === true,
	};
}

/** The `served`-th page (from 1) of a `cycle` fault: lead A on odd pages, lead B on even ones, a new cursor each time. */
export function cyclePage(served: number) {
	const letter = served % 2 === 1 ? 'a' : 'b';
	const lead = {
		id: `lead_cycle_${letter}`,
		number: `L-CYCLE-${letter.toUpperCase()}`,
		name: `Cycle ${letter.toUpperCase()}`,
		archived: false,
		createdAt: '2026-01-01T00:00:00.000Z',
	};
	return { items: [lead], hasMore: true, nextCursor: `cycle_${served}` };
}

/** A key as a JSON encoder that escapes `/`, `+` and `=` writes it inside a string. */
export function escapedKey(key: string): string {
	return JSON.stringify(key)
		.slice(1, -1)
		.replace(/\//g, '\\/')
		.replace(/\+/g, '\\u002b')
		.replace(/=/g, '\\u003d');
}

/**
 * The body text of an `echoKey` fault: JSON written by hand, so the escapes stay as they are. A 2xx to the lead list
 * is a page holding one lead without an id whose name echoes the key (which the polling trigger names in a warning).
 */
export function echoBody(status: number, key: string, escaped: boolean, path = ''): string {
	const spelled = escaped ? escapedKey(key) : JSON.stringify(key).slice(1, -1);
	if (status >= 200 && status < 300 && /\/leads\/?$/.test(path)) {
		return `{"items":[{"name":"Key ${spelled}","archived":false,"createdAt":"2026-01-01T00:00:00.000Z"}],"hasMore":false,"nextCursor":null}`;
	}
	if (status >= 200 && status < 300) {
		return `{"id":"lead_echo","number":"L-ECHO","name":"Echo","archived":false,"createdAt":"2026-01-01T00:00:00.000Z","title":"Key ${spelled}","customFields":{"apiKey":"${spelled}"}}`;
	}
	const text = JSON.stringify(
		errorBody('UNAUTHORIZED', 'The API key KEY is not valid for this workspace.'),
	);
	return text.replace('KEY', spelled);
}

/** The headers of a `skewedClock` fault, at `now`; `endsAt`: when the fault stops answering (real time), if it does. */
export function skewedHeaders(
	fault: Pick<Fault, 'skewedClock'>,
	now: number,
	endsAt: number | undefined,
): Record<string, string> {
	if (!fault.skewedClock) return {};
	const skew = fault.skewedClock.skewMs;
	const headers: Record<string, string> = {
		'retry-after': new Date((endsAt ?? now + 1_000) + skew).toUTCString(),
	};
	if (fault.skewedClock.sendDate !== false) headers.date = new Date(now + skew).toUTCString();
	return headers;
}
