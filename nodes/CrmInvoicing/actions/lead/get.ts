import { getOperation } from '../common/record';
import { leadIdOf, leadIdProperty } from './leadId';

export const { description, execute } = getOperation('lead', '/leads', leadIdProperty, leadIdOf);
