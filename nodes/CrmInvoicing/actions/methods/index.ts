import { getDealFields, getLeadFields } from './resourceMapping';

export * as listSearch from './listSearch';
export * as loadOptions from './loadOptions';
/** The mappers' methods (resourceMapping.ts also lends "Fields" of Output its custom-field lookup). */
export const resourceMapping = { getLeadFields, getDealFields };
