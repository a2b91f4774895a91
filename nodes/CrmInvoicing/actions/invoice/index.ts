import { op } from '../operation';
import * as create from './create';

export const operations = [
	op(
		'Create',
		'create',
		create,
		'Create an invoice',
		'Create an invoice for a client with one or more line items',
	),
];
