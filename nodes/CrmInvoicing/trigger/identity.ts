import { createHash } from 'node:crypto';
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/**
 * Who this trigger is, written once for everything that needs it:
 * - the node's identity (workflow id and node id): the key of every in-process memory about the node and what its
 *   secret's wrapping key is bound to (secret.ts);
 * - its owner tag: a short hash of n8n's instance id, the workflow id, the node id and the mode (production or
 *   "Listen for test event"). The tag ends the subscription's name (`… [n8n:<tag>]`) and is kept in the node's stored
 *   state: a subscription counts as this node's own only when it carries it (and, to be deleted, delivers to this
 *   node's URL: subscription.ts). It is a hash: it tells nothing about the instance and holds no secret.
 */

const TAG_LENGTH = 16;
const TAG_PATTERN = /\[n8n:([A-Za-z0-9_-]{8,43})\]\s*$/;

/** Either n8n context the trigger runs in: a hook (activation, deactivation) or a delivery. */
export type TriggerContext = IHookFunctions | IWebhookFunctions;

/** The parts of n8n's hook and webhook contexts the identity is built from. */
export interface NodeContext {
	getInstanceId?: () => string;
	getWorkflow(): { id?: string | number };
	getNode(): { id?: string; name: string };
	getMode?: () => string;
	getNodeWebhookUrl?: (name: 'default') => string | undefined;
}

export interface NodeIdentity {
	workflowId: string;
	nodeId: string;
}

export function nodeIdentity(context: NodeContext): NodeIdentity {
	const node = context.getNode();
	return { workflowId: String(context.getWorkflow().id ?? ''), nodeId: node.id ?? node.name };
}

/** The node's key in this process's memories (mode aside: a delivery does not know it). */
export function nodeKey(context: NodeContext): string {
	const { workflowId, nodeId } = nodeIdentity(context);
	return `${workflowId}:${nodeId}`;
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

/**
 * "test" while n8n listens for a test event, else "production": each has its own subscription and tag. n8n starts
 * test listening in mode "manual" but ends it (Stop Listening, or after the event) in mode "internal", as when it
 * deactivates a workflow; the webhook URL tells them apart, since n8n builds it from the registration
 * (`/webhook-test/…` while test listening).
 */
function modeOf(context: NodeContext): 'test' | 'production' {
	if (context.getMode?.() === 'manual') return 'test';
	try {
		return /\/webhook-test\//.test(context.getNodeWebhookUrl?.('default') ?? '') ? 'test' : 'production';
	} catch {
		return 'production';
	}
}

/** This node's owner tag for the current mode. */
export function ownerTag(context: NodeContext): string {
	const { workflowId, nodeId } = nodeIdentity(context);
	const parts = ['crm-invoicing-trigger', instanceIdOf(context), workflowId, nodeId, modeOf(context)];
	return createHash('sha256').update(parts.join('\u0000'), 'utf8').digest('base64url').slice(0, TAG_LENGTH);
}

export function taggedName(name: string, tag: string): string {
	return `${name} [n8n:${tag}]`;
}

export function tagOfName(name: unknown): string | undefined {
	if (typeof name !== 'string') return undefined;
	return TAG_PATTERN.exec(name)?.[1];
}
