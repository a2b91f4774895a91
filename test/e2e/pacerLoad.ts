/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Many executions at once on one API key, in a real n8n (pacer.e2e.test.ts and bench/pacer.ts): `executions` POSTs at
 * once to a "Webhook → CRM Invoicing Lead → Get" workflow; the sandbox's request log tells what reached the CRM, when.
 */
import { randomUUID } from 'node:crypto';

import type { N8nClient } from '../../scripts/lib/n8n';
import type { RequestLogEntry } from '../sandbox/types';
import { answerItems, answeringWebhook, chain, crmNode, getLead, waitForWebhook } from './lib';

export interface LoadOptions {
	client: N8nClient;
	webhookUrl: string;
	credential: { id: string; name: string };
	/** The sandbox's control endpoints (under /__sandbox). */
	control: <T = any>(method: string, route: string, body?: unknown) => Promise<T>;
	executions: number;
	leadId: string;
}

export interface LoadResult {
	/** From the first POST sent to the last answer received, in ms. */
	wallMs: number;
	startedAt: number;
	statuses: number[];
	/** Calls whose answer was not exactly the lead asked for (an error item, an error page, or nothing). */
	failed: number;
	/** The requests for the lead that reached the CRM, in order of arrival. */
	requests: RequestLogEntry[];
	/** Of those, answered 429. */
	refused: number;
}

export async function concurrentLeadGets(options: LoadOptions): Promise<LoadResult> {
	const path = `pacer-${randomUUID()}`;
	const workflow = {
		name: `pacer load ${path}`,
		settings: {},
		nodes: [
			answeringWebhook(path),
			crmNode({
				name: 'CRM Invoicing',
				parameters: getLead('={{ $json.body.id }}'),
				credential: options.credential,
				x: 300,
			}),
		],
		connections: chain('Webhook', 'CRM Invoicing'),
	};
	const created = await options.client.createWorkflow(workflow);
	try {
		await options.client.activate(created.id);
		const url = `${options.webhookUrl}/webhook/${path}`;
		await waitForWebhook(url);
		await options.control('DELETE', '/requests');
		const started = Date.now();
		const answers = await Promise.all(
			Array.from({ length: options.executions }, async () => {
				try {
					const response = await fetch(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ id: options.leadId }),
						signal: AbortSignal.timeout(300_000),
					});
					const items = answerItems(await response.text());
					return {
						status: response.status,
						ok: response.ok && items.length === 1 && items[0]?.id === options.leadId,
					};
				} catch {
					return { status: 0, ok: false };
				}
			}),
		);
		const wallMs = Date.now() - started;
		const requests = (await options.control<RequestLogEntry[]>('GET', '/requests')).filter(
			(request) => request.path === `/api/v1/leads/${options.leadId}`,
		);
		return {
			wallMs,
			startedAt: started,
			statuses: answers.map((answer) => answer.status),
			failed: answers.filter((answer) => !answer.ok).length,
			requests,
			refused: requests.filter((request) => request.status === 429).length,
		};
	} finally {
		await options.client.deactivate(created.id).catch(() => undefined);
		await options.client.deleteWorkflow(created.id).catch(() => undefined);
	}
}

/**
 * The requests the CRM received in each of its windows (the sandbox's fixed window: it starts with the first request
 * after the previous one ended), 429s included: a burst over the limit shows as a window with more than the limit.
 */
export function requestsPerWindow(requests: RequestLogEntry[], windowMs: number): number[] {
	const counts: number[] = [];
	let start = -Infinity;
	for (const request of requests) {
		const at = Date.parse(request.at);
		if (at >= start + windowMs) {
			start = at;
			counts.push(0);
		}
		counts[counts.length - 1]++;
	}
	return counts;
}
