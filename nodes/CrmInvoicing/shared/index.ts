// The shared layer's one door: import from here, never from a file inside shared/. Only transport/ does HTTP.
export * from './transport';
export * from './apiChoices';
export * from './simplify';
export * from './webhookList';
export * from './deadline';
export * from './hash';
export * from './nodeIdentity';
export * from './boundedMap';
export * from './values';
