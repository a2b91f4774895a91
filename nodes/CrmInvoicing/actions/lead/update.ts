import { updateOperation } from '../common';
import { leadUpdateFieldOptions } from './fields';
import { LEAD } from './patch';

export const { description, execute } = updateOperation(LEAD, leadUpdateFieldOptions);
