import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../CrmInvoicing/transport';
import { cachedSecret, isWrapped, unwrapSecret, wrapSecret, type SecretOwner } from './secretAtRest';
import type { StoredSubscription } from './subscription';

/** The n8n contexts that read the stored secret: the trigger's lifecycle and its deliveries. */
export type SecretContext = IHookFunctions | IWebhookFunctions;

/** The credential's API key: the key material the wrapping key is derived from. */
export async function apiKeyOf(context: SecretContext): Promise<string> {
	const data = await context.getCredentials(CREDENTIAL_TYPE);
	return typeof data.apiKey === 'string' ? data.apiKey : String(data.apiKey ?? '');
}

/** Whose secret: this workflow's node's subscription `subscriptionId`. */
export function secretOwner(context: SecretContext, subscriptionId: string): SecretOwner {
	const node = context.getNode();
	return { workflowId: String(context.getWorkflow().id ?? ''), nodeId: node.id ?? node.name, subscriptionId };
}

export type StoredSecret =
	| { kind: 'secret'; secret: string }
	/** Nothing stored (no subscription yet, or its secret was lost). */
	| { kind: 'none' }
	/** A wrapped secret that does not unwrap: the credential's API key changed, or the data was copied elsewhere. */
	| { kind: 'unusable' };

/**
 * The stored subscription's signing secret: the wrapped one, unwrapped; else a clear one written by 0.2 that
 * activation has not migrated yet (n8n versions that do not run checkExists at start-up). `apiKey` is asked for only
 * when needed; with `useCache`, a secret this process unwrapped before is taken from memory (deliveries).
 */
export async function storedSecretOf(
	stored: Pick<StoredSubscription, 'webhookSecretWrapped' | 'webhookSecret'>,
	apiKey: () => Promise<string>,
	owner: SecretOwner,
	useCache: boolean,
): Promise<StoredSecret> {
	const wrapped = stored.webhookSecretWrapped;
	if (wrapped !== undefined) {
		if (!isWrapped(wrapped)) return { kind: 'unusable' };
		const secret = (useCache ? cachedSecret(wrapped, owner) : undefined) ?? unwrapSecret(wrapped, await apiKey(), owner);
		return secret === undefined ? { kind: 'unusable' } : { kind: 'secret', secret };
	}
	if (stored.webhookSecret !== undefined) return { kind: 'secret', secret: stored.webhookSecret };
	return { kind: 'none' };
}

export { wrapSecret };
