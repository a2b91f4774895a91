import { getOperation } from '../common';
import { LEAD } from './patch';

export const { description, execute } = getOperation('lead', LEAD.idProperty);
