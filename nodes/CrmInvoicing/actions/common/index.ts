export * from './fields';
export * from './list';
export * from './mapperFields';
export * from './options';
export * from './output';
export * from './record';
