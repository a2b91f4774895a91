import { getOperation, textProperty } from '../common';

export const { description, execute } = getOperation(
	'client',
	textProperty('Client ID', 'clientId', {
		required: true,
		placeholder: 'e.g. cli_4c1a9e',
		description: 'Public ID of the client (a company or a contact)',
	}),
);
