import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isPlainObject, simplify } from '../shared';

export const TRIGGER_SIMPLIFY_VERSION = 2;

export type Read = { payload: unknown; error?: IDataObject };
type Delivery = Read & { event: string; timestamp: unknown; webhookId: string };

export function parseDelivery(rawBody: Buffer | string | undefined) {
	const text = Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : String(rawBody ?? '');
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
export function output(context: IWebhookFunctions, delivery: Delivery): IDataObject {
	const { event, timestamp, payload, error, webhookId } = delivery;
	const simplified =
		context.getNode().typeVersion >= TRIGGER_SIMPLIFY_VERSION &&
		context.getNodeParameter('simplify', true) !== false;
	const lead = event.startsWith('lead.') && isPlainObject(payload) && simplified;
	const shown = lead ? simplify('lead', payload) : payload;
	const extra = error ? { fullRecordError: error } : {};
	if ((context.getNodeParameter('options', {}) as IDataObject).payloadOnly === true)
		return isPlainObject(shown)
			? { ...shown, ...extra }
			: { payload: shown as IDataObject, ...extra };
	const json = simplified
		? { event, timestamp, payload: shown }
		: { event, timestamp, payload, webhookId };
	return { ...json, ...extra } as IDataObject;
}
