import { patchOperation } from '../common';
import { LEAD } from './patch';

export const { description, execute } = patchOperation(LEAD, { archived: true });
