/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * Issue 30: the resource mapper of node version 3 as a user sees it. Lead → Create opened in the editor lists the
 * lead's fields and the custom fields of the CRM's leads, under "Fields"; the picture of it is the README's
 * (.github/images/mapper.png).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import { ROOT } from '../../scripts/lib/runtime';
import {
	closeBrowser,
	crm,
	eventually,
	inEditor,
	MANUAL,
	manualWorkflow,
	openNode,
	openWorkflow,
} from './lib';

afterAll(closeBrowser);

const NODE = 'Create Lead';
const PICTURE = path.join(ROOT, '.github', 'images', 'mapper.png');

describe('the resource mapper in the editor', () => {
	it('Lead → Create (version 3) lists the standard fields and the custom fields of recent leads', async () => {
		await crm.api('POST', '/leads', {
			name: `UI Seed ${randomUUID().slice(0, 8)}`,
			customFields: { industry: 'Retail', seats: 12, vip: true },
		});
		const id = await manualWorkflow(
			'UI: the Fields mapper',
			NODE,
			{ resource: 'lead', operation: 'create' },
			3,
		);
		await inEditor('mapper', async (page) => {
			await openWorkflow(page, id, [MANUAL, NODE]);
			const ndv = await openNode(page, NODE);
			const mapper = ndv.getByTestId('resource-mapper-container');
			await mapper.waitFor({ state: 'visible' });
			// Create adds every listed field: the standard ones, Name first (required), then the custom ones.
			const text = await eventually('the custom fields in the mapper', async () => {
				const shown = await mapper.innerText();
				return shown.includes('vip (custom field)') ? shown : undefined;
			});
			for (const label of [
				'Name',
				'Email',
				'Value',
				'industry (custom field)',
				'seats (custom field)',
				'vip (custom field)',
			])
				expect(text).toContain(label);
			expect(text.indexOf('Name')).toBeLessThan(text.indexOf('Email'));
			// The picture: the details view scrolled to "Fields", as the user sees it.
			await mapper.evaluate((element) => element.scrollIntoView({ block: 'start' }));
			await ndv.screenshot({ path: PICTURE });
		});
	});
});
