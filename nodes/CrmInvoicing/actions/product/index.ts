import { op } from '../operation';
import * as get from './get';

export const operations = [op('Get', 'get', get, 'Get a product', 'Get a product by ID')];
