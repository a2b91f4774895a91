import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	apiRequest,
	deadlineIn,
	eventNamesOf,
	httpStatusOf,
	isPlainObject,
	simplify,
} from '../shared';
import { log, type TriggerContext } from './store';

export const TRIGGER_SIMPLIFY_VERSION = 2;

type Delivery = {
	event: string;
	timestamp: unknown;
	payload: unknown;
	error?: IDataObject;
	webhookId: string;
};

export const optionsOf = (context: TriggerContext) =>
	context.getNodeParameter('options', {}) as IDataObject;

export function eventsOf(context: TriggerContext) {
	return eventNamesOf(
		context.getNodeParameter('events', []),
		optionsOf(context).customEvents,
	).sort();
}

export function parseDelivery(rawBody: Buffer | string | undefined) {
	// A Buffer's text is its UTF-8.
	const text = String(rawBody ?? '');
	if (text.trim() === '') return 'empty body';
	try {
		const body: unknown = JSON.parse(text);
		if (!isPlainObject(body)) return 'body is not a JSON object';
		const { event, timestamp, payload } = body;
		if (typeof event !== 'string' || event.trim() === '') return 'body has no event name';
		return { event, timestamp: timestamp ?? null, payload: payload ?? null };
	} catch {
		return 'body is not JSON';
	}
}

/** Simplify reduces a `lead.*` lead (the spec shows no other payload) and drops `webhookId`, which workflows read. */
export function output(
	context: IWebhookFunctions,
	{ event, timestamp, payload, error, webhookId }: Delivery,
) {
	const simplified =
		context.getNode().typeVersion >= TRIGGER_SIMPLIFY_VERSION &&
		context.getNodeParameter('simplify', true) !== false;
	const shown =
		simplified && event.startsWith('lead.') && isPlainObject(payload)
			? simplify('lead', payload)
			: payload;
	const extra = error ? { fullRecordError: error } : {};
	if (optionsOf(context).payloadOnly === true)
		return isPlainObject(shown)
			? { ...shown, ...extra }
			: { payload: shown as IDataObject, ...extra };
	const json = simplified
		? { event, timestamp, payload: shown }
		: { event, timestamp, payload, webhookId };
	return { ...json, ...extra } as IDataObject;
}

// docs/trigger.md#output-full-record
export const FULL_RECORD_TIME_LIMIT_MS = 8_000;

/** The lead of a lead event, read from the CRM. */
export async function fullRecordOf(context: IWebhookFunctions, payload: unknown) {
	const id = isPlainObject(payload) ? payload.id : undefined;
	if (typeof id !== 'string' || id.trim() === '')
		return {
			payload,
			error: { message: 'The event payload has no lead id, so the lead could not be read' },
		};
	try {
		// An answer that is not a record (no id) fails with its status: output as received, with fullRecordError.
		const lead = await apiRequest.call(context, {
			method: 'GET',
			path: `/leads/${encodeURIComponent(id)}`,
			expect: 'record',
			deadline: deadlineIn(FULL_RECORD_TIME_LIMIT_MS),
		});
		return { payload: lead };
	} catch (error) {
		const status = httpStatusOf(error);
		const message = (error as Error).message;
		const reason = `reading lead ${id} failed: ${message}`;
		const retry = status === undefined || status === 429 || status >= 500;
		log(
			context,
			`Output Full Record: ${reason}; ${retry ? 'the delivery is answered 503 so that the CRM sends it again' : 'the event is output as received, with fullRecordError'}`,
		);
		if (retry) return { retry: reason };
		return { payload, error: { message, httpCode: String(status) } };
	}
}
