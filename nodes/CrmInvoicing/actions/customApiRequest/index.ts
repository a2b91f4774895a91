import { op } from '../operation';
import * as request from './request';

export const operations = [
	op(
		'Request',
		'request',
		request,
		'Make a custom API request',
		'Send a request to any endpoint of the CRM API with this credential',
	),
];
