import { patchOperation } from './patch';

/** Same request as Update with Status LOST. */
export const { description, execute } = patchOperation('markLost', { status: 'LOST' });
