import { patchOperation } from '../common';
import { DEAL } from './patch';

export const { description, execute } = patchOperation(DEAL, { status: 'LOST' });
