import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { apiRequest, deadlineIn, httpStatusOf, isPlainObject } from '../shared';

/**
 * Output Full Record: a `lead.*` event's lead, read with GET /leads/{payload.id} (as Lead → Get outputs it), instead
 * of its payload, within FULL_RECORD_TIME_LIMIT_MS of the CRM's 20 s. Nothing is lost: a failure that a retry may mend
 * answers the delivery 503, any other outputs the payload with `fullRecordError` (docs/trigger.md#output-full-record).
 */

export const FULL_RECORD_TIME_LIMIT_MS = 8_000;

export type FullRecord =
	| { kind: 'asReceived'; payload: unknown }
	| { kind: 'lead'; payload: IDataObject }
	/** The read failed for good: the payload as received and why. */
	| { kind: 'failed'; payload: unknown; error: IDataObject }
	/** The read failed in a way that may pass: ask the CRM to deliver again. */
	| { kind: 'retry'; reason: string };

export function wantsFullRecord(options: IDataObject, event: string): boolean {
	return options.fullRecord === true && event.startsWith('lead.');
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Tells n8n's log (never the key, the secret or the body) that a read failed and what the delivery got instead. */
function logFailure(context: IWebhookFunctions, outcome: string, reason: string): void {
	const workflow = context.getWorkflow();
	const node = context.getNode();
	context.logger.warn(
		`CRM Invoicing Trigger (Output Full Record): ${reason}; ${outcome} [workflow ${String(workflow.id ?? '')}, node "${node.name}"]`,
		{ workflowId: workflow.id, nodeName: node.name, reason },
	);
}

/** The payload to output for this delivery, reading the full lead when the option asks for it. Never throws. */
export async function fullRecordOf(
	context: IWebhookFunctions,
	options: IDataObject,
	event: string,
	payload: unknown,
): Promise<FullRecord> {
	if (!wantsFullRecord(options, event)) return { kind: 'asReceived', payload };
	const id = isPlainObject(payload) ? payload.id : undefined;
	if (typeof id !== 'string' || id.trim() === '') {
		return {
			kind: 'failed',
			payload,
			error: { message: 'The event payload has no lead id, so the lead could not be read' },
		};
	}
	try {
		const lead = await apiRequest.call(context, {
			method: 'GET',
			path: `/leads/${encodeURIComponent(id)}`,
			deadline: deadlineIn(FULL_RECORD_TIME_LIMIT_MS),
		});
		if (!isPlainObject(lead) || typeof lead.id !== 'string') {
			return {
				kind: 'failed',
				payload,
				error: { message: `GET /leads/${id} did not answer with a lead` },
			};
		}
		return { kind: 'lead', payload: lead };
	} catch (error) {
		const status = httpStatusOf(error);
		const reason = `reading lead ${id} failed: ${messageOf(error)}`;
		if (status === undefined || status === 429 || status >= 500) {
			logFailure(context, 'the delivery is answered 503 so that the CRM sends it again', reason);
			return { kind: 'retry', reason };
		}
		logFailure(context, 'the event is output as received, with fullRecordError', reason);
		return {
			kind: 'failed',
			payload,
			error: { message: messageOf(error), httpCode: String(status) },
		};
	}
}
