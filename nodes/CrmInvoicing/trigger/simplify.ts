import type { IDataObject, INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import { isPlainObject, simplify } from '../shared';

/**
 * Simplify for the trigger (version 2, on by default; issue 18). Simplified, a delivery is output as its `event`, its
 * `timestamp` and its payload, where a lead event's lead (the payload of `lead.*` events) keeps only the lead's
 * simplified fields (SIMPLIFIED_FIELDS.lead: id, number, name, email, mobile, title, value, stageId, archived,
 * createdAt; a delivery's lead has no `number`, Output Full Record's has). The delivery id (`webhookId`) is left out.
 * Payloads of other events keep all their fields: the spec does not show their shapes. With Payload Only, the
 * simplified lead alone. `fullRecordError` is kept. Off, and in version-1 nodes, the output is exactly as before.
 */
export const TRIGGER_SIMPLIFY_VERSION = 2;

export const triggerSimplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	displayOptions: { show: { '@version': [{ _cnd: { gte: TRIGGER_SIMPLIFY_VERSION } }] } },
};


/** The item a delivery is output as: `json` as built for 0.2, simplified when the node asks for it. */
export function deliveryOutput(
	context: IWebhookFunctions,
	json: IDataObject,
	event: string,
	payloadOnly: boolean,
): IDataObject {
	if (context.getNode().typeVersion < TRIGGER_SIMPLIFY_VERSION) return json;
	if (context.getNodeParameter('simplify', true) === false) return json;
	const isLead = event.startsWith('lead.');
	const extra: IDataObject = json.fullRecordError === undefined ? {} : { fullRecordError: json.fullRecordError };
	if (payloadOnly) {
		// Payload Only put a payload that is not an object under `payload`: nothing to reduce.
		if (!isLead || (json.payload !== undefined && !isPlainObject(json.payload))) return json;
		return { ...simplify('lead', json), ...extra };
	}
	const payload = isLead && isPlainObject(json.payload) ? simplify('lead', json.payload) : json.payload;
	return { event: json.event, timestamp: json.timestamp, payload, ...extra };
}
