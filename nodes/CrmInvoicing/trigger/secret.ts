import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

import { BoundedMap, credentialOf, nodeIdentity, type NodeIdentity } from '../shared';
import type { TriggerContext } from './identity';
import {
	readState,
	retireSubscription,
	updateSubscription,
	type StoredSubscription,
} from './store';

/**
 * The signing secret at rest, never in clear (n8n's public API, exports and backups hand out static data): AES-256-GCM
 * under an HKDF-SHA256 key from the credential's API key (the strongest secret node code can reach; n8n stores it
 * encrypted) and the workflow, node and subscription ids. Processes hold what they wrapped or unwrapped, to outlast a
 * key change (docs/trigger.md#rotating-the-api-key).
 */

const FORMAT = 'aes256gcm.v1';
const SALT = Buffer.from('n8n-nodes-crm-invoicing/trigger-secret/v1', 'utf8');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_CACHED = 500;

export interface SecretOwner extends NodeIdentity {
	subscriptionId: string;
}

export function secretOwner(context: TriggerContext, subscriptionId: string): SecretOwner {
	return { ...nodeIdentity(context), subscriptionId };
}

/** The credential's API key, from the context's one read of the credential (shared with its requests). */
export async function apiKeyOf(context: TriggerContext): Promise<string> {
	return (await credentialOf(context)).apiKey;
}

function infoOf(owner: SecretOwner): Buffer {
	return Buffer.from(
		[FORMAT, owner.workflowId, owner.nodeId, owner.subscriptionId].join('\u0000'),
		'utf8',
	);
}

function keyOf(apiKey: string, owner: SecretOwner): Buffer {
	return Buffer.from(hkdfSync('sha256', Buffer.from(apiKey, 'utf8'), SALT, infoOf(owner), 32));
}

const held = new BoundedMap<string, { secret: string; keyPrint: string }>(MAX_CACHED);

function heldKey(wrapped: string, owner: SecretOwner): string {
	return createHash('sha256')
		.update(infoOf(owner))
		.update('\u0000')
		.update(wrapped, 'utf8')
		.digest('base64url');
}

/** A fingerprint of an API key, kept in memory only, to tell whether a secret is wrapped under the current key. */
function keyPrint(apiKey: string): string {
	return createHash('sha256').update(apiKey, 'utf8').digest('base64url');
}

/** The secret wrapped: `aes256gcm.v1:<iv>:<ciphertext>:<tag>` (base64url). The ids are bound as associated data too. */
export function wrapSecret(secret: string, apiKey: string, owner: SecretOwner): string {
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv('aes-256-gcm', keyOf(apiKey, owner), iv);
	cipher.setAAD(infoOf(owner));
	const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	const wrapped = [
		FORMAT,
		iv.toString('base64url'),
		ciphertext.toString('base64url'),
		cipher.getAuthTag().toString('base64url'),
	].join(':');
	held.set(heldKey(wrapped, owner), { secret, keyPrint: keyPrint(apiKey) });
	return wrapped;
}

/** The secret, or undefined when `wrapped` does not unwrap with this API key for this owner. Never throws. */
export function unwrapSecret(
	wrapped: string,
	apiKey: string,
	owner: SecretOwner,
): string | undefined {
	const parts = wrapped.split(':');
	if (parts.length !== 4 || parts[0] !== FORMAT) return undefined;
	try {
		const iv = Buffer.from(parts[1], 'base64url');
		const tag = Buffer.from(parts[3], 'base64url');
		if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
		const decipher = createDecipheriv('aes-256-gcm', keyOf(apiKey, owner), iv);
		decipher.setAAD(infoOf(owner));
		decipher.setAuthTag(tag);
		const secret = Buffer.concat([
			decipher.update(Buffer.from(parts[2], 'base64url')),
			decipher.final(),
		]).toString('utf8');
		held.set(heldKey(wrapped, owner), { secret, keyPrint: keyPrint(apiKey) });
		return secret;
	} catch {
		return undefined;
	}
}

export type SecretRead =
	| { kind: 'secret'; secret: string }
	/** Nothing stored (no subscription yet, or its secret was lost). */
	| { kind: 'none' }
	/** Wrapped, and neither held by this process nor unwrapped by the credential's key: the key changed, or the data was copied. */
	| { kind: 'unusable' };

/** From memory, else unwrapped (asking for the key only then), else a clear one of 0.1/0.2; throws if `apiKey` does. */
export async function readSecret(
	stored: Pick<StoredSubscription, 'secretWrapped' | 'clearSecret'>,
	owner: SecretOwner,
	apiKey: () => Promise<string>,
): Promise<SecretRead> {
	const wrapped = stored.secretWrapped;
	if (wrapped === undefined)
		return stored.clearSecret === undefined
			? { kind: 'none' }
			: { kind: 'secret', secret: stored.clearSecret };
	const inMemory = held.get(heldKey(wrapped, owner))?.secret;
	if (inMemory !== undefined) return { kind: 'secret', secret: inMemory };
	const secret = unwrapSecret(wrapped, await apiKey(), owner);
	return secret === undefined ? { kind: 'unusable' } : { kind: 'secret', secret };
}

/**
 * After every verified read: when the stored secret is not wrapped under the credential's current key (the key that
 * wrapped or unwrapped it, by fingerprint, is another; or a clear secret of 0.1/0.2), wraps it anew and stores it for
 * n8n to save, and logs so. No time-based skip: the first verified delivery after a key change re-wraps, so a restart
 * right after it reads the secret with the new key (docs/trigger.md#rotating-the-api-key).
 */
export async function keepWrappedUnderKey(
	context: TriggerContext,
	stored: StoredSubscription,
	read: { secret: string },
	apiKey: () => Promise<string>,
): Promise<void> {
	const wrapped = stored.secretWrapped;
	const currentKey = await apiKey().catch(() => undefined);
	if (currentKey === undefined) return;
	const print = keyPrint(currentKey);
	const staticData = context.getWorkflowStaticData('node');
	// What this process holds was wrapped or unwrapped under the key its fingerprint names; else the key tells.
	const underKey = (text: string, owner: SecretOwner) => {
		const known = held.peek(heldKey(text, owner));
		return known ? known.keyPrint === print : unwrapSecret(text, currentKey, owner) !== undefined;
	};
	const owner = secretOwner(context, stored.id);
	if (wrapped === undefined || !underKey(wrapped, owner)) {
		updateSubscription(staticData, { secretWrapped: wrapSecret(read.secret, currentKey, owner) });
		context.logger.info(
			wrapped === undefined
				? `CRM Invoicing Trigger: wrapped the signing secret of webhook subscription ${stored.id}, which an earlier version stored in clear, under the credential's API key; the clear copy is gone`
				: `CRM Invoicing Trigger: the credential's API key changed; wrapped the signing secret of webhook subscription ${stored.id} anew under the new key (this n8n process still held it), so that deliveries are verified after a restart too`,
			{ workflowId: context.getWorkflow().id, nodeName: context.getNode().name },
		);
	}
	// Retired subscriptions' secrets too, where this process holds them: their deliveries keep getting 410 after a restart.
	for (const entry of readState(staticData).retired) {
		const [old, retiredOwner] = [entry.secretWrapped, secretOwner(context, entry.id)];
		const secret =
			old === undefined || underKey(old, retiredOwner)
				? undefined
				: held.peek(heldKey(old, retiredOwner))?.secret;
		if (secret !== undefined)
			retireSubscription(staticData, {
				...entry,
				secretWrapped: wrapSecret(secret, currentKey, retiredOwner),
			});
	}
}
