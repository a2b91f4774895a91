const path = require('node:path');
const { task, src, dest } = require('gulp');

/** Copies node and credential icons next to the compiled files, where n8n looks for them. */
function copyIcons() {
	const nodeIcons = src(path.resolve('nodes', '**', '*.{png,svg}'), { encoding: false }).pipe(
		dest(path.resolve('dist', 'nodes')),
	);
	const credentialIcons = src(path.resolve('credentials', '**', '*.{png,svg}'), {
		encoding: false,
		allowEmpty: true,
	}).pipe(dest(path.resolve('dist', 'credentials')));
	return Promise.all([streamEnd(nodeIcons), streamEnd(credentialIcons)]);
}

function streamEnd(stream) {
	return new Promise((resolve, reject) =>
		stream.on('finish', resolve).on('end', resolve).on('error', reject),
	);
}

task('build:icons', copyIcons);
