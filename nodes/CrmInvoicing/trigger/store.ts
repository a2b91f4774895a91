import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import {
	BoundedMap,
	credentialOf,
	filledText,
	nodeIdentity,
	nodeKey,
	nothing,
	sha256,
	texts,
	type NodeIdentityContext,
} from '../shared';

// The only reader and writer of the trigger's static data. docs/security.md#what-it-stores

export type TriggerContext = IHookFunctions | IWebhookFunctions;

/** Never logs a secret or a body. */
export function log(of: TriggerContext, message: string, info = false) {
	const workflowId = of.getWorkflow().id;
	const nodeName = of.getNode().name;
	of.logger[info ? 'info' : 'warn'](
		`CRM Invoicing Trigger: ${message} [workflow ${workflowId ?? ''}, node "${nodeName}"]`,
		{ workflowId, nodeName },
	);
}

export interface StoredSubscription {
	id: string;
	url?: string;
	events?: string[];
	secretWrapped?: string;
	/** Data of 0.1 has none. */
	ownerTag?: string;
}

/** Kept so that a delivery its secret verifies gets 410. */
type RetiredSubscription = {
	id: string;
	url: string;
	secretWrapped?: string;
};

const MAX_RETIRED = 3;
export const RECENT_DELIVERIES_LIMIT = 1000;

/** [current name, name of 0.1 to 0.3 (read, then removed)]. */
const NAMES = {
	id: ['subscriptionId', 'webhookId'],
	url: ['subscriptionUrl', 'webhookUrl'],
	events: ['subscriptionEvents', 'webhookEvents'],
	secretWrapped: ['secretWrapped', 'webhookSecretWrapped'],
	ownerTag: ['ownerTag', 'webhookOwner'],
	retired: ['retiredSubscriptions', 'webhookRetired'],
} as const;
const RECENT = 'recentDeliveries';

function retiredOf(value: unknown): RetiredSubscription[] {
	if (!Array.isArray(value)) return [];
	return value.slice(-MAX_RETIRED).flatMap((entry: IDataObject | null) => {
		const id = filledText(entry?.id ?? entry?.webhookId);
		const url = filledText(entry?.url ?? entry?.webhookUrl);
		const secretWrapped = filledText(entry?.secretWrapped ?? entry?.webhookSecretWrapped);
		if (id === undefined || url === undefined) return [];
		return [{ id, url, secretWrapped }];
	});
}

/** The trigger's state is n8n's static data of this node: this file is the one that reaches it. */
export const nodeData = (of: TriggerContext) => of.getWorkflowStaticData('node');

export function readState(data: IDataObject) {
	const at = (field: keyof typeof NAMES) => data[NAMES[field][0]] ?? data[NAMES[field][1]];
	const id = filledText(at('id'));
	const subscription: StoredSubscription | undefined =
		id === undefined
			? undefined
			: {
					id,
					url: filledText(at('url')),
					events: texts(at('events')),
					secretWrapped: filledText(at('secretWrapped')),
					ownerTag: filledText(at('ownerTag')),
				};
	return {
		subscription,
		retired: retiredOf(at('retired')),
		recentDeliveries: texts(data[RECENT]) ?? [],
	};
}

/** Each value is set anew (n8n notices a set, not a change inside a value it holds). */
export function saveState(data: IDataObject, changes: Partial<ReturnType<typeof readState>>) {
	const { subscription, retired, recentDeliveries } = { ...readState(data), ...changes };
	// webhookSecret: removed, never read, the clear secret of 0.1/0.2.
	for (const key of [...Object.values(NAMES).flat(), 'webhookSecret', RECENT]) delete data[key];
	if (subscription) {
		for (const field of ['id', 'url', 'events', 'secretWrapped', 'ownerTag'] as const) {
			const value = subscription[field];
			if (value !== undefined) data[NAMES[field][0]] = value;
		}
		if (recentDeliveries.length > 0)
			data[RECENT] = recentDeliveries.slice(-RECENT_DELIVERIES_LIMIT);
	}
	if (retired.length > 0) data[NAMES.retired[0]] = retired.slice(-MAX_RETIRED);
}

export function retireSubscription(data: IDataObject, entry: RetiredSubscription) {
	const others = readState(data).retired.filter((known) => known.id !== entry.id);
	saveState(data, { retired: [...others, entry] });
}

// Also in memory, updated synchronously: each delivery reads its own copy of the static data. docs/scale.md
const memory = new BoundedMap<string, BoundedMap<string, true>>(200);

export const fingerprint = (deliveryId: string) => sha256(deliveryId, 22);

const newDeliveryMemory = () => new BoundedMap<string, true>(RECENT_DELIVERIES_LIMIT);

/** False when already accepted; `ask` only asks. */
export function acceptOnce(data: IDataObject, memoryKey: string, deliveryId: string, ask = false) {
	const print = fingerprint(deliveryId);
	const { recentDeliveries } = readState(data);
	if (memory.peek(memoryKey)?.has(print) || recentDeliveries.includes(print)) return false;
	if (ask) return true;
	memory.getOrSet(memoryKey, newDeliveryMemory).set(print, true);
	saveState(data, { recentDeliveries: [...recentDeliveries, print] });
	return true;
}

type TagContext = NodeIdentityContext &
	Pick<IHookFunctions, 'getInstanceId'> &
	Partial<Pick<IHookFunctions, 'getNodeWebhookUrl'>> & { getMode(): string };

// A hash: no secret, nothing about the instance. n8n starts test listening as "manual" but ends it as "internal",
// so the URL tells the mode too.
export function ownerTag(context: TagContext) {
	const { workflowId, nodeId } = nodeIdentity(context);
	const url = context.getNodeWebhookUrl?.('default') ?? '';
	const test = context.getMode() === 'manual' || /\/webhook-test\//.test(url);
	const parts = [
		'crm-invoicing-trigger',
		context.getInstanceId(),
		workflowId,
		nodeId,
		test ? 'test' : 'production',
	];
	return sha256(parts.join('\u0000'), 16);
}

export const tagOf = (name: unknown) => /\[n8n:([\w-]{8,43})\]\s*$/.exec(String(name))?.[1];

// Static data leaks through n8n's public API, exports and backups, so the secret is wrapped under the API key.
// docs/trigger.md#rotating-the-api-key
const FORMAT = 'aes256gcm.v1';
const SALT = Buffer.from('n8n-nodes-crm-invoicing/trigger-secret/v1');

export type SecretOwner = ReturnType<typeof secretOwner>;

export function secretOwner(context: TriggerContext, subscriptionId: string) {
	return { ...nodeIdentity(context), subscriptionId };
}

const infoOf = (owner: SecretOwner) =>
	[FORMAT, owner.workflowId, owner.nodeId, owner.subscriptionId].join('\u0000');
const keyOf = (apiKey: string, owner: SecretOwner) =>
	Buffer.from(hkdfSync('sha256', apiKey, SALT, infoOf(owner), 32));

// With the print of the key used, to outlast a key change.
const knownSecrets = new BoundedMap<string, { secret: string; keyPrint: string }>(500);
const knownSecretKey = (wrapped: string, owner: SecretOwner) => `${infoOf(owner)}\u0000${wrapped}`;

const toBase64url = (part: Buffer) => part.toString('base64url');
const fromBase64url = (part: string) => Buffer.from(part, 'base64url');

export function wrapSecret(secret: string, apiKey: string, owner: SecretOwner) {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', keyOf(apiKey, owner), iv);
	cipher.setAAD(Buffer.from(infoOf(owner)));
	const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
	const parts = [iv, ciphertext, cipher.getAuthTag()].map(toBase64url);
	const wrapped = [FORMAT, ...parts].join(':');
	knownSecrets.set(knownSecretKey(wrapped, owner), { secret, keyPrint: sha256(apiKey) });
	return wrapped;
}

/** Undefined when it does not unwrap with this key for this owner; never throws. */
export function unwrapSecret(wrapped: string, key: string, owner: SecretOwner) {
	const [format, ...parts] = wrapped.split(':');
	const [iv, ciphertext, tag] = parts.map(fromBase64url);
	// A shorter tag would weaken the check. An IV of another length than wrapSecret's fails it.
	if (parts.length !== 3 || format !== FORMAT || tag.length !== 16) return undefined;
	try {
		const decipher = createDecipheriv('aes-256-gcm', keyOf(key, owner), iv);
		decipher.setAAD(Buffer.from(infoOf(owner)));
		decipher.setAuthTag(tag);
		const secret = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString();
		knownSecrets.set(knownSecretKey(wrapped, owner), { secret, keyPrint: sha256(key) });
		return secret;
	} catch {
		return undefined;
	}
}

/** Why a stored secret cannot be read with the credential's key: the hooks, deliveries and renewals say it alike. */
export const WHY_UNREADABLE =
	"(the key changed while no n8n process held the secret, for example across a restart, the workflow's data was copied from another workflow, or an earlier version stored it in clear)";

/** The secret with the print of the key it was read with: from memory, else unwrapped with the credential (and
 * with the key as saved too: 0.3 and 0.4 wrapped with the untrimmed key). Reads the credential only when memory
 * does not hold the secret. */
export async function readSecret(context: TriggerContext, stored: StoredSubscription) {
	const wrapped = stored.secretWrapped;
	if (wrapped === undefined) return undefined;
	const owner = secretOwner(context, stored.id);
	const cacheKey = knownSecretKey(wrapped, owner);
	if (!knownSecrets.peek(cacheKey)) {
		const { apiKey, savedKey } = await credentialOf(context);
		if (unwrapSecret(wrapped, apiKey, owner) === undefined) unwrapSecret(wrapped, savedKey, owner);
	}
	return knownSecrets.get(cacheKey);
}

/** Undefined when it holds no secret, or one already wrapped under this key. */
async function wrappedAnew(of: TriggerContext, stored: StoredSubscription, apiKey: string) {
	const entry = await readSecret(of, stored);
	if (entry === undefined || entry.keyPrint === sha256(apiKey)) return undefined;
	return wrapSecret(entry.secret, apiKey, secretOwner(of, stored.id));
}

/** No time-based skip: a restart right after a key change must read the secret with the new key. */
export async function rewrap(of: TriggerContext, stored: StoredSubscription) {
	const credential = await credentialOf(of).catch(nothing);
	if (credential === undefined) return;
	const data = nodeData(of);
	const anew = await wrappedAnew(of, stored, credential.apiKey);
	if (anew) {
		saveState(data, { subscription: { ...stored, secretWrapped: anew } });
		log(
			of,
			`the credential's API key changed; wrapped the signing secret of webhook subscription ${stored.id} anew under the new key ` +
				'(this n8n process had read it under the key before, or under this key with the spaces it was saved with), so that deliveries are verified after a restart too',
			true,
		);
	}
	for (const entry of readState(data).retired) {
		const secretWrapped = await wrappedAnew(of, entry, credential.apiKey);
		if (secretWrapped) retireSubscription(data, { ...entry, secretWrapped });
	}
}

/** What a delivery needs, in one read: the stored subscription, its secret as readSecret gives it (null: the
 * credential cannot be read; undefined: unreadable), the retired ones' readable secrets, whether this delivery id was
 * accepted already, and the key of the delivery memory it is accepted in: this node's, for this subscription (two
 * CRMs may number their subscriptions and deliveries alike). */
export async function readDelivery(context: IWebhookFunctions, deliveryId: string) {
	const data = nodeData(context);
	const { subscription: stored, retired } = readState(data);
	if (!stored) return undefined;
	const secret = await readSecret(context, stored).catch(() => null);
	// One that cannot be read stays undefined: no signature matches it.
	const retiredSecrets = [];
	for (const entry of retired)
		retiredSecrets.push((await readSecret(context, entry).catch(nothing))?.secret);
	const memoryKey = `${nodeKey(context)}:${stored.id}`;
	return {
		stored,
		secret,
		retired: retiredSecrets,
		seen: !acceptOnce(data, memoryKey, deliveryId, true),
		memoryKey,
	};
}
