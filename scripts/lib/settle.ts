/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Waiting for the state a test checks, instead of assuming that n8n's answers mean it (n8n 2.41 answers first and
 * works afterwards): a webhook registered, the stored workflows activated again after a restart.
 */
import { readFileSync, statSync } from 'node:fs';

import type { N8nClient } from './n8n';

const CRM_TRIGGER_TYPE = 'n8n-nodes-crm-invoicing.crmInvoicingTrigger';

async function pause(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether n8n serves a production webhook at `url` now: n8n answers OPTIONS with 204 once it is registered. */
export async function webhookRegistered(url: string): Promise<boolean> {
	try {
		const response = await fetch(url, { method: 'OPTIONS', signal: AbortSignal.timeout(5_000) });
		await response.arrayBuffer();
		return response.status === 204;
	} catch {
		return false;
	}
}

/** Waits until n8n serves the production webhook at `url` (see webhookRegistered). */
export async function waitForWebhook(url: string, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await webhookRegistered(url))) {
		if (Date.now() > deadline)
			throw new Error(
				`Timed out after ${timeoutMs} ms waiting for n8n to register the webhook ${url}`,
			);
		await pause(200);
	}
}

/**
 * The production webhook paths of a workflow's nodes that this project uses: n8n's Webhook node (its `path`) and the
 * CRM Invoicing Trigger (`<webhookId>/webhook`).
 */
export function webhookPaths(workflow: { nodes?: Array<Record<string, any>> }): string[] {
	const paths: string[] = [];
	for (const node of workflow.nodes ?? []) {
		if (node.disabled) continue;
		if (
			node.type === 'n8n-nodes-base.webhook' &&
			typeof node.parameters?.path === 'string' &&
			!node.parameters.path.includes('{{')
		) {
			paths.push(node.parameters.path.replace(/^\/+/, ''));
		} else if (node.type === CRM_TRIGGER_TYPE && node.webhookId) {
			paths.push(`${node.webhookId}/webhook`);
		}
	}
	return paths;
}

/**
 * After n8n (re)started: waits until every stored active workflow is served again. n8n reports ready before that.
 * - With the publication service (2.41): each workflow's publication settled (not `in_progress`; a `failed` one is
 *   settled too) and its webhooks answer OPTIONS with 204. n8n then runs no trigger hooks for webhooks it already has.
 * - Without it (1.x, 2.38, 2.41 with N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false): n8n activates each stored workflow
 *   at start-up, running the triggers' checkExists/create; its log names each workflow once done
 *   ("Activated workflow … (ID: x)", or "Issue on initial workflow activation try of … (ID: x)"), read from
 *   `logFromByte` on.
 */
export async function waitForStoredWorkflows(
	client: N8nClient,
	options: {
		publicationService: boolean;
		logFile: string;
		logFromByte: number;
		timeoutMs?: number;
	},
): Promise<void> {
	const deadline = Date.now() + (options.timeoutMs ?? 120_000);
	const { data: workflows } = await client.api<{
		data: Array<{ id: string; nodes?: Array<Record<string, any>> }>;
	}>('GET', '/workflows?active=true&limit=250');
	if (workflows.length === 0) return;
	if (options.publicationService) {
		for (const workflow of workflows) {
			await client
				.waitForPublication(workflow.id, 'published', Math.max(1_000, deadline - Date.now()))
				.catch((error: Error) => {
					// A publication that failed is settled: the test that made it looks at the failure itself.
					if (!/could not activate/.test(error.message)) throw error;
				});
			for (const path of webhookPaths(workflow))
				await waitForWebhook(
					`${client.url}/webhook/${path}`,
					Math.max(1_000, deadline - Date.now()),
				);
		}
		return;
	}
	const pending = new Set(workflows.map((workflow) => workflow.id));
	while (pending.size > 0) {
		const log = readLogFrom(options.logFile, options.logFromByte);
		for (const id of [...pending]) {
			if (log.includes(`(ID: ${id})`)) pending.delete(id);
		}
		if (pending.size === 0) return;
		if (Date.now() > deadline) {
			throw new Error(
				`Timed out waiting for n8n to activate the stored workflows ${[...pending].join(', ')} after its start`,
			);
		}
		await pause(250);
	}
}

function readLogFrom(file: string, fromByte: number): string {
	try {
		if (statSync(file).size <= fromByte) return '';
		return readFileSync(file).subarray(fromByte).toString('utf8');
	} catch {
		return '';
	}
}

/** The size of a log file now (0 when it does not exist yet): where to read new lines from. */
export function logSize(file: string): number {
	try {
		return statSync(file).size;
	} catch {
		return 0;
	}
}
