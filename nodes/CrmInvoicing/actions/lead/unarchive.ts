import { patchOperation } from './patch';

export const { description, execute } = patchOperation('unarchive', { archived: false });
