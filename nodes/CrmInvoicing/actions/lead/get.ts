import { getOperation } from '../common';
import { LEAD } from './patch';

export const { description, execute } = getOperation('lead', '/leads', LEAD.idProperty, LEAD.idOf);
