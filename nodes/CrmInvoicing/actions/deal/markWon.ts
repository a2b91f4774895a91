import { patchOperation } from './patch';

export const { description, execute } = patchOperation('markWon', { status: 'WON' });
