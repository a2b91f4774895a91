import { getDealFields, getLeadFields } from './resourceMapping';

export * as listSearch from './listSearch';
export * as loadOptions from './loadOptions';
/** resourceMapping.ts also lends Output's "Fields" its custom-field lookup. */
export const resourceMapping = { getLeadFields, getDealFields };
