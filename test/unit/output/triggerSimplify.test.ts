/** The trigger's Simplify (version 2, on by default); off, and in version-1 triggers, the delivery as 0.2 output it. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SIMPLIFIED_FIELDS } from '../../../nodes/CrmInvoicing/shared/simplify';
import { useNock } from '../../helpers/nock';
import { deliver as deliverSigned, eventBody, nodeType } from '../../helpers/trigger';

useNock();

/** A lead event's payload as spec §6 shows it. */
const LEAD_PAYLOAD = {
	id: 'lead_42',
	name: 'Jane Doe',
	email: 'jane@example.com',
	mobile: '+33 6 00 00 00 00',
	title: 'Buyer',
	value: 1200,
	source: 'Website',
	stage: 'New',
	stageId: 7,
	archived: false,
	createdAt: '2026-11-23T01:00:00.000Z',
	customFields: { budget: 'high' },
	ownerId: 1,
	ownerName: 'Ada Admin',
};
/** The lead's simplified fields the payload has, in their order. */
const IN_ORDER = 'id name email mobile title value stageId archived createdAt'.split(' ');
/** The timestamp of eventBody(). */
const TIMESTAMP = '2024-05-01T10:00:00.000Z';

async function deliver(
	event: string,
	payload: unknown,
	parameters: INodeParameters,
	typeVersion?: number,
): Promise<IDataObject[]> {
	const events = { events: ['lead.created', 'deal.stage_changed'], ...parameters };
	const rawBody = eventBody(event, payload);
	const delivered = await deliverSigned({ rawBody, parameters: events, typeVersion });
	expect(delivered.status).toBe(200);
	return delivered.items;
}

const simplifiedLead = Object.fromEntries(
	SIMPLIFIED_FIELDS.lead
		.filter((field) => field in LEAD_PAYLOAD)
		.map((field) => [field, (LEAD_PAYLOAD as IDataObject)[field]]),
);

describe('trigger: Simplify', () => {
	const whole = {
		event: 'lead.created',
		timestamp: TIMESTAMP,
		payload: LEAD_PAYLOAD,
		webhookId: expect.stringMatching(/^msg_test_/),
	};
	const payloadOnly = { options: { payloadOnly: true } };

	it.each<[string, INodeParameters, number | undefined, unknown[]]>([
		[
			"on by default in a new trigger: event, timestamp and the lead's simplified fields",
			{},
			undefined,
			[{ event: 'lead.created', timestamp: TIMESTAMP, payload: simplifiedLead }],
		],
		['with Payload Only, the simplified lead alone', payloadOnly, undefined, [simplifiedLead]],
		['off: the delivery as 0.2 output it', { simplify: false }, 2, [whole]],
		['a version-1 trigger (saved with 0.2): as 0.2 output it', {}, 1, [whole]],
		['a version-1 trigger, whatever its parameters say', { simplify: true }, 1, [whole]],
		[
			'a version-1 trigger with Payload Only: the payload as received',
			payloadOnly,
			1,
			[LEAD_PAYLOAD],
		],
	])('%s', async (_name, parameters, version, items) => {
		expect(await deliver('lead.created', LEAD_PAYLOAD, parameters, version)).toEqual(items);
	});

	it("keeps the lead's simplified fields in their order", async () => {
		const [item] = await deliver('lead.created', LEAD_PAYLOAD, {});
		expect(Object.keys(item.payload as IDataObject)).toEqual(IN_ORDER);
	});

	it('keeps the payload of other events whole (the spec does not show their shapes)', async () => {
		const deal = {
			id: 'deal_1',
			title: 'Big deal',
			stageId: 'pst_2',
			price: 5000,
			extra: { a: 1 },
		};
		expect(await deliver('deal.stage_changed', deal, {})).toEqual([
			{ event: 'deal.stage_changed', timestamp: TIMESTAMP, payload: deal },
		]);
	});

	it('is a version-2 parameter of the trigger, on by default', () => {
		const { description } = nodeType;
		expect(description.defaultVersion).toBe(2);
		expect(description.properties.find((property) => property.name === 'simplify')).toMatchObject({
			displayName: 'Simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
		});
	});
});
