import { patchOperation } from './patch';

/** Same request as Update with Status WON. */
export const { description, execute } = patchOperation('markWon', { status: 'WON' });
