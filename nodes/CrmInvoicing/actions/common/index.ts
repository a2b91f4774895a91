export * from './fields';
export * from './hints';
export * from './list';
export * from './mapperFields';
export * from './options';
export * from './output';
export * from './record';
