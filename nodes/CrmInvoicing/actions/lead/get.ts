import { getOperation } from '../common/record';
import { leadIdOf, leadIdProperty } from './patch';

export const { description, execute } = getOperation('lead', '/leads', leadIdProperty, leadIdOf);
