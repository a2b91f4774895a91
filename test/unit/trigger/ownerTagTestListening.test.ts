/**
 * n8n 2.38 and 2.41 start test listening ("Test this trigger") with mode "manual" and end it (Stop Listening, or after
 * the event) with mode "internal" (test-webhooks.js: deleteWebhook(workflow, webhook, 'internal', 'update')). The
 * owner tag must be the same at both ends, or the trigger forgets its test subscription without deleting it.
 */
import { ownerTag } from '../../../nodes/CrmInvoicing/trigger/store';

function context(mode: string, url: string) {
	return {
		getInstanceId: () => 'instance-1',
		getWorkflow: () => ({ id: 'wf1' }),
		getNode: () => ({ id: 'node-1', name: 'On Lead Created' }),
		getMode: () => mode,
		getNodeWebhookUrl: () => url,
	};
}

const TEST_URL = 'https://n8n.example.com/webhook-test/2f0c/webhook';
const PRODUCTION_URL = 'https://n8n.example.com/webhook/2f0c/webhook';

describe('owner tag across test listening', () => {
	it('is the same when test listening starts ("manual") and when n8n ends it ("internal")', () => {
		expect(ownerTag(context('internal', TEST_URL))).toBe(ownerTag(context('manual', TEST_URL)));
	});

	it('differs between test listening and production', () => {
		expect(ownerTag(context('manual', TEST_URL))).not.toBe(
			ownerTag(context('trigger', PRODUCTION_URL)),
		);
		expect(ownerTag(context('internal', PRODUCTION_URL))).toBe(
			ownerTag(context('trigger', PRODUCTION_URL)),
		);
		expect(ownerTag(context('internal', TEST_URL))).not.toBe(
			ownerTag(context('internal', PRODUCTION_URL)),
		);
	});
});
