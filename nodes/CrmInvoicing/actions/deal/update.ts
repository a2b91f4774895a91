import { updateOperation } from '../common';
import { dealUpdateFieldOptions } from './fields';
import { DEAL } from './patch';

export const { description, execute } = updateOperation(DEAL, dealUpdateFieldOptions);
