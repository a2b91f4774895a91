/** The user picker and Contact → Get Many's filter; User → Get Many's filters are in specSilences.test.ts, paging in lists.test.ts. */
import { CrmInvoicing } from '../../../nodes/CrmInvoicing/CrmInvoicing.node';
import { searchUsers } from '../../../nodes/CrmInvoicing/actions/methods/listSearch';
import { USER_SEARCH_QUERY_PARAMETER } from '../../../nodes/CrmInvoicing/shared/apiChoices';
import { createLoadOptionsContext } from '../../helpers/harness';
import { api, jsonOf, run, useNock } from './support';
import { v1Page, v2Page } from '../../helpers/actions';

useNock();

/** A user as the CRM lists it (the fields the picker names it by). */
const user = (id: string) => ({
	id,
	firstName: 'Jane',
	lastName: 'Doe',
	email: 'jane@example.com',
});

describe('the user picker and Contact → Get Many', () => {
	it('searchUsers (From List, e.g. the invoice sales person) searches active users as the user types, names them, and pages with the pagination token', async () => {
		const { context } = createLoadOptionsContext({
			nodeType: new CrmInvoicing(),
			parameters: { resource: 'invoice', operation: 'create' },
		});
		const scope = api()
			.get('/api/v1/users')
			.query({ limit: '100', active: 'true', [USER_SEARCH_QUERY_PARAMETER]: 'ja' })
			.reply(
				200,
				v1Page(
					[
						user('usr_1'),
						{ id: 'usr_2', firstName: '', email: 'jay.ops@example.com' },
						{ id: 'usr_3' },
					],
					'u2',
				),
			)
			.get('/api/v1/users')
			.query({ limit: '100', active: 'true', cursor: 'u2' })
			.reply(200, v1Page([user('usr_4')]));

		expect(await searchUsers.call(context, 'ja')).toEqual({
			results: [
				{ name: 'Jane Doe · jane@example.com', value: 'usr_1' },
				{ name: 'jay.ops@example.com', value: 'usr_2' },
				{ name: 'usr_3', value: 'usr_3' },
			],
			paginationToken: 'u2',
		});
		expect(await searchUsers.call(context, undefined, 'u2')).toEqual({
			results: [{ name: 'Jane Doe · jane@example.com', value: 'usr_4' }],
			paginationToken: undefined,
		});
		expect(scope.isDone()).toBe(true);
	});

	it('Contact → Get Many (API v2) sends the search filter, and outputs one item per contact', async () => {
		const contact = (id: string) => ({ id, firstName: 'Ann', email: 'ann@example.com' });
		api()
			.get('/api/v2/contacts')
			.query({ pageSize: '50', search: 'ann' })
			.reply(200, v2Page([contact('con_1'), contact('con_2')]));

		const output = await run({
			resource: 'contact',
			operation: 'getMany',
			simplify: false,
			filters: { search: 'ann' },
		});

		expect(jsonOf(output)).toEqual([contact('con_1'), contact('con_2')]);
	});
});
