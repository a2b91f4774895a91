import { textProperty } from '../common/options';
import { getOperation } from '../common/record';

export const operations = [
	{
		name: 'Get',
		value: 'get',
		action: 'Get a client',
		description: 'Get a client by ID',
	},
];

export const get = getOperation(
	'client',
	'/clients',
	textProperty('Client ID', 'clientId', {
		required: true,
		placeholder: 'e.g. cli_4c1a9e',
		description: 'Public ID of the client (a company or a contact)',
	}),
);
