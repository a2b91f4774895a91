import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The signing secret at rest. The `whsec_` secret is never kept in clear in the node's static data (which n8n's public
 * API, `n8n export:workflow` and backups return to anyone who may read the workflow): it is wrapped with AES-256-GCM
 * under a key derived (HKDF-SHA256) from the credential's API key and the workflow, node and subscription ids. n8n
 * stores credentials encrypted, so the workflow alone reveals neither the secret nor the key that unwraps it.
 *
 * A wrapped secret that does not unwrap (the credential's API key changed, or the static data was copied to another
 * workflow or node) counts as no secret: deliveries are answered 503 and the next activation subscribes anew.
 * Unwrapped secrets are cached in this process's memory (bounded), keyed by the wrapped text and its owner, so a
 * delivery costs neither a credential decryption nor HKDF or AES work. Activation never reads the cache: it unwraps
 * with the credential as it is now, so a changed API key is noticed there.
 */

const FORMAT = 'aes256gcm.v1';
const SALT = Buffer.from('n8n-nodes-crm-invoicing/trigger-secret/v1', 'utf8');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_CACHED = 500;

/** What the wrapping key is bound to: whose secret this is. */
export interface SecretOwner {
	workflowId: string;
	nodeId: string;
	subscriptionId: string;
}

function infoOf(owner: SecretOwner): Buffer {
	return Buffer.from([FORMAT, owner.workflowId, owner.nodeId, owner.subscriptionId].join('\u0000'), 'utf8');
}

function keyOf(apiKey: string, owner: SecretOwner): Buffer {
	return Buffer.from(hkdfSync('sha256', Buffer.from(apiKey, 'utf8'), SALT, infoOf(owner), 32));
}

/** The secret wrapped: `aes256gcm.v1:<iv>:<ciphertext>:<tag>` (base64url). The ids are bound as associated data too. */
export function wrapSecret(secret: string, apiKey: string, owner: SecretOwner): string {
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv('aes-256-gcm', keyOf(apiKey, owner), iv);
	cipher.setAAD(infoOf(owner));
	const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	const tag = cipher.getAuthTag();
	return [FORMAT, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join(':');
}

/** Whether a stored value looks like a wrapped secret of this format. */
export function isWrapped(value: unknown): value is string {
	return typeof value === 'string' && value.startsWith(`${FORMAT}:`);
}

const cache = new Map<string, string>();

function cacheKey(wrapped: string, owner: SecretOwner): string {
	return createHash('sha256').update(infoOf(owner)).update('\u0000').update(wrapped, 'utf8').digest('base64url');
}

/** The secret this process unwrapped earlier from exactly this wrapped text for this owner, if any. */
export function cachedSecret(wrapped: string, owner: SecretOwner): string | undefined {
	return cache.get(cacheKey(wrapped, owner));
}

/**
 * The secret, or undefined when `wrapped` does not unwrap with this API key for this owner. Never throws. Always
 * unwraps (a changed key is noticed); what it unwraps is cached for cachedSecret.
 */
export function unwrapSecret(wrapped: string, apiKey: string, owner: SecretOwner): string | undefined {
	const key = cacheKey(wrapped, owner);
	const parts = wrapped.split(':');
	if (parts.length !== 4 || parts[0] !== FORMAT) return undefined;
	try {
		const iv = Buffer.from(parts[1], 'base64url');
		const ciphertext = Buffer.from(parts[2], 'base64url');
		const tag = Buffer.from(parts[3], 'base64url');
		if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
		const decipher = createDecipheriv('aes-256-gcm', keyOf(apiKey, owner), iv);
		decipher.setAAD(infoOf(owner));
		decipher.setAuthTag(tag);
		const secret = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
		cache.set(key, secret);
		while (cache.size > MAX_CACHED) {
			const oldest = cache.keys().next().value;
			if (oldest === undefined) break;
			cache.delete(oldest);
		}
		return secret;
	} catch {
		return undefined;
	}
}

/** How many unwrapped secrets this process holds (tests). */
export function cachedSecretCount(): number {
	return cache.size;
}
