/** Shared values of the trigger tests (not a test file). */
import type { IDataObject } from 'n8n-workflow';

import { CrmInvoicingTrigger } from '../../../nodes/CrmInvoicingTrigger/CrmInvoicingTrigger.node';
import { ownerTag } from '../../../nodes/CrmInvoicingTrigger/ownership';
import { TEST_CREDENTIALS } from '../../helpers/harness';

export const nodeType = new CrmInvoicingTrigger();

export const API = TEST_CREDENTIALS.baseUrl;
export const PRODUCTION_URL = 'https://n8n.example.com/webhook/c0ffee00-0000-4000-8000-0000000000aa/webhook';
export const TEST_URL = 'https://n8n.example.com/webhook-test/c0ffee00-0000-4000-8000-0000000000aa/webhook';

/** A signing secret as the API issues them: whsec_ + base64 of random bytes. */
export const SECRET = 'whsec_' + Buffer.from('the-current-signing-key-for-tests!').toString('base64');
export const OLD_SECRET = 'whsec_' + Buffer.from('the-previous-signing-key-for-test').toString('base64');
/** The part of a secret that is the key: it must not appear anywhere either. */
export const secretParts = (secret: string) => [secret, secret.slice('whsec_'.length)];

export const nowSeconds = () => Math.floor(Date.now() / 1000);

let sequence = 0;
/** A fresh `webhook-id` per call, so deliveries of different tests are never taken for retries of each other. */
export const nextMessageId = () => `msg_test_${process.pid}_${++sequence}`;

/** The harness's n8n instance id, workflow id and node id (test/helpers/harness.ts). */
export const HARNESS_IDS = {
	instanceId: 'test-instance-id',
	workflowId: 'harness-workflow',
	nodeId: 'c0ffee00-0000-4000-8000-000000000001',
};

/** The owner tag of a trigger: by default the harness's node in production. */
export function tagFor(mode: 'trigger' | 'manual' = 'trigger', ids: Partial<typeof HARNESS_IDS> = {}): string {
	const { instanceId, workflowId, nodeId } = { ...HARNESS_IDS, ...ids };
	return ownerTag({
		getInstanceId: () => instanceId,
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({ id: nodeId, name: 'CRM Invoicing Trigger' }),
		getMode: () => mode,
	});
}

/** What the harness's production trigger stores after creating `whk_1`. */
export function storedSubscription(overrides: IDataObject = {}): IDataObject {
	return {
		webhookId: 'whk_1',
		webhookSecret: SECRET,
		webhookUrl: PRODUCTION_URL,
		webhookEvents: ['deal.stage_changed', 'lead.created'],
		webhookOwner: tagFor(),
		...overrides,
	};
}
