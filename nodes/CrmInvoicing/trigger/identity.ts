import { createHash } from 'node:crypto';
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { nodeIdentity, type NodeIdentityContext } from '../shared';

/**
 * Who this trigger is: its owner tag (its identity, shared/nodeIdentity.ts, with n8n's instance id and the mode), a
 * hash that ends the subscription's name, holds no secret and tells nothing about the instance
 * (docs/trigger.md#which-subscriptions-the-trigger-deletes).
 */

const TAG_LENGTH = 16;
const TAG_PATTERN = /\[n8n:([A-Za-z0-9_-]{8,43})\]\s*$/;

export type TriggerContext = IHookFunctions | IWebhookFunctions;

export interface NodeContext extends NodeIdentityContext {
	getInstanceId?: () => string;
	getMode?: () => string;
	getNodeWebhookUrl?: (name: 'default') => string | undefined;
}

/** n8n's instance id (n8n 1.x and 2.x give it to every node context); empty if this n8n does not. */
function instanceIdOf(context: NodeContext): string {
	try {
		const id = typeof context.getInstanceId === 'function' ? context.getInstanceId() : '';
		return typeof id === 'string' ? id : '';
	} catch {
		return '';
	}
}

/** n8n starts test listening in mode "manual" but ends it in "internal" (as a deactivation), so the URL decides. */
function modeOf(context: NodeContext): 'test' | 'production' {
	if (context.getMode?.() === 'manual') return 'test';
	try {
		return /\/webhook-test\//.test(context.getNodeWebhookUrl?.('default') ?? '')
			? 'test'
			: 'production';
	} catch {
		return 'production';
	}
}

export function ownerTag(context: NodeContext): string {
	const { workflowId, nodeId } = nodeIdentity(context);
	const parts = [
		'crm-invoicing-trigger',
		instanceIdOf(context),
		workflowId,
		nodeId,
		modeOf(context),
	];
	return createHash('sha256')
		.update(parts.join('\u0000'), 'utf8')
		.digest('base64url')
		.slice(0, TAG_LENGTH);
}

export function taggedName(name: string, tag: string): string {
	return `${name} [n8n:${tag}]`;
}

export function tagOfName(name: unknown): string | undefined {
	if (typeof name !== 'string') return undefined;
	return TAG_PATTERN.exec(name)?.[1];
}
