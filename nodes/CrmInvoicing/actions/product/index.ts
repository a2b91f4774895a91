import { operationOption } from '../operation';

export * as get from './get';

export const operations = [operationOption('Get', 'get', 'Get a product', 'Get a product by ID')];
