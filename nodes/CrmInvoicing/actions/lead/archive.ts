import { patchOperation } from './patch';

export const { description, execute } = patchOperation('archive', { archived: true });
