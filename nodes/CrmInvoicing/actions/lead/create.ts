import { additionalFieldsProperty, createOperation, textProperty } from '../common';
import { leadFieldOptions } from './fields';
import { LEAD } from './patch';

export const { description, execute } = createOperation(LEAD, [
	textProperty('Name', 'name', {
		required: true,
		placeholder: 'Jane Doe',
		description: 'Full name of the lead',
	}),
	additionalFieldsProperty(leadFieldOptions),
]);
