/** Issue 11: an ID that is "." or ".." or holds a control character is refused before any request (each path the
 * rule refuses: safety.test's 'paths and IDs'; Custom API Request's Path: refusals.test). */
import { byId, expectValidationError, useNock } from './support';

useNock();

const UNSAFE = ['..', '.', 'lead\n_1', 'a\u0000b', 'x\\..'];

describe.each(UNSAFE)('the ID %p', (id) => {
	it.each([
		['lead get', { resource: 'lead', operation: 'get', leadId: byId(id) }],
		[
			'lead update',
			{ resource: 'lead', operation: 'update', leadId: byId(id), updateFields: { name: 'x' } },
		],
		['lead archive', { resource: 'lead', operation: 'archive', leadId: byId(id) }],
		['deal mark won', { resource: 'deal', operation: 'markWon', dealId: id }],
		['client get', { resource: 'client', operation: 'get', clientId: id }],
		['product get', { resource: 'product', operation: 'get', productId: id }],
		['webhook get', { resource: 'webhook', operation: 'get', webhookId: id }],
		['webhook delete', { resource: 'webhook', operation: 'delete', webhookId: id }],
	])('is refused by %s before any request', async (_what, parameters) => {
		const error = await expectValidationError(
			parameters,
			/^The node refused to send (GET|PATCH|DELETE) \/api\/v1\/\w+\//,
		);
		expect(error.message).toMatch(/segment|control character|backslash/);
	});
});
