import { patchOperation } from './patch';

export const { description, execute } = patchOperation('markLost', { status: 'LOST' });
